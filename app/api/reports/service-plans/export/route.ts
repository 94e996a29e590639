import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { csvAttachment } from "@/lib/api/csv";
import { exportServicePlansCsv } from "@/lib/domain/reports/exports";
import { getServicePlansExportQuerySchema } from "@/lib/schemas/reports";

// GET /api/reports/service-plans/export – the filtered service plans as a streamed CSV file
export const GET = apiRoute({
  permission: "service_plans:read",
  query: getServicePlansExportQuerySchema,
  handler: async ({ ctx, query }) => csvAttachment(await exportServicePlansCsv({ ctx, input: query })),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

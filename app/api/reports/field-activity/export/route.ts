import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { csvAttachment } from "@/lib/api/csv";
import { exportFieldActivityCsv } from "@/lib/domain/reports/field-activity";
import { getFieldActivityReportQuerySchema } from "@/lib/schemas/reports";

// GET /api/reports/field-activity/export – the knock-to-cash report as a CSV file
export const GET = apiRoute({
  permission: "reports:read",
  query: getFieldActivityReportQuerySchema,
  handler: async ({ ctx, query }) => csvAttachment(await exportFieldActivityCsv({ ctx, input: query })),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { csvAttachment } from "@/lib/api/csv";
import { exportServicedJobsCsv } from "@/lib/domain/reports/exports";
import { getServicedJobsExportQuerySchema } from "@/lib/schemas/reports";

// GET /api/reports/serviced-jobs/export – the filtered serviced jobs as a streamed CSV file
export const GET = apiRoute({
  permission: "jobs:read",
  query: getServicedJobsExportQuerySchema,
  handler: async ({ ctx, query }) => csvAttachment(await exportServicedJobsCsv({ ctx, input: query })),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

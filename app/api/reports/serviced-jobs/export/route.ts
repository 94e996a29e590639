import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { csvAttachment } from "@/lib/api/csv";
import { exportServicedJobsCsv, SERVICED_JOB_CSV_HEADER } from "@/lib/domain/reports/exports";
import { getServicedJobsExportQuerySchema } from "@/lib/schemas/reports";
import { CSV_EXPORT_HEADERS } from "@/lib/openapi/resources";

// GET /api/reports/serviced-jobs/export – the filtered serviced jobs as a streamed CSV file
export const GET = apiRoute({
  permission: "jobs:read",
  query: getServicedJobsExportQuerySchema,
  handler: async ({ ctx, query }) => csvAttachment(await exportServicedJobsCsv({ ctx, input: query })),
  docs: {
    tag: "Reports",
    operationId: "exportServicedJobs",
    summary: "Export serviced jobs as CSV",
    description:
      "Every job matching the filters of `GET /serviced-jobs` (all rows, not one page), in the list's default " +
      "order (newest first; `sort` does not apply), " +
      "streamed as CSV (RFC 4180, CRLF; money with two decimals). A `service_date_range_end` before " +
      "`service_date_range_start` is a 400 naming the end.",
    responses: [
      {
        status: 200,
        description: "The CSV file.",
        contentType: "text/csv",
        csvColumns: SERVICED_JOB_CSV_HEADER,
        headers: CSV_EXPORT_HEADERS,
      },
    ],
    example: { query: { only_completed: "false" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

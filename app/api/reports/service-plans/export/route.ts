import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { csvAttachment } from "@/lib/api/csv";
import { exportServicePlansCsv, SERVICE_PLAN_CSV_HEADER } from "@/lib/domain/reports/exports";
import { getServicePlansExportQuerySchema } from "@/lib/schemas/reports";
import { CSV_EXPORT_HEADERS } from "@/lib/openapi/resources";

// GET /api/reports/service-plans/export – the filtered service plans as a streamed CSV file
export const GET = apiRoute({
  permission: "service_plans:read",
  query: getServicePlansExportQuerySchema,
  handler: async ({ ctx, query }) => csvAttachment(await exportServicePlansCsv({ ctx, input: query })),
  docs: {
    tag: "Reports",
    operationId: "exportServicePlans",
    summary: "Export service plans as CSV",
    description:
      "Every plan matching the filters of `GET /service-plans` (all rows, not one page), in the list's " +
      "order and with the list's numbers, streamed as CSV (RFC 4180, CRLF; money with two decimals). Text " +
      "that a spreadsheet would run as a formula starts with a single quote. A `created_at_range_end` before " +
      "`created_at_range_start` is a 400 naming the end.",
    responses: [
      {
        status: 200,
        description: "The CSV file.",
        contentType: "text/csv",
        csvColumns: SERVICE_PLAN_CSV_HEADER,
        headers: CSV_EXPORT_HEADERS,
      },
    ],
    example: { query: { frequency: "Monthly" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

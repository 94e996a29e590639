import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { csvAttachment } from "@/lib/api/csv";
import {
  exportFieldActivityCsv,
  FIELD_ACTIVITY_CSV_HEADER,
  FIELD_ACTIVITY_CSV_MORE_COLUMNS,
} from "@/lib/domain/reports/field-activity";
import { getFieldActivityReportQuerySchema } from "@/lib/schemas/reports";
import { CSV_EXPORT_HEADERS } from "@/lib/openapi/resources";

// GET /api/reports/field-activity/export – the knock-to-cash report as a CSV file
export const GET = apiRoute({
  permission: "reports:read",
  query: getFieldActivityReportQuerySchema,
  handler: async ({ ctx, query }) => csvAttachment(await exportFieldActivityCsv({ ctx, input: query })),
  docs: {
    tag: "Reports",
    operationId: "exportFieldActivity",
    summary: "Export the knock-to-cash report as CSV",
    description:
      "The rows of `GET /reports/field-activity` with the same query, in its order, then a row `Total` " +
      "(no user id or email) with its totals. The columns are dynamic: the fixed ones, then one column per " +
      "pin type (outcome) knocked in the range, headed by the pin type's label, in the company's pin type " +
      "order as the report's screen shows them (a label already used gets ` (2)`, ` (3)`…); each holds " +
      "the knocks of that outcome. " +
      "RFC 4180, CRLF; money with two decimals. A `to` before `from` is a 400 naming `to`.",
    notFound: "Territory",
    responses: [
      {
        status: 200,
        description: "The CSV file.",
        contentType: "text/csv",
        csvColumns: FIELD_ACTIVITY_CSV_HEADER,
        csvMoreColumns: FIELD_ACTIVITY_CSV_MORE_COLUMNS,
        headers: CSV_EXPORT_HEADERS,
      },
    ],
    example: { query: { from: "2026-03-01", to: "2026-03-31" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { csvAttachment } from "@/lib/api/csv";
import { AUDIT_CSV_HEADER, exportAuditLogCsv } from "@/lib/domain/audit/audit";
import { auditLogExportQuerySchema } from "@/lib/schemas/audit";
import { CSV_EXPORT_HEADERS } from "@/lib/openapi/resources";

// GET /api/settings/audit-log/export – the audit log as a CSV file
export const GET = apiRoute({
  permission: "audit_log:read",
  query: auditLogExportQuerySchema,
  handler: async ({ ctx, query }) => csvAttachment(await exportAuditLogCsv({ ctx, input: query })),
  docs: {
    tag: "Settings",
    operationId: "exportAuditLog",
    summary: "Export the audit log as CSV",
    description:
      "The entries of `GET /settings/audit-log` with the same filters, newest first, all of them. " +
      "`changes` is one cell: `field: before → after` (values as JSON), separated by `; `. RFC 4180, CRLF. " +
      "A `to` before `from` is a 400 naming `to`.",
    responses: [
      {
        status: 200,
        description: "The CSV file.",
        contentType: "text/csv",
        csvColumns: AUDIT_CSV_HEADER,
        headers: CSV_EXPORT_HEADERS,
      },
    ],
    example: { query: { kind: "api_key.created" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

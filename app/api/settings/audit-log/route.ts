import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { listAuditLog } from "@/lib/domain/audit/audit";
import { auditLogQuerySchema, auditLogResponseSchema } from "@/lib/schemas/audit";

// GET /api/settings/audit-log – who changed which setting, newest first (admins, dashboard only)
export const GET = apiRoute({
  permission: "audit_log:read",
  query: auditLogQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await listAuditLog({ ctx, input: query })) }),
  docs: {
    tag: "Settings",
    operationId: "listAuditLog",
    summary: "Read the audit log",
    description:
      "Every settings change (users and roles, sessions ended by an admin, API keys, the pipeline, lost " +
      "reasons, pin types, territories), newest first: who, when, from which IP, and each changed field " +
      "before and after. Written in the change's own transaction. Never a secret, a password or a hash. " +
      "Filter by `actor` (a user id), `kind` and a time range; a `to` before `from` is a 400 naming `to`.",
    responses: [
      { status: 200, description: "A page of entries.", schema: named("AuditLog", auditLogResponseSchema) },
    ],
    example: { query: { kind: "user.role_changed", from: "2026-03-01" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { BULK_WORK_MS, bulkChangeLeads } from "@/lib/domain/leads/bulk-leads";
import { bulkLeadsBodySchema } from "@/lib/schemas/lead-bulk";

// POST /api/leads/bulk – one action on many leads (by ids or by filter), all or nothing, undoable
export const POST = apiRoute({
  permission: "leads:write",
  // The chunks' time (BULK_WORK_MS), plus a statement before them and the last one (each within
  // the statement timeout): a change past its time rolls back before this answers 503.
  deadlineMs: BULK_WORK_MS + 10_000,
  body: bulkLeadsBodySchema,
  handler: ({ ctx, body }) => bulkChangeLeads({ ctx, input: body }),
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

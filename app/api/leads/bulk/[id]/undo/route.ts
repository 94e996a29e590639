import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { BULK_WORK_MS, undoBulkChange } from "@/lib/domain/leads/bulk-leads";
import { bulkOperationIdParamsSchema } from "@/lib/schemas/lead-bulk";

// POST /api/leads/bulk/{id}/undo – restore what a bulk change replaced (once)
export const POST = apiRoute({
  permission: "leads:write",
  // The chunks' time (BULK_WORK_MS), plus a statement before them and the last one (each within
  // the statement timeout): a change past its time rolls back before this answers 503.
  deadlineMs: BULK_WORK_MS + 10_000,
  params: bulkOperationIdParamsSchema,
  handler: ({ ctx, params }) => undoBulkChange({ ctx, id: params.id }),
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

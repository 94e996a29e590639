import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { BULK_WORK_MS, undoBulkChange } from "@/lib/domain/leads/bulk-leads";
import { bulkOperationIdParamsSchema, undoBulkLeadsResponseSchema } from "@/lib/schemas/lead-bulk";
import { named } from "@/lib/api/route-docs";

// POST /api/leads/bulk/{id}/undo – restore what a bulk change replaced (once)
export const POST = apiRoute({
  permission: "leads:write",
  // The chunks' time (BULK_WORK_MS), plus a statement before them and the last one (each within
  // the statement timeout): a change past its time rolls back before this answers 503.
  deadlineMs: BULK_WORK_MS + 10_000,
  params: bulkOperationIdParamsSchema,
  handler: ({ ctx, params }) => undoBulkChange({ ctx, id: params.id }),
  docs: {
    tag: "Leads",
    operationId: "undoBulkChangeLeads",
    summary: "Undo a bulk change",
    description:
      "The leads the bulk operation changed get back the values it replaced (only the fields its " +
      "action sets: the owner, the stage, the tags, or archived with archived_at), whatever was " +
      "written to those fields since. An operation is undone once: a second undo is a 409.",
    responses: [
      {
        status: 200,
        description: "The previous values were restored.",
        schema: named("UndoBulkLeadsResponse", undoBulkLeadsResponseSchema),
      },
    ],
    notFound: "Bulk operation",
    errors: ["CONFLICT"],
    errorMessages: { CONFLICT: "This bulk operation has already been undone" },
    example: { params: { id: "blk_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

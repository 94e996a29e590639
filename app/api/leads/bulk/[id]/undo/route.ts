import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { BULK_WORK_MS, undoBulkChange } from "@/lib/domain/leads/bulk-leads";
import { bulkOperationIdParamsSchema, undoBulkLeadsResponseSchema } from "@/lib/schemas/lead-bulk";
import { named } from "@/lib/api/route-docs";

// POST /api/leads/bulk/{id}/undo – restore what a bulk change replaced (once, within 24 h)
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
    description: [
      "The leads the bulk operation changed get back the values it replaced (only the fields its " +
        "action sets: the owner, the stage, the tags, or archived with archived_at), each recorded in the lead's activity.",
      "Only where the field still holds the value the operation set: a lead changed since (another " +
        "bulk change, an edit, a conversion, an unarchive, a later archive) keeps the later value and is " +
        "skipped. `restored` counts the leads restored, `skipped` those left as they are, and " +
        "`skipped_ids` lists the first 100 of them by id.",
      "Who and when: the operation's author (the same user or API key), or an admin or a manager " +
        "session, else a 403 `FORBIDDEN`; within 24 hours of the change, else a 409 `CONFLICT` (the " +
        "operation stays as it is); once only, a second undo is a 409 `CONFLICT` too. Concurrent " +
        "undos of one operation: one restores, the others get that 409.",
    ].join("\n\n"),
    responses: [
      {
        status: 200,
        description: "The previous values were restored where the records still held the operation's values.",
        schema: named("UndoBulkLeadsResponse", undoBulkLeadsResponseSchema),
      },
    ],
    notFound: "Bulk operation",
    errors: ["FORBIDDEN", "CONFLICT"],
    errorMessages: {
      FORBIDDEN: "Only the author of a bulk change, an admin or a manager may undo it",
      CONFLICT: "This bulk operation has already been undone",
    },
    example: { params: { id: "blk_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

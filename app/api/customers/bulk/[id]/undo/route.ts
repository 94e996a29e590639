import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { undoBulkChangeCustomers } from "@/lib/domain/customers/bulk-customers";
import {
  customerBulkOperationIdParamsSchema,
  undoBulkCustomersResponseSchema,
} from "@/lib/schemas/customer-bulk";

// POST /api/customers/bulk/{id}/undo – restore what a bulk change of customers replaced (once, within 24 h)
export const POST = apiRoute({
  permission: "customers:write",
  params: customerBulkOperationIdParamsSchema,
  handler: ({ ctx, params }) => undoBulkChangeCustomers({ ctx, id: params.id }),
  docs: {
    tag: "Customers",
    operationId: "undoBulkChangeCustomers",
    summary: "Undo a bulk change of customers",
    description: [
      "The customers the bulk operation changed get back the values it replaced (only the fields its " +
        "action sets: archived with archived_at), each recorded in the customer's activity.",
      "Only where the field still holds the value the operation set: a customer changed since (another " +
        "bulk change, an edit, an unarchive, a later archive) keeps the later value and is " +
        "skipped. `restored` counts the customers restored, `skipped` those left as they are, and " +
        "`skipped_ids` lists the first 100 of them by id.",
      "Who and when: the operation's author (the same user or API key), or an admin or a manager " +
        "session, else a 403 `FORBIDDEN`; within 24 hours of the change, else a 409 `CONFLICT` (the " +
        "operation stays as it is); once only, a second undo is a 409 `CONFLICT` too. Concurrent " +
        "undos of one operation: one restores, the others get that 409. A leads' bulk operation is " +
        "not found here.",
    ].join("\n\n"),
    responses: [
      {
        status: 200,
        description: "The previous values were restored where the records still held the operation's values.",
        schema: named("UndoBulkCustomersResponse", undoBulkCustomersResponseSchema),
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

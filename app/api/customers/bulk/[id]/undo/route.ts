import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { undoBulkChangeCustomers } from "@/lib/domain/customers/bulk-customers";
import {
  customerBulkOperationIdParamsSchema,
  undoBulkCustomersResponseSchema,
} from "@/lib/schemas/customer-bulk";

// POST /api/customers/bulk/{id}/undo – restore what a bulk change of customers replaced (once)
export const POST = apiRoute({
  permission: "customers:write",
  params: customerBulkOperationIdParamsSchema,
  handler: ({ ctx, params }) => undoBulkChangeCustomers({ ctx, id: params.id }),
  docs: {
    tag: "Customers",
    operationId: "undoBulkChangeCustomers",
    summary: "Undo a bulk change of customers",
    description:
      "The customers the bulk operation changed get back the archived and archived_at it replaced, " +
      "whatever was written to them since, each recorded in the customer's activity. An operation " +
      "is undone once: a second undo is a 409. A leads' bulk operation is not found here.",
    responses: [
      {
        status: 200,
        description: "The previous values were restored.",
        schema: named("UndoBulkCustomersResponse", undoBulkCustomersResponseSchema),
      },
    ],
    notFound: "Bulk operation",
    errors: ["CONFLICT"],
    errorMessages: { CONFLICT: "This bulk operation has already been undone" },
    example: { params: { id: "blk_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { undoBulkChangeCustomers } from "@/lib/domain/customers/bulk-customers";
import { customerBulkOperationIdParamsSchema } from "@/lib/schemas/customer-bulk";

// POST /api/customers/bulk/{id}/undo – restore what a bulk change of customers replaced (once)
export const POST = apiRoute({
  scopes: ["customers:write"],
  params: customerBulkOperationIdParamsSchema,
  handler: ({ ctx, params }) => undoBulkChangeCustomers({ ctx, id: params.id }),
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { bulkChangeCustomers } from "@/lib/domain/customers/bulk-customers";
import { bulkCustomersBodySchema } from "@/lib/schemas/customer-bulk";

// POST /api/customers/bulk – archive or unarchive many customers, all or nothing, undoable
export const POST = apiRoute({
  scopes: ["customers:write"],
  body: bulkCustomersBodySchema,
  handler: ({ ctx, body }) => bulkChangeCustomers({ ctx, input: body }),
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

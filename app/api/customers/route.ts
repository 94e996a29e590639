import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { listCustomers, upsertCustomer } from "@/lib/domain/customers";
import { getCustomersQuerySchema, upsertCustomerBodySchema } from "@/lib/schemas/customers";

// GET /api/customers – list customers
export const GET = apiRoute({
  scopes: ["customers:read"],
  query: getCustomersQuerySchema,
  handler: ({ ctx, query }) => listCustomers({ ctx, input: query }),
});

// POST /api/customers – create or update a customer (201 created, 200 updated)
export const POST = apiRoute({
  scopes: ["customers:write"],
  body: upsertCustomerBodySchema,
  handler: async ({ ctx, body }) => {
    const { created, customer } = await upsertCustomer({ ctx, input: body });
    return respond(customer, created ? 201 : 200);
  },
});

export const { PUT, PATCH, DELETE } = methodsNotAllowed("GET, POST");

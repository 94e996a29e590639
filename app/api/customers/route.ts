import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { dryRunUpsertCustomer, listCustomers, upsertCustomer } from "@/lib/domain/customers";
import { getCustomersQuerySchema, upsertCustomerBodySchema } from "@/lib/schemas/customers";
import { upsertQuerySchema } from "@/lib/schemas/upsert-fields";

// GET /api/customers – list customers
export const GET = apiRoute({
  permission: "customers:read",
  query: getCustomersQuerySchema,
  handler: ({ ctx, query }) => listCustomers({ ctx, input: query }),
});

// POST /api/customers – create or update a customer (201 created, 200 updated or dry run)
export const POST = apiRoute({
  permission: "customers:write",
  query: upsertQuerySchema,
  body: upsertCustomerBodySchema,
  handler: async ({ ctx, query, body }) => {
    // ?dry_run=true: what the call would do, nothing written (200).
    if (query.dry_run) return dryRunUpsertCustomer({ ctx, input: body });
    const { created, customer } = await upsertCustomer({ ctx, input: body });
    return respond(customer, created ? 201 : 200);
  },
});

export const { PUT, PATCH, DELETE } = methodsNotAllowed("GET, POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getCustomerOrThrow } from "@/lib/domain/customers";
import { customerIdParamsSchema, getCustomerResponseSchema } from "@/lib/schemas/customers";
import { named } from "@/lib/api/route-docs";

// GET /api/customers/{id} – one customer
export const GET = apiRoute({
  permission: "customers:read",
  params: customerIdParamsSchema,
  handler: async ({ ctx, params }) => ({
    status: "success",
    data: await getCustomerOrThrow({ ctx, input: params }),
  }),
  docs: {
    tag: "Customers",
    operationId: "getCustomer",
    summary: "Get a customer",
    description: "One customer by its id, with `has_payment_method`. An id of another company is not found.",
    responses: [
      {
        status: 200,
        description: "The customer.",
        schema: named("GetCustomerResponse", getCustomerResponseSchema),
      },
    ],
    notFound: "Customer",
    example: { params: { id: "cus_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getCustomerOrThrow } from "@/lib/domain/customers";
import { customerIdParamsSchema } from "@/lib/schemas/customers";

// GET /api/customers/{id} – one customer
export const GET = apiRoute({
  permission: "customers:read",
  params: customerIdParamsSchema,
  handler: async ({ ctx, params }) => ({
    status: "success",
    data: await getCustomerOrThrow({ ctx, input: params }),
  }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { setArchived } from "@/lib/domain/activity/archive";
import { getCustomerOrThrow } from "@/lib/domain/customers";
import { customerIdParamsSchema } from "@/lib/schemas/customers";

// POST /api/customers/{id}/archive – archive the customer, recorded in its activity; the customer as GET answers it
export const POST = apiRoute({
  scopes: ["customers:write"],
  params: customerIdParamsSchema,
  handler: async ({ ctx, params }) => {
    await setArchived({ ctx, recordType: "customer", id: params.id, archived: true });
    return { status: "success", data: await getCustomerOrThrow({ ctx, input: params }) };
  },
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

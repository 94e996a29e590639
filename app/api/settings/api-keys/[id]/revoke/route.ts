import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { revokeApiKey } from "@/lib/domain/api-keys/api-keys";
import { idParamsSchema } from "@/lib/schemas/settings";

// POST /api/settings/api-keys/{id}/revoke – revoke a key (it stops working at once)
export const POST = apiRoute({
  permission: "api_keys:manage",
  params: idParamsSchema,
  handler: async ({ ctx, params }) => ({ ...(await revokeApiKey({ ctx, input: params })) }),
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

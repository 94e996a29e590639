import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { revokeApiKey } from "@/lib/domain/api-keys/api-keys";
import { apiKeyRecordSchema, idParamsSchema } from "@/lib/schemas/settings";
import { named } from "@/lib/api/route-docs";

// POST /api/settings/api-keys/{id}/revoke – revoke a key (it stops working at once)
export const POST = apiRoute({
  permission: "api_keys:manage",
  params: idParamsSchema,
  handler: async ({ ctx, params }) => ({ ...(await revokeApiKey({ ctx, input: params })) }),
  docs: {
    tag: "Settings",
    operationId: "revokeApiKey",
    summary: "Revoke an API key",
    description:
      "The key stops working at once (401 INVALID_API_KEY). Revoking a revoked key changes nothing.",
    paramDescriptions: { id: "The API key's id." },
    responses: [
      { status: 200, description: "The revoked key.", schema: named("ApiKey", apiKeyRecordSchema) },
    ],
    notFound: "API key",
    example: { params: { id: "key_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { addApiKey } from "@/lib/domain/api-keys/add-api-key";
import { listApiKeys } from "@/lib/domain/api-keys/api-keys";
import { apiKeyListSchema, createApiKeyBodySchema, createdApiKeySchema } from "@/lib/schemas/settings";
import { named } from "@/lib/api/route-docs";
import { DEFAULT_DAILY_LIMIT } from "@/lib/values/limits";

// GET /api/settings/api-keys – the company's API keys with today's use (admins, dashboard only)
export const GET = apiRoute({
  permission: "api_keys:manage",
  handler: async ({ ctx }) => ({ ...(await listApiKeys({ ctx })) }),
  docs: {
    tag: "Settings",
    operationId: "listApiKeys",
    summary: "List API keys",
    description: "The company's keys, newest first, with today's use. Never the secret or its hash.",
    responses: [{ status: 200, description: "The keys.", schema: named("ApiKeyList", apiKeyListSchema) }],
  },
});

// POST /api/settings/api-keys – create a key; the answer shows its secret once
export const POST = apiRoute({
  permission: "api_keys:manage",
  body: createApiKeyBodySchema,
  handler: async ({ ctx, body }) => respond(await addApiKey({ ctx, input: body }), 201),
  docs: {
    tag: "Settings",
    operationId: "createApiKey",
    summary: "Create an API key",
    description:
      "Creates a key with the chosen scopes and daily limit. The answer carries the secret `key` this once; " +
      "only its hash is stored.",
    bodyName: "CreateApiKeyBody",
    responses: [
      {
        status: 201,
        description: "The new key, with its secret.",
        schema: named("CreatedApiKey", createdApiKeySchema),
      },
    ],
    example: { body: { name: "Website form", scopes: ["leads:write"], daily_limit: DEFAULT_DAILY_LIMIT } },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET, POST");

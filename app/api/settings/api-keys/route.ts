import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { addApiKey } from "@/lib/domain/api-keys/add-api-key";
import { listApiKeys } from "@/lib/domain/api-keys/api-keys";
import { createApiKeyBodySchema } from "@/lib/schemas/settings";

// GET /api/settings/api-keys – the company's API keys with today's use (admins, dashboard only)
export const GET = apiRoute({
  permission: "api_keys:manage",
  handler: async ({ ctx }) => ({ ...(await listApiKeys({ ctx })) }),
});

// POST /api/settings/api-keys – create a key; the answer shows its secret once
export const POST = apiRoute({
  permission: "api_keys:manage",
  body: createApiKeyBodySchema,
  handler: async ({ ctx, body }) => respond(await addApiKey({ ctx, input: body }), 201),
});

export const { PUT, PATCH, DELETE } = methodsNotAllowed("GET, POST");

import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { listPins } from "@/lib/domain/pins/list";
import { upsertPin } from "@/lib/domain/pins/upsert-pin";
import { getPinsQuerySchema, upsertPinBodySchema } from "@/lib/schemas/pins";

// GET /api/pins – list map pins
export const GET = apiRoute({
  permission: "pins:read",
  query: getPinsQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await listPins({ ctx, input: query })) }),
});

// POST /api/pins – log a knock: create a pin, or update one with `id` (201 created, 200 updated)
export const POST = apiRoute({
  permission: "pins:write",
  body: upsertPinBodySchema,
  handler: async ({ ctx, body }) => {
    const { created, pin } = await upsertPin({ ctx, input: body });
    return respond(pin, created ? 201 : 200);
  },
});

export const { PUT, PATCH, DELETE } = methodsNotAllowed("GET, POST");

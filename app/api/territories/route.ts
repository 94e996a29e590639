import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { listTerritories, upsertTerritory } from "@/lib/domain/territories/territories";
import { getTerritoriesQuerySchema, upsertTerritoryBodySchema } from "@/lib/schemas/territories";

// GET /api/territories – the company's territories by name (keys and sessions)
export const GET = apiRoute({
  permission: "pins:read",
  query: getTerritoriesQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await listTerritories({ ctx, input: query })) }),
});

// POST /api/territories – create a territory, or update the one with `id` (admins and managers)
export const POST = apiRoute({
  permission: "territories:write",
  body: upsertTerritoryBodySchema,
  handler: async ({ ctx, body }) => {
    const { created, response } = await upsertTerritory({ ctx, input: body });
    return respond(response, created ? 201 : 200);
  },
});

export const { PUT, PATCH, DELETE } = methodsNotAllowed("GET, POST");

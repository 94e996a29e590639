import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { listTerritories, upsertTerritory } from "@/lib/domain/territories/territories";
import {
  getTerritoriesQuerySchema,
  listTerritoriesResponseSchema,
  upsertTerritoryBodySchema,
  upsertTerritoryResponseSchema,
} from "@/lib/schemas/territories";
import { named } from "@/lib/api/route-docs";
import { TERRITORY_MAX_POINTS } from "@/lib/values/polygon";

// GET /api/territories – the company's territories by name (keys and sessions)
export const GET = apiRoute({
  permission: "pins:read",
  query: getTerritoriesQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await listTerritories({ ctx, input: query })) }),
  docs: {
    tag: "Territories",
    operationId: "listTerritories",
    summary: "List territories",
    description:
      "Every territory of the company, by `name` (then `id`), each with its GeoJSON polygon and the ids " +
      "of its assigned users. Not paginated. `assigned_to=me` gives a signed-in user their own territories.",
    responses: [
      {
        status: 200,
        description: "The company's territories.",
        schema: named("ListTerritoriesResponse", listTerritoriesResponseSchema),
      },
    ],
    example: { query: { assigned_to: "usr_01jq3m8c5v2k7d9f0a1b2c3d4e" } },
  },
});

// POST /api/territories – create a territory, or update the one with `id` (admins and managers)
export const POST = apiRoute({
  permission: "territories:write",
  body: upsertTerritoryBodySchema,
  handler: async ({ ctx, body }) => {
    const { created, response } = await upsertTerritory({ ctx, input: body });
    return respond(response, created ? 201 : 200);
  },
  docs: {
    tag: "Territories",
    operationId: "upsertTerritory",
    summary: "Create or update a territory",
    description:
      "Without `id`: creates a territory (`name` and `polygon` required; 201). With `id`: updates it " +
      "(200; unknown: 404); fields given replace the stored ones, `assigned_to` the whole list. " +
      `\`polygon\` is a GeoJSON Polygon with one outer ring of 3 to ${TERRITORY_MAX_POINTS.toLocaleString("en-US")} ` +
      "[longitude, latitude] positions, not all on one line, not intersecting itself; an open ring is " +
      "accepted and stored closed. A bad polygon is a 400 naming `polygon`; an `assigned_to` id that is no " +
      "user of the company a 400 naming `assigned_to`. Dashboard sessions of admins and managers only.",
    bodyName: "UpsertTerritoryBody",
    responses: [
      {
        status: 201,
        description: "Created.",
        schema: named("UpsertTerritoryResponse", upsertTerritoryResponseSchema),
      },
      {
        status: 200,
        description: "Updated.",
        schema: named("UpsertTerritoryResponse", upsertTerritoryResponseSchema),
      },
    ],
    notFound: "Territory",
    example: {
      body: {
        name: "Downtown",
        color: "#2563eb",
        polygon: {
          type: "Polygon",
          coordinates: [
            [
              [-97.8, 30.2],
              [-97.7, 30.2],
              [-97.7, 30.3],
              [-97.8, 30.3],
              [-97.8, 30.2],
            ],
          ],
        },
        assigned_to: ["usr_01jq3m8c5v2k7d9f0a1b2c3d4e"],
      },
    },
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET, POST");

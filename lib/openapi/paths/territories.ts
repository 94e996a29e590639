import {
  getTerritoriesQuerySchema,
  listTerritoriesResponseSchema,
  territoryIdParamsSchema,
  territorySchema,
  upsertTerritoryBodySchema,
  upsertTerritoryResponseSchema,
} from "@/lib/schemas/territories";
import { TERRITORY_MAX_POINTS } from "@/lib/values/polygon";
import { named, type ResourceSpec } from "../types";

const SQUARE = [
  [-97.8, 30.2],
  [-97.7, 30.2],
  [-97.7, 30.3],
  [-97.8, 30.3],
  [-97.8, 30.2],
];

export const territoriesPaths: ResourceSpec = {
  tag: "Territories",
  description:
    "Named areas of the map, drawn by admins and managers, with the users assigned to them. " +
    "`territory_id` filters `GET /leads` (and the lead board and bulk filters) to the records whose " +
    "location lies inside, its edge included.",
  components: [named("Territory", territorySchema)],
  endpoints: [
    {
      method: "GET",
      path: "/territories",
      operationId: "listTerritories",
      summary: "List territories",
      description:
        "Every territory of the company, by `name` (then `id`), each with its GeoJSON polygon and the ids " +
        "of its assigned users. Not paginated. `assigned_to=me` gives a signed-in user their own territories.",
      scopes: ["pins:read"],
      query: getTerritoriesQuerySchema,
      responses: [
        {
          status: 200,
          description: "The company's territories.",
          schema: named("ListTerritoriesResponse", listTerritoriesResponseSchema),
        },
      ],
      example: { query: { assigned_to: "usr_01jq3m8c5v2k7d9f0a1b2c3d4e" } },
    },
    {
      method: "POST",
      path: "/territories",
      operationId: "upsertTerritory",
      summary: "Create or update a territory",
      description:
        "Without `id`: creates a territory (`name` and `polygon` required; 201). With `id`: updates it " +
        "(200; unknown: 404); fields given replace the stored ones, `assigned_to` the whole list. " +
        `\`polygon\` is a GeoJSON Polygon with one outer ring of 3 to ${TERRITORY_MAX_POINTS.toLocaleString("en-US")} ` +
        "[longitude, latitude] positions, not all on one line, not intersecting itself; an open ring is " +
        "accepted and stored closed. A bad polygon is a 400 naming `polygon`; an `assigned_to` id that is no " +
        "user of the company a 400 naming `assigned_to`. Dashboard sessions of admins and managers only.",
      auth: "session",
      scopes: ["pins:write"],
      roles: ["admin", "manager"],
      body: named("UpsertTerritoryBody", upsertTerritoryBodySchema),
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
          polygon: { type: "Polygon", coordinates: [SQUARE] },
          assigned_to: ["usr_01jq3m8c5v2k7d9f0a1b2c3d4e"],
        },
      },
    },
    {
      method: "DELETE",
      path: "/territories/{id}",
      operationId: "deleteTerritory",
      summary: "Delete a territory",
      description:
        "Deletes the territory and its assignments. Dashboard sessions of admins and managers only.",
      auth: "session",
      scopes: ["pins:write"],
      roles: ["admin", "manager"],
      params: territoryIdParamsSchema,
      responses: [{ status: 204, description: "Deleted; no body." }],
      notFound: "Territory",
      example: { params: { id: "ter_01jq3m8c5v2k7d9f0a1b2c3d4e" } },
    },
  ],
};

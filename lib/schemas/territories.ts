import { z } from "zod";
import { maxChars, nonBlank } from "./text";
import { checkRing, closedRing, TERRITORY_MAX_POINTS, type Position } from "@/lib/values/polygon";
import { idParamsSchema, SHORT_TEXT_MAX } from "./upsert-fields";

/*
 * Territories (extensions.md E6): named polygons with a color and the users assigned to them.
 */

export const TERRITORY_NAME_MAX = 100;
/** A new territory's color when none is given. */
export const TERRITORY_DEFAULT_COLOR = "#2563eb";

const positionInput = z
  .tuple(
    [
      z
        .number()
        .min(-180, "longitude must be between -180 and 180")
        .max(180, "longitude must be between -180 and 180"),
      z
        .number()
        .min(-90, "latitude must be between -90 and 90")
        .max(90, "latitude must be between -90 and 90"),
    ],
    { error: "must be a [longitude, latitude] pair of numbers" },
  )
  .describe("[longitude, latitude], as GeoJSON orders them.");

const RING_MESSAGE = "must have exactly one ring (an outer ring, no holes)";

/**
 * The polygon as a request gives it. The answer is the checked ring (lib/domain/territories/
 * polygon.ts), closed: an unclosed ring is accepted and closed, repeated consecutive positions merged.
 */
export const territoryPolygonInput = z
  .object({
    type: z.literal("Polygon", { error: 'must be "Polygon"' }),
    coordinates: z
      .array(
        z
          .array(positionInput, { error: "must be an array of positions" })
          // The closing repetition of the first corner comes on top of the corners.
          .max(TERRITORY_MAX_POINTS + 1, {
            error: `must have at most ${TERRITORY_MAX_POINTS.toLocaleString("en-US")} positions`,
          }),
        { error: RING_MESSAGE },
      )
      .length(1, RING_MESSAGE),
  })
  .transform((polygon, ctx) => {
    const check = checkRing(polygon.coordinates[0]! as Position[]);
    if (!check.ok) {
      ctx.addIssue({ code: "custom", message: check.message });
      return z.NEVER;
    }
    return { type: "Polygon" as const, coordinates: [closedRing(check.corners)] };
  })
  .describe(
    `A GeoJSON Polygon: one outer ring of [longitude, latitude] positions, 3 to ` +
      `${TERRITORY_MAX_POINTS.toLocaleString("en-US")} distinct corners, enclosing an area, not ` +
      "intersecting itself. The ring may be given closed (first position repeated last, as GeoJSON " +
      "has it) or open: it is stored closed. Repeated consecutive positions are merged.",
  );
export type TerritoryPolygonInput = z.output<typeof territoryPolygonInput>;

export const territoryPolygonSchema = z
  .object({
    type: z.literal("Polygon"),
    coordinates: z
      .array(z.array(z.tuple([z.number(), z.number()])))
      .describe("One ring of [longitude, latitude] positions, closed (the first repeated last)."),
  })
  .describe("A GeoJSON Polygon.");

export const territorySchema = z
  .object({
    id: z.string().describe("Territory id."),
    name: z.string().describe("Name."),
    color: z.string().describe("Hex color, #rgb or #rrggbb."),
    polygon: territoryPolygonSchema,
    assigned_to: z.array(z.string()).describe("Ids of the users assigned to the territory, in id order."),
  })
  .describe("A named area of the map with the users assigned to it.");
export type Territory = z.output<typeof territorySchema>;

export const getTerritoriesQuerySchema = z
  .object({
    assigned_to: maxChars(nonBlank(z.string().trim(), "must be a user id or me"), SHORT_TEXT_MAX)
      .optional()
      .describe(
        "Only the territories this user id is assigned to; `me` (dashboard sessions): the signed-in " +
          "user's territories (an API key is tied to no user: 400).",
      ),
  })
  .describe("Query of GET /territories.");
export type GetTerritoriesQuery = z.output<typeof getTerritoriesQuerySchema>;

export const listTerritoriesResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z.array(territorySchema).describe("The company's territories, by name (then id)."),
  })
  .describe("The company's territories (not paginated).");
export type ListTerritoriesResponse = z.output<typeof listTerritoriesResponseSchema>;

const colorInput = z
  .string({ error: "must be a color #rgb or #rrggbb" })
  .trim()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "must be a color #rgb or #rrggbb")
  .describe(`Hex color, #rgb or #rrggbb (a new territory without one: ${TERRITORY_DEFAULT_COLOR}).`);

export const upsertTerritoryBodySchema = z
  .object({
    id: maxChars(nonBlank(z.string().trim()), SHORT_TEXT_MAX)
      .optional()
      .describe("Update this territory (404 if unknown); without it a territory is created."),
    name: maxChars(nonBlank(z.string({ error: "must be a string" }).trim()), TERRITORY_NAME_MAX)
      .optional()
      .describe(`Name, 1 to ${TERRITORY_NAME_MAX} characters; required to create.`),
    color: colorInput.optional(),
    polygon: territoryPolygonInput.optional(),
    assigned_to: z
      .array(maxChars(nonBlank(z.string().trim()), SHORT_TEXT_MAX), {
        error: "must be an array of user ids",
      })
      .max(1000, "must have at most 1,000 users")
      .optional()
      .describe("Ids of the company's users assigned to it (replaces the previous list); default none."),
  })
  .describe(
    "Create a territory (name and polygon required), or update the one with `id`: fields given " +
      "replace the stored ones, fields left out are kept.",
  );
export type UpsertTerritoryBody = z.output<typeof upsertTerritoryBodySchema>;

export const upsertTerritoryResponseSchema = z
  .object({
    status: z.literal("success"),
    message: z.enum(["Territory created", "Territory updated"]),
    data: territorySchema,
  })
  .describe("The territory as stored.");
export type UpsertTerritoryResponse = z.output<typeof upsertTerritoryResponseSchema>;

/** `territory_id` of the lists (extensions.md E6): records whose location lies inside it. */
export const territoryIdQuery = (records: string) =>
  maxChars(nonBlank(z.string().trim(), "must be a territory id"), SHORT_TEXT_MAX)
    .optional()
    .describe(
      `Only ${records} whose location lies inside this territory (GET /territories), its edge ` +
        `included; ${records} without a location never match. An unknown id is a 404.`,
    );

export const territoryIdParamsSchema = idParamsSchema("Territory id.");

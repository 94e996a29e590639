import { z } from "zod";
import {
  DATE_TIME_PATTERN,
  feedPaginationQuerySchema,
  feedQueryShape,
  paginationSchema,
  parseIsoDate,
} from "./common";
import { pinTypeSchema } from "./pin-types";
import { textFilterQuery, userRefSchema } from "./service-plans";
import { maxChars, nonBlank } from "./text";
import { idParamsSchema, nullableNotes, nullableText, recordIdInput, SHORT_TEXT_MAX } from "./upsert-fields";

// Map pins (contract section 9) and knocks from the field (extensions.md E5).

export const CLIENT_ID_MAX = 100;

/** How far ahead of the server's clock, and how far back, a knock's `visited_at` may be (E5). */
export const VISITED_AT_AHEAD_MS = 5 * 60_000;
export const VISITED_AT_BACK_MS = 7 * 24 * 3_600_000;

/**
 * When the knock happened (E5): a date-time near the server's clock. A queue sends knocks late,
 * but a clock far off or a week-old queue would date visits wrongly, so those are refused.
 */
const visitedAtInput = z
  .string({ error: "must be a string" })
  .meta({ format: "date-time", pattern: DATE_TIME_PATTERN, examples: ["2026-03-02T14:05:00Z"] })
  .trim()
  .transform((value, ctx): Date => {
    const at = /t/i.test(value) ? parseIsoDate(value) : null;
    if (!at) {
      ctx.addIssue({ code: "custom", message: "must be an ISO 8601 date-time with an offset" });
      return z.NEVER;
    }
    const now = Date.now();
    if (at.getTime() > now + VISITED_AT_AHEAD_MS) {
      ctx.addIssue({
        code: "custom",
        message: "must not be more than 5 minutes ahead of the server's clock",
      });
      return z.NEVER;
    }
    if (at.getTime() < now - VISITED_AT_BACK_MS) {
      ctx.addIssue({ code: "custom", message: "must not be more than 7 days old" });
      return z.NEVER;
    }
    return at;
  });

/** `bbox=south,west,north,east`: four numbers, latitudes −90..90, longitudes −180..180, south ≤ north. */
export interface BoundingBox {
  south: number;
  west: number;
  north: number;
  east: number;
}

const BBOX_MESSAGE = "must be south,west,north,east: four numbers";

// Decimal degrees within range, as the document states them; the server reads any JS number.
const LATITUDE = "-?(?:90(?:\\.0+)?|[1-8]?\\d(?:\\.\\d+)?)";
const LONGITUDE = "-?(?:180(?:\\.0+)?|(?:1[0-7]\\d|[1-9]?\\d)(?:\\.\\d+)?)";
export const BBOX_PATTERN = `^\\s*${[LATITUDE, LONGITUDE, LATITUDE, LONGITUDE].join("\\s*,\\s*")}\\s*$`;

const bboxQuery = z
  .string()
  .meta({ pattern: BBOX_PATTERN, examples: ["40.70,-74.02,40.80,-73.93"] })
  .trim()
  .transform((value, ctx): BoundingBox | undefined => {
    if (value === "") return undefined;
    const parts = value.split(",").map((part) => part.trim());
    const numbers = parts.map((part) => (part === "" ? Number.NaN : Number(part)));
    if (numbers.length !== 4 || numbers.some((n) => !Number.isFinite(n))) {
      ctx.addIssue({ code: "custom", message: BBOX_MESSAGE });
      return z.NEVER;
    }
    const [south, west, north, east] = numbers as [number, number, number, number];
    const problem = [south, north].some((lat) => lat < -90 || lat > 90)
      ? "latitudes (south, north) must be between -90 and 90"
      : [west, east].some((lng) => lng < -180 || lng > 180)
        ? "longitudes (west, east) must be between -180 and 180"
        : south > north
          ? "south must not be greater than north"
          : undefined;
    if (problem) {
      ctx.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    }
    return { south, west, north, east };
  })
  .optional()
  .describe(
    "Only pins inside this box, edges included: `south,west,north,east` in degrees (latitudes −90..90, " +
      "longitudes −180..180, south ≤ north). A west greater than east is a box that crosses the " +
      "antimeridian (from west to 180 and from −180 to east).",
  );

export const getPinsQuerySchema = z
  .object({
    pin_type_id: textFilterQuery("Only pins of this pin type id."),
    user_id: textFilterQuery("Only pins created by this user id."),
    created_by: textFilterQuery("Only pins created by this user id (the same filter as user_id)."),
    lead_id: textFilterQuery("Only pins linked to this lead id."),
    territory_id: textFilterQuery(
      "Only pins inside this territory's polygon (an unknown territory id is a 404).",
    ),
    ...feedQueryShape,
    bbox: bboxQuery,
  })
  .extend(feedPaginationQuerySchema.shape)
  .describe("Query of GET /pins.");
export type GetPinsQuery = z.output<typeof getPinsQuerySchema>;

export const pinIdParamsSchema = idParamsSchema("The pin's id.");
export type PinIdParams = z.output<typeof pinIdParamsSchema>;

const nullableString = (description: string) => z.string().nullable().describe(description);

export const pinAddressSchema = z
  .object({
    street1: nullableString("Street address, or null."),
    city: nullableString("City, or null."),
    state: nullableString("State or region, or null."),
    zip: nullableString("Postal code, or null."),
  })
  .describe("The door's address; each part null when unknown.");
export type PinAddress = z.output<typeof pinAddressSchema>;

export const pinSchema = z
  .object({
    id: z.string().describe("Pin id."),
    created_at: z.string().describe("When the pin was dropped, ISO 8601."),
    created_by: userRefSchema.describe("The user who created the pin."),
    location: z
      .tuple([
        z.number().min(-90).max(90).describe("Latitude."),
        z.number().min(-180).max(180).describe("Longitude."),
      ])
      .describe("[latitude, longitude]."),
    pin_type: pinTypeSchema,
    address: pinAddressSchema,
    notes: nullableString("Notes about the door, or null."),
    lead_id: nullableString("The lead made from this door, or null."),
    updated_at: z.string().describe("When the pin last changed, ISO 8601."),
    visit_count: z.number().int().describe("How many visits (knocks) the pin has."),
    last_visit_at: nullableString("When the latest visit was, ISO 8601; null when none."),
  })
  .describe("A map pin.");
export type Pin = z.output<typeof pinSchema>;

export const listPinsResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z.array(pinSchema).describe("The page of pins, newest created first (id desc tie-break)."),
    pagination: paginationSchema,
  })
  .describe("A page of map pins.");
export type ListPinsResponse = z.output<typeof listPinsResponseSchema>;

export const pinVisitSchema = z
  .object({
    at: z.string().describe("When, ISO 8601."),
    by: userRefSchema.describe("The user who knocked."),
    pin_type: pinTypeSchema.describe("The outcome the visit recorded."),
  })
  .describe("A knock at the door: the pin's creation, or a change of its pin type.");
export type PinVisit = z.output<typeof pinVisitSchema>;

export const pinWithVisitsSchema = pinSchema
  .extend({ visits: z.array(pinVisitSchema).describe("Every visit, newest first.") })
  .describe("A map pin with its visits.");
export type PinWithVisits = z.output<typeof pinWithVisitsSchema>;

export const getPinResponseSchema = z
  .object({ status: z.literal("success"), data: pinWithVisitsSchema })
  .describe("One pin and its history.");
export type GetPinResponse = z.output<typeof getPinResponseSchema>;

// ---------------------------------------------------------------------------------------------
// POST /api/pins

const idInput = (description: string) =>
  maxChars(nonBlank(z.string({ error: "must be a string" }).trim()), SHORT_TEXT_MAX).describe(description);

export const upsertPinBodySchema = z
  .object({
    id: recordIdInput("Update the pin with this id (404 if unknown); absent: create a pin."),
    location: z
      .tuple(
        [
          z
            .number({ error: "must be a number" })
            .min(-90, "latitude must be between -90 and 90")
            .max(90, "latitude must be between -90 and 90"),
          z
            .number({ error: "must be a number" })
            .min(-180, "longitude must be between -180 and 180")
            .max(180, "longitude must be between -180 and 180"),
        ],
        { error: "must be [latitude, longitude]" },
      )
      .optional()
      .describe("[latitude, longitude]; required on create. On update it moves the pin."),
    pin_type_id: idInput(
      "The outcome: a pin type of the company (GET /pin-types); required on create. A change records a visit.",
    ).optional(),
    notes: nullableNotes("Notes about the door, at most 10,000 characters; null or empty clears them."),
    address: z
      .object(
        {
          street1: nullableText("Street address."),
          city: nullableText("City."),
          state: nullableText("State or region."),
          zip: nullableText("Postal code."),
        },
        { error: "must be an object of street1, city, state, zip" },
      )
      .nullable()
      .optional()
      .describe(
        "The door's address. Parts present overwrite, absent parts are kept, null or empty clears one; " +
          "`address: null` clears them all.",
      ),
    lead_id: idInput("The lead made from this door: a lead of the company; null unlinks it.")
      .nullable()
      .optional(),
    client_id: maxChars(nonBlank(z.string({ error: "must be a string" }).trim()), CLIENT_ID_MAX)
      .optional()
      .describe(
        "The client's own id for a create (an offline knock sent again): a create whose client_id the " +
          "company has seen answers 200 with that pin and changes nothing. Ignored with `id`.",
      ),
    visited_at: visitedAtInput
      .optional()
      .describe(
        "When the knock happened, for a queue sent later: an ISO 8601 date-time at most 5 minutes ahead of " +
          "the server's clock and at most 7 days old; default now. It dates the visit a create or a change of " +
          "pin_type_id records, and the pin's created_at on create. A change of pin_type_id sent again with " +
          "the same visited_at, whose visit by the same user is recorded, changes nothing.",
      ),
    created_by: idInput(
      "With an API key: the user who knocked, a user id of the company (required on create; on update it " +
        "names who made the change, the pin's creator when absent). With a session: ignored (the signed-in user).",
    ).optional(),
  })
  .describe(
    "Create a pin (no `id`) or update one (`id`). Absent fields are kept, null clears notes, address parts " +
      "and lead_id. Unknown fields are ignored.",
  );
export type UpsertPinBody = z.output<typeof upsertPinBodySchema>;

export const PIN_MESSAGES = { created: "Pin created", updated: "Pin updated" } as const;

export const pinUpsertResponseSchema = pinSchema
  .extend({
    status: z.literal("success").describe("The response status."),
    message: z
      .enum([PIN_MESSAGES.created, PIN_MESSAGES.updated])
      .describe(
        "Pin created (201; 200 when a create is retried with a client_id already seen: the pin it made, " +
          "unchanged) or Pin updated (200).",
      ),
  })
  .describe("The created or updated pin, flat, with status and message.");
export type PinUpsertResponse = z.output<typeof pinUpsertResponseSchema>;

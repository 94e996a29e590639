import { z } from "zod";
import { paginationQuerySchema, paginationSchema } from "./common";
import { pinTypeSchema } from "./pin-types";
import { textFilterQuery, userRefSchema } from "./service-plans";

export const getPinsQuerySchema = z
  .object({
    pin_type_id: textFilterQuery("Only pins of this pin type id."),
    user_id: textFilterQuery("Only pins created by this user id."),
  })
  .extend(paginationQuerySchema.shape)
  .describe("Query of GET /pins.");
export type GetPinsQuery = z.output<typeof getPinsQuerySchema>;

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

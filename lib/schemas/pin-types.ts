import { z } from "zod";

export const pinTypeSchema = z
  .object({
    id: z.string().describe("Pin type id."),
    color: z.string().describe("Hex color code, #rgb or #rrggbb."),
    label: z.string().describe("Display label."),
  })
  .describe("A kind of map pin and its color.");
export type PinType = z.output<typeof pinTypeSchema>;

export const listPinTypesResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z.array(pinTypeSchema).describe("Every pin type of the company, by label (id desc tie-break)."),
  })
  .describe("The company's pin types (not paginated).");
export type ListPinTypesResponse = z.output<typeof listPinTypesResponseSchema>;

import { z } from "zod";
import { maxChars, nonBlank } from "./text";

export const PIN_TYPE_LABEL_MAX = 100;
export const PIN_TYPES_MAX = 50;
/** #rgb or #rrggbb, as the pin_types_color_check constraint allows. */
export const PIN_TYPE_COLOR_PATTERN = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export const pinTypeSchema = z
  .object({
    id: z.string().describe("Pin type id."),
    color: z.string().describe("Hex color code, #rgb or #rrggbb."),
    label: z.string().describe("Display label."),
  })
  .describe("A kind of map pin and its color.");
export type PinType = z.output<typeof pinTypeSchema>;

export const pinTypeRecordSchema = pinTypeSchema
  .extend({
    position: z
      .number()
      .int()
      .describe("The type's place in the order admins set (0 first): the knock sheet's buttons, the legend."),
  })
  .describe("A kind of map pin, its color and its place in the settings' order.");
export type PinTypeRecord = z.output<typeof pinTypeRecordSchema>;

export const listPinTypesResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z
      .array(pinTypeRecordSchema)
      .describe("Every pin type of the company, by label (id desc tie-break)."),
  })
  .describe("The company's pin types (not paginated).");
export type ListPinTypesResponse = z.output<typeof listPinTypesResponseSchema>;

// ---- Settings (admins): GET and PUT /settings/pin-types --------------------------------------

export const pinTypeSettingsResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z.array(pinTypeRecordSchema).describe("Every pin type, in the order admins set (position)."),
  })
  .describe("The company's pin types, in order.");
export type PinTypeSettingsResponse = z.output<typeof pinTypeSettingsResponseSchema>;

const pinTypeInputSchema = z.object({
  id: maxChars(nonBlank(z.string({ error: "must be a string" }).trim()), 255)
    .optional()
    .describe("Give it to keep an existing type (its pins keep it); leave it out for a new type."),
  label: maxChars(
    nonBlank(z.string({ error: "Enter a name" }).trim(), "Enter a name"),
    PIN_TYPE_LABEL_MAX,
    `At most ${PIN_TYPE_LABEL_MAX} characters`,
  ).describe("The type's name, unique ignoring case."),
  color: z
    .string({ error: "Enter a color as #rrggbb" })
    .trim()
    .regex(PIN_TYPE_COLOR_PATTERN, "Enter a color as #rgb or #rrggbb")
    .transform((color) => color.toLowerCase())
    .describe("Hex color #rgb or #rrggbb."),
});
export type PinTypeInput = z.output<typeof pinTypeInputSchema>;

export const putPinTypesBodySchema = z
  .object({
    pin_types: z
      .array(pinTypeInputSchema, { error: "Give the pin types as a list" })
      .min(1, "Keep at least one pin type")
      .max(PIN_TYPES_MAX, `At most ${PIN_TYPES_MAX} pin types`)
      .describe("Every pin type, in order: the list replaces the company's types as a whole."),
  })
  .describe(
    "The whole ordered list of pin types. Labels are unique ignoring case; an id must be one of the " +
      "company's types (each once); a type left out that pins or their visits use cannot be removed.",
  );
export type PutPinTypesBody = z.output<typeof putPinTypesBodySchema>;

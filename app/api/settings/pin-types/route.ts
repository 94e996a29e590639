import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getPinTypeSettings, replacePinTypes } from "@/lib/domain/pin-types/settings";
import { pinTypeSettingsResponseSchema, putPinTypesBodySchema } from "@/lib/schemas/pin-types";
import { named } from "@/lib/api/route-docs";

// GET /api/settings/pin-types – the pin types in order, as the settings page edits them (admins)
export const GET = apiRoute({
  permission: "pin_types:manage",
  handler: ({ ctx }) => getPinTypeSettings({ ctx }),
  docs: {
    tag: "Settings",
    operationId: "getPinTypeSettings",
    summary: "Get the pin types to edit",
    description: "The pin types in the order admins set (`position`).",
    responses: [
      {
        status: 200,
        description: "The pin types, in order.",
        schema: named("PinTypeSettingsResponse", pinTypeSettingsResponseSchema),
      },
    ],
  },
});

// PUT /api/settings/pin-types – replace the whole ordered list of pin types
export const PUT = apiRoute({
  permission: "pin_types:manage",
  body: putPinTypesBodySchema,
  handler: ({ ctx, body }) => replacePinTypes({ ctx, input: body }),
  docs: {
    tag: "Settings",
    operationId: "replacePinTypes",
    summary: "Replace the pin types",
    description: [
      "Replaces the whole ordered list of pin types at once; the order is saved as each type's `position`. " +
        "Give a type's `id` to keep it (renaming, recoloring or moving it keeps its pins); a type without an " +
        "id is new.",
      "Labels are required (at most 100 characters) and unique ignoring case; colors are `#rgb` or `#rrggbb`; " +
        "at least one type. An id that is not one of the company's types, or given twice, is a 400 naming it. " +
        "A type left out that pins or their visits use is a 409 `PIN_TYPE_IN_USE` naming it with its counts, " +
        "and nothing changes: a knock's history keeps its outcome, so a type once used stays (rename it instead).",
    ].join("\n\n"),
    bodyName: "PutPinTypesBody",
    responses: [
      {
        status: 200,
        description: "The pin types as saved, in order.",
        schema: named("PinTypeSettingsResponse", pinTypeSettingsResponseSchema),
      },
    ],
    errors: ["PIN_TYPE_IN_USE"],
    errorMessages: {
      PIN_TYPE_IN_USE:
        'The pin type "Sold" is used by 12 pins and 30 visits: a type in use cannot be removed (rename or recolor it instead)',
    },
    example: {
      body: {
        pin_types: [
          { id: "pt_01jq8m2x4kd7w3a9c5v6r8t0ye", label: "Not home", color: "#6b7280" },
          { label: "Interested", color: "#2563eb" },
          { id: "pt_01jq8m2x4kd7w3a9c5v6r8t0yf", label: "Sold", color: "#15803d" },
        ],
      },
    },
  },
});

export const { POST, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET, PUT");

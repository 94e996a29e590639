import {
  listPinTypesResponseSchema,
  pinTypeRecordSchema,
  pinTypeSchema,
  pinTypeSettingsResponseSchema,
  putPinTypesBodySchema,
} from "@/lib/schemas/pin-types";
import { named, type EndpointSpec, type ResourceSpec } from "../types";

export const pinTypesPaths: ResourceSpec = {
  tag: "Pin types",
  description:
    "The kinds of map pins (the outcomes of a knock) and their colors. Admins manage them in the settings " +
    "(`PUT /settings/pin-types`).",
  components: [named("PinType", pinTypeSchema), named("PinTypeRecord", pinTypeRecordSchema)],
  endpoints: [
    {
      method: "GET",
      path: "/pin-types",
      operationId: "listPinTypes",
      summary: "List pin types",
      description:
        "Every pin type of the company, by `label` (then `id` descending). Not paginated. `position` is the " +
        "type's place in the order admins set, for the knock sheet's buttons and the legend.",
      scopes: ["pin_types:read"],
      responses: [
        {
          status: 200,
          description: "The company's pin types.",
          schema: named("ListPinTypesResponse", listPinTypesResponseSchema),
        },
      ],
    },
  ],
};

const settings = named("PinTypeSettingsResponse", pinTypeSettingsResponseSchema);

/** The pin types' settings endpoints, listed with the other settings (admins, dashboard only). */
export const pinTypeSettingsEndpoints: EndpointSpec[] = [
  {
    auth: "session",
    roles: ["admin"],
    method: "GET",
    path: "/settings/pin-types",
    operationId: "getPinTypeSettings",
    summary: "Get the pin types to edit",
    description: "The pin types in the order admins set (`position`).",
    responses: [{ status: 200, description: "The pin types, in order.", schema: settings }],
  },
  {
    auth: "session",
    roles: ["admin"],
    method: "PUT",
    path: "/settings/pin-types",
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
    body: named("PutPinTypesBody", putPinTypesBodySchema),
    responses: [{ status: 200, description: "The pin types as saved, in order.", schema: settings }],
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
];

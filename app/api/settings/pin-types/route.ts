import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getPinTypeSettings, replacePinTypes } from "@/lib/domain/pin-types/settings";
import { putPinTypesBodySchema } from "@/lib/schemas/pin-types";

// GET /api/settings/pin-types – the pin types in order, as the settings page edits them (admins)
export const GET = apiRoute({
  permission: "pin_types:manage",
  handler: ({ ctx }) => getPinTypeSettings({ ctx }),
});

// PUT /api/settings/pin-types – replace the whole ordered list of pin types
export const PUT = apiRoute({
  permission: "pin_types:manage",
  body: putPinTypesBodySchema,
  handler: ({ ctx, body }) => replacePinTypes({ ctx, input: body }),
});

export const { POST, PATCH, DELETE } = methodsNotAllowed("GET, PUT");

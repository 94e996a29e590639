import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getPin } from "@/lib/domain/pins/get-pin";
import { getPinResponseSchema, pinIdParamsSchema } from "@/lib/schemas/pins";
import { named } from "@/lib/api/route-docs";

// GET /api/pins/{id} – one pin and its visits
export const GET = apiRoute({
  permission: "pins:read",
  params: pinIdParamsSchema,
  handler: ({ ctx, params }) => getPin({ ctx, input: params }),
  docs: {
    tag: "Pins",
    operationId: "getPin",
    summary: "Get a pin and its visits",
    description:
      "One pin by its id with its visits, newest first: its creation and each change of its pin type, " +
      "each with who knocked and the outcome. An id of another company is not found.",
    responses: [
      {
        status: 200,
        description: "The pin and its visits.",
        schema: named("GetPinResponse", getPinResponseSchema),
      },
    ],
    notFound: "Pin",
    example: { params: { id: "pin_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

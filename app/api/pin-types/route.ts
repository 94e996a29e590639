import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { listPinTypes } from "@/lib/domain/pin-types/list";
import { named } from "@/lib/api/route-docs";
import { listPinTypesResponseSchema } from "@/lib/schemas/pin-types";

// GET /api/pin-types – list the company's pin types
export const GET = apiRoute({
  permission: "pin_types:read",
  handler: async ({ ctx }) => ({ ...(await listPinTypes({ ctx })) }),
  docs: {
    tag: "Pin types",
    operationId: "listPinTypes",
    summary: "List pin types",
    description:
      "Every pin type of the company, by `label` (then `id` descending). Not paginated. `position` is the " +
      "type's place in the order admins set, for the knock sheet's buttons and the legend.",
    responses: [
      {
        status: 200,
        description: "The company's pin types.",
        schema: named("ListPinTypesResponse", listPinTypesResponseSchema),
      },
    ],
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

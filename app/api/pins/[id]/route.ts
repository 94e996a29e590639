import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getPin } from "@/lib/domain/pins/get-pin";
import { pinIdParamsSchema } from "@/lib/schemas/pins";

// GET /api/pins/{id} – one pin and its visits
export const GET = apiRoute({
  permission: "pins:read",
  params: pinIdParamsSchema,
  handler: ({ ctx, params }) => getPin({ ctx, input: params }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

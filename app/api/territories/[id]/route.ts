import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { deleteTerritory } from "@/lib/domain/territories/territories";
import { territoryIdParamsSchema } from "@/lib/schemas/territories";

// DELETE /api/territories/{id} – delete a territory and its assignments (admins and managers)
export const DELETE = apiRoute({
  permission: "territories:write",
  params: territoryIdParamsSchema,
  handler: async ({ ctx, params }) => {
    await deleteTerritory({ ctx, input: params });
    return new Response(null, { status: 204 });
  },
});

export const { GET, POST, PUT, PATCH } = methodsNotAllowed("DELETE");

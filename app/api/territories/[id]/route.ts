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
  docs: {
    tag: "Territories",
    operationId: "deleteTerritory",
    summary: "Delete a territory",
    description: "Deletes the territory and its assignments. Dashboard sessions of admins and managers only.",
    responses: [{ status: 204, description: "Deleted; no body." }],
    notFound: "Territory",
    example: { params: { id: "ter_01jq3m8c5v2k7d9f0a1b2c3d4e" } },
  },
});

export const { GET, POST, PUT, PATCH, OPTIONS } = methodsNotAllowed("DELETE");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { revokeInvite } from "@/lib/domain/accounts/invites";
import { idParamsSchema } from "@/lib/schemas/settings";

// DELETE /api/settings/invites/{id} – revoke an open invite; its link stops working
export const DELETE = apiRoute({
  permission: "users:manage",
  params: idParamsSchema,
  handler: async ({ ctx, params }) => {
    await revokeInvite({ ctx, input: params });
    return new Response(null, { status: 204 });
  },
  docs: {
    tag: "Settings",
    operationId: "revokeInvite",
    summary: "Revoke an invite",
    description: "The invite's link stops working at once. An accepted or already revoked invite is a 404.",
    paramDescriptions: { id: "The invite's id." },
    responses: [{ status: 204, description: "Revoked; no body." }],
    notFound: "Invite",
    example: { params: { id: "inv_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, POST, PUT, PATCH, OPTIONS } = methodsNotAllowed("DELETE");

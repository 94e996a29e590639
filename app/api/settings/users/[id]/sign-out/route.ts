import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { signOutUserEverywhere } from "@/lib/domain/users/sessions";
import { idParamsSchema } from "@/lib/schemas/settings";

// POST /api/settings/users/{id}/sign-out – an admin ends every session of a user
export const POST = apiRoute({
  permission: "users:manage",
  params: idParamsSchema,
  handler: async ({ ctx, params }) => {
    await signOutUserEverywhere({ ctx, input: params });
    return new Response(null, { status: 204 });
  },
  docs: {
    tag: "Settings",
    operationId: "signOutUserEverywhere",
    summary: "Sign a user out everywhere",
    description:
      "Ends every session of the user at once (they can sign in again). Written to the audit log. " +
      "The caller's own id ends the caller's sessions too.",
    paramDescriptions: { id: "The user's id." },
    responses: [{ status: 204, description: "Signed out everywhere; no body." }],
    notFound: "User",
    example: { params: { id: "usr_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { setUserActive } from "@/lib/domain/users/users";
import { idParamsSchema } from "@/lib/schemas/settings";

// POST /api/settings/users/{id}/deactivate – the user can no longer sign in; their sessions end
export const POST = apiRoute({
  permission: "users:manage",
  params: idParamsSchema,
  handler: async ({ ctx, params }) => ({
    ...(await setUserActive({ ctx, input: { id: params.id, active: false } })),
  }),
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

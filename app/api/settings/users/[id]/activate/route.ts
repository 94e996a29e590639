import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { setUserActive } from "@/lib/domain/users/users";
import { idParamsSchema } from "@/lib/schemas/settings";

// POST /api/settings/users/{id}/activate – reactivate a user (they sign in again with their password)
export const POST = apiRoute({
  permission: "users:manage",
  params: idParamsSchema,
  handler: async ({ ctx, params }) => ({
    ...(await setUserActive({ ctx, input: { id: params.id, active: true } })),
  }),
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { setUserActive } from "@/lib/domain/users/users";
import { idParamsSchema, userRecordSchema } from "@/lib/schemas/settings";
import { named } from "@/lib/api/route-docs";

// POST /api/settings/users/{id}/activate – reactivate a user (they sign in again with their password)
export const POST = apiRoute({
  permission: "users:manage",
  params: idParamsSchema,
  handler: async ({ ctx, params }) => ({
    ...(await setUserActive({ ctx, input: { id: params.id, active: true } })),
  }),
  docs: {
    tag: "Settings",
    operationId: "activateUser",
    summary: "Reactivate a user",
    description: "The user can sign in again with their password.",
    paramDescriptions: { id: "The user's id." },
    responses: [
      { status: 200, description: "The reactivated user.", schema: named("User", userRecordSchema) },
    ],
    notFound: "User",
    example: { params: { id: "usr_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { setUserActive } from "@/lib/domain/users/users";
import { idParamsSchema, userRecordSchema } from "@/lib/schemas/settings";
import { named } from "@/lib/api/route-docs";

// POST /api/settings/users/{id}/deactivate – the user can no longer sign in; their sessions end
export const POST = apiRoute({
  permission: "users:manage",
  params: idParamsSchema,
  handler: async ({ ctx, params }) => ({
    ...(await setUserActive({ ctx, input: { id: params.id, active: false } })),
  }),
  docs: {
    tag: "Settings",
    operationId: "deactivateUser",
    summary: "Deactivate a user",
    description:
      "The user can no longer sign in and their sessions end. Admins cannot deactivate themselves.",
    paramDescriptions: { id: "The user's id." },
    responses: [
      { status: 200, description: "The deactivated user.", schema: named("User", userRecordSchema) },
    ],
    notFound: "User",
    example: { params: { id: "usr_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

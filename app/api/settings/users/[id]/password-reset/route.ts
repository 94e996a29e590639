import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { requestOrigin } from "@/lib/api/request-origin";
import { named } from "@/lib/api/route-docs";
import { issuePasswordReset } from "@/lib/domain/accounts/password-reset";
import { issuedPasswordResetSchema } from "@/lib/schemas/accounts";
import { idParamsSchema } from "@/lib/schemas/settings";

// POST /api/settings/users/{id}/password-reset – issue a reset link for a user (emailed, or answered once)
export const POST = apiRoute({
  permission: "users:manage",
  params: idParamsSchema,
  handler: async ({ ctx, params, request }) => ({
    ...(await issuePasswordReset({ ctx, input: params, requestOrigin: requestOrigin(request) })),
  }),
  docs: {
    tag: "Settings",
    operationId: "issuePasswordReset",
    summary: "Issue a password reset link",
    description:
      "A one-time link for the user to choose a new password, good for 1 hour; using it ends their " +
      "sessions. With a mail server configured it is emailed to the user; without, the answer carries it " +
      "in `url`, this once. A deactivated user is a 409 (reactivate them first). If the mail server does " +
      "not take the email, the link is dropped and the answer is a 503.",
    paramDescriptions: { id: "The user's id." },
    responses: [
      {
        status: 200,
        description: "The link was issued.",
        schema: named("IssuedPasswordReset", issuedPasswordResetSchema),
      },
    ],
    notFound: "User",
    errors: ["CONFLICT", "SERVICE_UNAVAILABLE"],
    errorMessages: { CONFLICT: "This user is deactivated: reactivate them first" },
    example: { params: { id: "usr_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

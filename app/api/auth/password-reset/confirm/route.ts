import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { clientIp } from "@/lib/auth/client-ip";
import { confirmPasswordReset } from "@/lib/domain/accounts/password-reset";
import { passwordResetConfirmBodySchema, passwordResetDoneSchema } from "@/lib/schemas/accounts";

// POST /api/auth/password-reset/confirm – set a new password with a reset link; ends the account's sessions
export const POST = apiRoute({
  auth: "none",
  requireVersion: true,
  body: passwordResetConfirmBodySchema,
  handler: async ({ db, body, request }) => {
    await confirmPasswordReset({ db: await db(), input: body, ip: clientIp(request.headers) });
    return { status: "success", message: "Your password is set. Sign in with it." };
  },
  docs: {
    tag: "Dashboard session",
    operationId: "confirmPasswordReset",
    summary: "Set a new password with a reset link",
    description:
      "Sets the account's password, ends every session of that account and clears its failed sign-ins. " +
      "The link works once, for 1 hour, and using it spends the account's other open links: an unknown, " +
      "used or expired token is a 400 naming `token`. A deactivated account gets 403. No session starts: " +
      "sign in with the new password.",
    bodyName: "PasswordResetConfirmBody",
    responses: [
      {
        status: 200,
        description: "The password is set.",
        schema: named("PasswordResetDone", passwordResetDoneSchema),
      },
    ],
    errors: ["FORBIDDEN"],
    errorMessages: {
      VALIDATION_ERROR: "token: This reset link has expired. Ask for a new one.",
      FORBIDDEN: "This account has been deactivated. Ask an administrator to reactivate it.",
    },
    example: { body: { token: "<token from the link>", password: "<new password>" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

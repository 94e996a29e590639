import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { requestOrigin } from "@/lib/api/request-origin";
import { named } from "@/lib/api/route-docs";
import { clientIp } from "@/lib/auth/client-ip";
import { RESET_PER_EMAIL, RESET_PER_IP } from "@/lib/auth/request-throttle";
import { RESET_REQUESTED_MESSAGE, requestPasswordReset } from "@/lib/domain/accounts/password-reset";
import { passwordResetAcceptedSchema, passwordResetRequestBodySchema } from "@/lib/schemas/accounts";

// POST /api/auth/password-reset – "forgot password": email a reset link; the same answer for any email
export const POST = apiRoute({
  auth: "none",
  requireVersion: true,
  body: passwordResetRequestBodySchema,
  handler: async ({ db, body, request }) => {
    await requestPasswordReset({
      db: await db(),
      email: body.email,
      ip: clientIp(request.headers) ?? "unknown",
      requestOrigin: requestOrigin(request),
    });
    return respond({ status: "accepted", message: RESET_REQUESTED_MESSAGE }, 202);
  },
  docs: {
    tag: "Dashboard session",
    operationId: "requestPasswordReset",
    summary: "Ask for a password reset link",
    description:
      "Answers 202 with the same body whether or not the email has an account; the email, if any, is sent " +
      "after the answer. Each active account with the email (one per company) gets its own link, one " +
      "account each, in one email; a link works once, for 1 hour. Without a mail server nothing is sent " +
      `(an admin can issue a link). At most ${RESET_PER_EMAIL.max} requests per email and ` +
      `${RESET_PER_IP.max} per client address per hour, counted for any email: then a 429 with Retry-After.`,
    bodyName: "PasswordResetRequestBody",
    responses: [
      {
        status: 202,
        description: "Accepted (whether or not the email has an account).",
        schema: named("PasswordResetAccepted", passwordResetAcceptedSchema),
      },
    ],
    errors: ["TOO_MANY_ATTEMPTS"],
    errorMessages: { TOO_MANY_ATTEMPTS: "Too many password reset requests. Try again in 42 minutes." },
    example: { body: { email: "sam@example.com" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

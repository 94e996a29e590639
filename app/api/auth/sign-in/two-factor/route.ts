import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { SESSION_COOKIE } from "@/lib/auth/credentials";
import { sessionCookie } from "@/lib/auth/session-cookie";
import { clientIp } from "@/lib/auth/client-ip";
import { completeTwoFactorSignIn } from "@/lib/domain/two-factor/sign-in-challenge";
import { twoFactorSignInAnswerSchema, twoFactorSignInBodySchema } from "@/lib/schemas/two-factor";

// POST /api/auth/sign-in/two-factor – the second sign-in step: a code or a recovery code; sets the cookie
export const POST = apiRoute({
  auth: "none",
  requireVersion: true,
  body: twoFactorSignInBodySchema,
  handler: async ({ db, body, request }) => {
    const result = await completeTwoFactorSignIn({
      db: await db(),
      input: body,
      userAgent: request.headers.get("user-agent"),
      ip: clientIp(request.headers),
    });
    return respond(
      {
        status: "success",
        ...result.session,
        ...(result.recoveryCodes ? { recovery_codes: result.recoveryCodes } : {}),
      },
      200,
      { "set-cookie": sessionCookie(result.token, result.maxAgeSeconds, request) },
    );
  },
  docs: {
    tag: "Dashboard session",
    operationId: "signInTwoFactor",
    summary: "Sign in: second step",
    description:
      "Finishes a sign-in that answered `two_factor_required` or `two_factor_setup_required`: the " +
      "`challenge` with the 6-digit code of the authenticator app, or one of the recovery codes (each " +
      "works once): one of `code` and `recovery_code`, not both (else 400); a recovery code cannot finish a setup. For `two_factor_setup_required`, the code comes from the authenticator just set up; " +
      "two-factor is then on and the answer carries ten recovery codes, shown this once. A code is " +
      "accepted once: the same code again is refused. Wrong codes count against the account's sign-in " +
      "throttle (429 with `Retry-After`); an expired or used challenge is a 401: sign in again.",
    bodyName: "TwoFactorSignInBody",
    responses: [
      {
        status: 200,
        description: "Signed in; the session cookie is set.",
        schema: named("TwoFactorSignInAnswer", twoFactorSignInAnswerSchema),
        headers: {
          "Set-Cookie": `${SESSION_COOKIE}=<token>; HttpOnly; SameSite=Lax; Path=/ (Secure over HTTPS).`,
        },
      },
    ],
    errors: ["INVALID_CREDENTIALS", "TOO_MANY_ATTEMPTS", "SERVICE_UNAVAILABLE"],
    errorMessages: {
      INVALID_CREDENTIALS: "That code is not right. Check your authenticator app and try again.",
    },
    example: { body: { challenge: "<challenge>", code: "123456" } },
    moreExamples: [
      {
        name: "recoveryCode",
        summary: "With a recovery code instead",
        body: { challenge: "<challenge>", recovery_code: "k7m2p-x9qrt" },
      },
    ],
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

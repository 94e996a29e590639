import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { sessionCookie } from "@/lib/auth/session-cookie";
import { signIn } from "@/lib/domain/users/sign-in";
import { sessionInfoSchema, signInBodySchema } from "@/lib/schemas/session";
import { named } from "@/lib/api/route-docs";
import { SESSION_COOKIE } from "@/lib/auth/credentials";
import { z } from "zod";

// The answer wraps the session record; documented from the same schema.
const signInResponseSchema = sessionInfoSchema
  .extend({ status: z.literal("success") })
  .describe("Signed in: who, which company, and the role's scopes.");

// POST /api/auth/sign-in – dashboard sign-in with email and password; sets the session cookie
export const POST = apiRoute({
  auth: "none",
  requireVersion: true,
  body: signInBodySchema,
  handler: async ({ db, body, request }) => {
    const result = await signIn({
      db: await db(),
      input: body,
      userAgent: request.headers.get("user-agent"),
    });
    return respond({ status: "success", ...result.session }, 200, {
      "set-cookie": sessionCookie(result.token, result.maxAgeSeconds, request),
    });
  },
  docs: {
    tag: "Dashboard session",
    operationId: "signIn",
    summary: "Sign in",
    description:
      "Checks the email and password and starts a session: the answer sets the HttpOnly session cookie. An " +
      "unknown email and a wrong password get the same 401; repeated failures for one email are slowed " +
      "down (429 with `Retry-After`); a deactivated account gets 403.",
    bodyName: "SignInBody",
    responses: [
      {
        status: 200,
        description: "Signed in; the session cookie is set.",
        schema: named("SignInResponse", signInResponseSchema),
        headers: {
          "Set-Cookie": `${SESSION_COOKIE}=<token>; HttpOnly; SameSite=Lax; Path=/ (Secure over HTTPS).`,
        },
      },
    ],
    errors: ["INVALID_CREDENTIALS", "TOO_MANY_ATTEMPTS", "FORBIDDEN", "SERVICE_UNAVAILABLE"],
    errorMessages: {
      FORBIDDEN: "This account has been deactivated. Ask an administrator to reactivate it.",
    },
    example: { body: { email: "admin@example.com", password: "<password>" } },
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

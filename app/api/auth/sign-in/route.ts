import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { sessionCookie } from "@/lib/auth/session-cookie";
import { signIn } from "@/lib/domain/users/sign-in";
import { signInBodySchema } from "@/lib/schemas/session";

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
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

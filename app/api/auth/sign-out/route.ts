import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { clearedSessionCookie } from "@/lib/auth/session-cookie";
import { signOut } from "@/lib/domain/users/sign-in";
import { named } from "@/lib/api/route-docs";
import { SESSION_COOKIE } from "@/lib/auth/credentials";
import { z } from "zod";

const signOutResponseSchema = z
  .object({ status: z.literal("success"), message: z.literal("Signed out") })
  .describe("The session has ended.");

// POST /api/auth/sign-out – ends the dashboard session and clears its cookie
export const POST = apiRoute({
  auth: "session",
  handler: async ({ ctx, request }) =>
    respond(await signOut({ ctx }), 200, { "set-cookie": clearedSessionCookie(request) }),
  docs: {
    tag: "Dashboard session",
    operationId: "signOut",
    summary: "Sign out",
    description: "Ends the caller's session on the server and clears the cookie.",
    responses: [
      {
        status: 200,
        description: "Signed out; the cookie is cleared.",
        schema: named("SignOutResponse", signOutResponseSchema),
        headers: { "Set-Cookie": `${SESSION_COOKIE}=; Max-Age=0 (clears the cookie).` },
      },
    ],
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

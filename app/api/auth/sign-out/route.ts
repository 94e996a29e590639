import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { clearedSessionCookie } from "@/lib/auth/session-cookie";
import { signOut } from "@/lib/domain/users/sign-in";

// POST /api/auth/sign-out – ends the dashboard session and clears its cookie
export const POST = apiRoute({
  auth: "session",
  handler: async ({ ctx, request }) =>
    respond(await signOut({ ctx }), 200, { "set-cookie": clearedSessionCookie(request) }),
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

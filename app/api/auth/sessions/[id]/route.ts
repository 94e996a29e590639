import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { clearedSessionCookie } from "@/lib/auth/session-cookie";
import { SESSION_COOKIE } from "@/lib/auth/credentials";
import { endOwnSession } from "@/lib/domain/users/sessions";
import { idParamsSchema } from "@/lib/schemas/settings";

// DELETE /api/auth/sessions/{id} – end one of the signed-in user's sessions
export const DELETE = apiRoute({
  auth: "session",
  params: idParamsSchema,
  handler: async ({ ctx, params, request }) => {
    const { current } = await endOwnSession({ ctx, input: params });
    // Ending the session in use is a sign-out: its cookie goes too.
    return new Response(null, {
      status: 204,
      headers: current ? { "set-cookie": clearedSessionCookie(request) } : {},
    });
  },
  docs: {
    tag: "Dashboard session",
    operationId: "endSession",
    summary: "End a session",
    description:
      "Ends one of the signed-in user's own sessions: its next request is signed out. Another user's " +
      "session, an ended one or an unknown id is a 404. Ending the current session also clears its cookie.",
    paramDescriptions: { id: "The session's id (`ses_…`, from GET /auth/sessions)." },
    responses: [
      {
        status: 204,
        description: "Ended; no body.",
        headers: { "Set-Cookie": `${SESSION_COOKIE}=; Max-Age=0 (only when it was the current session).` },
      },
    ],
    notFound: "Session",
    example: { params: { id: "ses_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { GET, POST, PUT, PATCH, OPTIONS } = methodsNotAllowed("DELETE");

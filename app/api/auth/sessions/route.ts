import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { endOtherSessions, listOwnSessions } from "@/lib/domain/users/sessions";
import { endedSessionsSchema, endSessionsQuerySchema, sessionListSchema } from "@/lib/schemas/sessions";

// GET /api/auth/sessions – the signed-in user's active sessions
export const GET = apiRoute({
  auth: "session",
  handler: async ({ ctx }) => ({ ...(await listOwnSessions({ ctx })) }),
  docs: {
    tag: "Dashboard session",
    operationId: "listSessions",
    summary: "List your sessions",
    description:
      "The signed-in user's active sessions (not ended, not expired), the most recently used first: when " +
      "each signed in and was last used, from which IP and browser. `current` marks the caller's own. " +
      "Never a session's token.",
    responses: [
      { status: 200, description: "The sessions.", schema: named("SessionList", sessionListSchema) },
    ],
  },
});

// DELETE /api/auth/sessions?others=true – sign out everywhere else
export const DELETE = apiRoute({
  auth: "session",
  query: endSessionsQuerySchema,
  // The schema takes only others=true: the query is the caller's explicit yes.
  handler: async ({ ctx }) => respond(await endOtherSessions({ ctx }), 200),
  docs: {
    tag: "Dashboard session",
    operationId: "endOtherSessions",
    summary: "Sign out all other sessions",
    description:
      "With `others=true`: ends every session of the signed-in user except the one making the request. " +
      "Any other value of `others` is a 400 (sign out to end this one).",
    responses: [
      {
        status: 200,
        description: "How many sessions ended.",
        schema: named("EndedSessions", endedSessionsSchema),
      },
    ],
    example: { query: { others: "true" } },
  },
});

export const { POST, PUT, PATCH, OPTIONS } = methodsNotAllowed("GET, DELETE");

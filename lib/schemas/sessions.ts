import { z } from "zod";

// GET/DELETE /api/auth/sessions (extensions.md E11): the signed-in user's own sessions.

export const sessionRecordSchema = z
  .object({
    id: z.string().describe("The session's id, `ses_…` (never its token)."),
    current: z.boolean().describe("Whether this is the session making the request."),
    created_at: z.string().describe("Sign-in time, ISO 8601."),
    last_seen_at: z.string().describe("Last request, ISO 8601 (updated at most once a minute)."),
    ip: z.string().nullable().describe("The IP address it signed in from, when known."),
    user_agent: z.string().nullable().describe("The browser's User-Agent at sign-in, when sent."),
  })
  .describe("One active session of the signed-in user.");
export type SessionRecord = z.output<typeof sessionRecordSchema>;

export const sessionListSchema = z
  .object({ data: z.array(sessionRecordSchema) })
  .describe("The user's active sessions, the most recently used first.");
export type SessionList = z.output<typeof sessionListSchema>;

export const endSessionsQuerySchema = z
  .object({
    others: z
      .string({ error: "must be true" })
      .trim()
      .toLowerCase()
      .pipe(z.enum(["true"], { error: "must be true (sign out to end this session)" }))
      .transform(() => true as const)
      .describe("`true`: end every session of yours except this one. Required."),
  })
  .describe("Query of DELETE /auth/sessions.");

export const endedSessionsSchema = z
  .object({ ended: z.number().int().min(0).describe("How many sessions ended.") })
  .describe("The other sessions have ended.");

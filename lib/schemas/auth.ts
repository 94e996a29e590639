import { z } from "zod";
import { SCOPES } from "@/lib/values/scopes";

/** The interface version (interface.md): the one value of the version header, and /auth/test's. */
export const API_VERSION = "1.1.0";

export const authTestResponseSchema = z
  .object({
    status: z.literal("success"),
    message: z.string(),
    authenticated: z.boolean(),
    company_id: z.string(),
    user_id: z.string().nullable().describe("Null for API key authentication; the user's id for a session."),
    auth_method: z.enum(["api_key", "session", "unknown"]),
    scopes: z.array(z.enum(SCOPES)).describe("Scopes granted to the key (or the session's role)."),
    timestamp: z.string().describe("Now, ISO 8601."),
    service_api_version: z.string(),
  })
  .describe("The credentials are valid; which company and scopes they carry.");
export type AuthTestResponse = z.output<typeof authTestResponseSchema>;

import { z } from "zod";
import { SESSION_COOKIE } from "@/lib/auth/sessions";
import { sessionInfoSchema, signInBodySchema } from "@/lib/schemas/session";
import { named, type ResourceSpec } from "../types";

// The sign-in and sign-out answers wrap the session record; described here from the same schema.
const signInResponseSchema = sessionInfoSchema
  .extend({ status: z.literal("success") })
  .describe("Signed in: who, which company, and the role's scopes.");
const signOutResponseSchema = z
  .object({ status: z.literal("success"), message: z.literal("Signed out") })
  .describe("The session has ended.");

const COOKIE_HEADER = {
  "Set-Cookie": `${SESSION_COOKIE}=<token>; HttpOnly; SameSite=Lax; Path=/ (Secure over HTTPS).`,
};

export const sessionPaths: ResourceSpec = {
  tag: "Dashboard session",
  description:
    "Sign-in and sign-out of the dashboard. The session cookie then authenticates the same endpoints as a key, " +
    "with the scopes of the user's role.",
  components: [named("SessionInfo", sessionInfoSchema)],
  endpoints: [
    {
      method: "POST",
      path: "/auth/sign-in",
      operationId: "signIn",
      summary: "Sign in",
      description:
        "Checks the email and password and starts a session: the answer sets the HttpOnly session cookie. An " +
        "unknown email and a wrong password get the same 401; repeated failures for one email are slowed " +
        "down (429 with `Retry-After`); a deactivated account gets 403.",
      auth: "none",
      body: named("SignInBody", signInBodySchema),
      responses: [
        {
          status: 200,
          description: "Signed in; the session cookie is set.",
          schema: named("SignInResponse", signInResponseSchema),
          headers: COOKIE_HEADER,
        },
      ],
      errors: ["INVALID_CREDENTIALS", "TOO_MANY_ATTEMPTS", "FORBIDDEN", "SERVICE_UNAVAILABLE"],
      errorMessages: {
        FORBIDDEN: "This account has been deactivated. Ask an administrator to reactivate it.",
      },
      example: { body: { email: "admin@example.com", password: "<password>" } },
    },
    {
      method: "POST",
      path: "/auth/sign-out",
      operationId: "signOut",
      summary: "Sign out",
      description: "Ends the caller's session on the server and clears the cookie.",
      auth: "session",
      responses: [
        {
          status: 200,
          description: "Signed out; the cookie is cleared.",
          schema: named("SignOutResponse", signOutResponseSchema),
          headers: { "Set-Cookie": `${SESSION_COOKIE}=; Max-Age=0 (clears the cookie).` },
        },
      ],
    },
    {
      method: "GET",
      path: "/auth/session",
      operationId: "getSession",
      summary: "Get the signed-in user",
      description:
        "The signed-in dashboard user, their company, their role's scopes and whether they may manage settings.",
      auth: "session",
      responses: [
        { status: 200, description: "The session.", schema: named("SessionInfo", sessionInfoSchema) },
      ],
    },
  ],
};

import { z } from "zod";
import { maxChars, nonBlank } from "./text";
import { SCOPES } from "@/lib/values/scopes";
import { USER_ROLES } from "@/lib/values/roles";

/** POST /api/auth/sign-in body. Lengths are capped so a huge password cannot tie up the password hash. */
export const signInBodySchema = z
  .object({
    email: maxChars(nonBlank(z.string().trim(), "Enter your email"), 255).describe(
      "The user's email (any case).",
    ),
    password: maxChars(z.string().min(1, "Enter your password"), 200).describe("The user's password."),
  })
  .describe("Dashboard sign-in with email and password.");
export type SignInBody = z.output<typeof signInBodySchema>;

export const sessionUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(USER_ROLES).describe("admin, manager, sales_rep or technician."),
});

/** GET /api/auth/session (and the body of a successful sign-in): who is signed in. */
export const sessionInfoSchema = z
  .object({
    user: sessionUserSchema,
    company: z.object({ id: z.string(), name: z.string() }),
    scopes: z.array(z.enum(SCOPES)).describe("The scopes of the user's role (contract section 9)."),
    can_manage_settings: z.boolean().describe("Whether the user may manage API keys and users (admins)."),
  })
  .describe("The signed-in dashboard user, their company and what their role may do.");
export type SessionInfo = z.output<typeof sessionInfoSchema>;

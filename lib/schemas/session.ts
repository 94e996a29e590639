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
    company_id: maxChars(nonBlank(z.string().trim(), "Choose a company"), 100)
      .optional()
      .describe(
        "The company to sign in to, when the email and password match accounts in several companies " +
          "(one of the `companies` of a `choose_company` answer).",
      ),
  })
  .describe("Dashboard sign-in with email and password (and the chosen company, as a second step).");
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

/** A company whose account matched the email and password: what the chooser shows. */
export const signInCompanySchema = z.object({
  id: z.string().describe("Send it back as `company_id`."),
  name: z.string(),
  role: z.enum(USER_ROLES).describe("The user's role in that company."),
});
export type SignInCompany = z.output<typeof signInCompanySchema>;

/** The sign-in answer when the password is right for several companies: no session yet. */
export const signInChoiceSchema = z
  .object({
    status: z.literal("choose_company"),
    message: z.string(),
    companies: z
      .array(signInCompanySchema)
      .describe("The companies whose active account matched, by name; sign in again with `company_id`."),
    others_locked: z
      .boolean()
      .describe(
        "Other accounts with this email are locked after failed sign-ins: their passwords were not checked " +
          "and they are not listed (try again later to see them).",
      ),
  })
  .describe(
    "Choose the company: the email and password match accounts in several companies (or in one, while " +
      "other accounts with the email are locked). No session was started.",
  );
export type SignInChoice = z.output<typeof signInChoiceSchema>;

/** GET /api/auth/other-accounts: the companies that added an account with the user's email. */
export const otherAccountSchema = z.object({
  company_name: z.string(),
  added_at: z.string().describe("When that company added the account (ISO 8601)."),
});
export const otherAccountListSchema = z
  .object({
    data: z
      .array(otherAccountSchema)
      .describe("Newest first; only accounts added after the signed-in user's own account."),
  })
  .describe(
    "Other companies that hold an account with the signed-in user's email: a company's name and when " +
      "it added the account, nothing more.",
  );
export type OtherAccountList = z.output<typeof otherAccountListSchema>;

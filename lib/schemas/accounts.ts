import { z } from "zod";
import { maxChars, minChars, nonBlank } from "./text";
import { EMAIL_PATTERN } from "./upsert-fields";
import { PASSWORD_MIN_LENGTH, createUserBodySchema } from "./settings";
import { USER_ROLES } from "@/lib/values/roles";

// Invites and password resets (extensions.md E11). Tokens travel in links; only their hashes are stored.

const tokenSchema = maxChars(
  nonBlank(z.string({ error: "The link is incomplete" }).trim(), "The link is incomplete"),
  200,
).describe("The token from the link (the part after the last `/`).");

const newPasswordSchema = maxChars(
  minChars(
    z.string({ error: `Enter a password of at least ${PASSWORD_MIN_LENGTH} characters` }),
    PASSWORD_MIN_LENGTH,
    `At least ${PASSWORD_MIN_LENGTH} characters`,
  ),
  200,
  "At most 200 characters",
).describe(`The new password, at least ${PASSWORD_MIN_LENGTH} characters.`);

const emailSchema = maxChars(
  z.string({ error: "Enter a valid email address" }).trim(),
  255,
  "At most 255 characters",
)
  .regex(EMAIL_PATTERN, "Enter a valid email address")
  .meta({ format: "email" });

// ---- Invites --------------------------------------------------------------------------------

export const createInviteBodySchema = z
  .object({
    email: emailSchema.describe("Who to invite; must not be a user of the company yet (any case)."),
    role: createUserBodySchema.shape.role,
  })
  .describe("An invitation by email, with the role the person will have.");
export type CreateInviteBody = z.output<typeof createInviteBodySchema>;

export const inviteRecordSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.enum(USER_ROLES),
    status: z
      .enum(["pending", "expired"])
      .describe("`pending`: the link works; `expired`: its 7 days are over (invite again)."),
    created_at: z.string(),
    created_by: z.string().nullable().describe("The id of the admin who invited, if known."),
    expires_at: z.string().describe("When the link stops working: 7 days after the invite."),
  })
  .describe("An invite not yet accepted nor revoked (never its token or hash).");
export type InviteRecord = z.output<typeof inviteRecordSchema>;

export const inviteListSchema = z
  .object({
    data: z.array(inviteRecordSchema),
    email_configured: z
      .boolean()
      .describe(
        "Whether the server sends email (SMTP_URL). Without it, a new invite's link is answered once.",
      ),
  })
  .describe("The company's open invites, newest first.");
export type InviteList = z.output<typeof inviteListSchema>;

export const createdInviteSchema = inviteRecordSchema
  .extend({
    url: z
      .string()
      .optional()
      .describe("The one-time link, only when the server sends no email: shown this once, pass it on."),
  })
  .describe("The new invite; with `url` when no email was sent.");
export type CreatedInvite = z.output<typeof createdInviteSchema>;

export const acceptInviteBodySchema = z
  .object({
    token: tokenSchema,
    name: createUserBodySchema.shape.name,
    password: newPasswordSchema,
  })
  .describe("Accepting an invite: the link's token, the new user's name and password.");
export type AcceptInviteBody = z.output<typeof acceptInviteBodySchema>;

// ---- Password reset -------------------------------------------------------------------------

export const passwordResetRequestBodySchema = z
  .object({
    email: maxChars(nonBlank(z.string().trim(), "Enter your email"), 255).describe("The account's email."),
  })
  .describe("Asking for a password reset link by email.");
export type PasswordResetRequestBody = z.output<typeof passwordResetRequestBodySchema>;

export const passwordResetAcceptedSchema = z
  .object({ status: z.literal("accepted"), message: z.string() })
  .describe("The same answer whether or not the email has an account.");

export const passwordResetConfirmBodySchema = z
  .object({ token: tokenSchema, password: newPasswordSchema })
  .describe("Setting a new password with a reset link's token.");
export type PasswordResetConfirmBody = z.output<typeof passwordResetConfirmBodySchema>;

export const passwordResetDoneSchema = z
  .object({ status: z.literal("success"), message: z.string() })
  .describe("The password is set; every session of the account has ended.");

export const issuedPasswordResetSchema = z
  .object({
    user_id: z.string(),
    expires_at: z.string().describe("When the link stops working: 1 hour after it was issued."),
    emailed: z.boolean().describe("Whether the link was emailed to the user."),
    url: z
      .string()
      .optional()
      .describe("The one-time link, only when the server sends no email: shown this once, pass it on."),
  })
  .describe("A password reset link issued by an admin.");
export type IssuedPasswordReset = z.output<typeof issuedPasswordResetSchema>;

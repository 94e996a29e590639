import { z } from "zod";
import { maxChars, nonBlank } from "./text";
import { sessionInfoSchema } from "./session";

const totpCode = z
  .string()
  .trim()
  .regex(/^\d{3} ?\d{3}$/, "Enter the 6-digit code from your authenticator app")
  .describe("The 6-digit code the authenticator app shows now.");

/** GET /api/auth/two-factor: the signed-in user's two-factor state. */
export const twoFactorStatusSchema = z
  .object({
    enabled: z.boolean().describe("Whether sign-in asks this user for a code."),
    enabled_at: z.string().nullable().describe("When it was turned on (ISO 8601), or null."),
    recovery_codes_left: z.number().int().describe("Unused recovery codes (0 when two-factor is off)."),
    required_by_company: z
      .boolean()
      .describe("The company requires two-factor: turned off, it is set up again at the next sign-in."),
  })
  .describe("The signed-in user's two-factor sign-in.");
export type TwoFactorStatus = z.output<typeof twoFactorStatusSchema>;

/** A new authenticator: what to scan or type into the app. */
export const twoFactorSetupSchema = z
  .object({
    secret: z.string().describe("The shared secret in base32, to type into the app by hand."),
    otpauth_url: z.string().describe("The `otpauth://totp/…` address the QR code holds."),
    qr_code: z.string().describe("The QR code of `otpauth_url`, as an SVG `data:` URL."),
  })
  .describe(
    "Scan the QR code (or type the secret) in an authenticator app, then confirm with its first code.",
  );
export type TwoFactorSetup = z.output<typeof twoFactorSetupSchema>;

export const recoveryCodesSchema = z
  .array(z.string())
  .describe("Ten single-use recovery codes, shown this once: only their hashes are kept.");

export const twoFactorCodeBodySchema = z
  .object({ code: totpCode })
  .describe("A code from the authenticator app.");
export type TwoFactorCodeBody = z.output<typeof twoFactorCodeBodySchema>;

export const twoFactorEnabledSchema = z
  .object({ status: twoFactorStatusSchema, recovery_codes: recoveryCodesSchema })
  .describe("Two-factor is on; keep the recovery codes somewhere safe.");

export const recoveryCodesAnswerSchema = z
  .object({ recovery_codes: recoveryCodesSchema })
  .describe("New recovery codes; the old ones no longer work.");

/** POST /api/auth/two-factor/disable: a current code or the password proves it is the user. */
export const disableTwoFactorBodySchema = z
  .object({
    code: totpCode.optional(),
    password: maxChars(z.string().min(1, "Enter your password"), 200)
      .optional()
      .describe("The user's password, instead of a code."),
  })
  .refine((b) => (b.code === undefined) !== (b.password === undefined), {
    message: "Send a code or your password",
    path: ["code"],
  })
  .describe("Turn two-factor off: a current code or the password.");
export type DisableTwoFactorBody = z.output<typeof disableTwoFactorBodySchema>;

/** POST /api/auth/sign-in/two-factor: the second step. */
export const twoFactorSignInBodySchema = z
  .object({
    challenge: maxChars(nonBlank(z.string().trim(), "Sign in again"), 200).describe(
      "The `challenge` of the sign-in answer.",
    ),
    code: totpCode.optional(),
    recovery_code: maxChars(nonBlank(z.string().trim(), "Enter a recovery code"), 40)
      .optional()
      .describe("One of the recovery codes, instead of a code (not while setting up)."),
  })
  .refine((b) => (b.code === undefined) !== (b.recovery_code === undefined), {
    message: "Enter the code from your authenticator app or a recovery code",
    path: ["code"],
  })
  .describe("The second sign-in step: the challenge and a code (or a recovery code).");
export type TwoFactorSignInBody = z.output<typeof twoFactorSignInBodySchema>;

export const twoFactorChallengeSchema = z
  .object({
    status: z.literal("two_factor_required"),
    challenge: z.string().describe("Send it with the code to `POST /auth/sign-in/two-factor`."),
    expires_at: z.string().describe("The challenge's end (ISO 8601): 10 minutes."),
  })
  .describe("The password is right; the account asks for a code. No session yet.");

export const twoFactorSetupChallengeSchema = z
  .object({
    status: z.literal("two_factor_setup_required"),
    challenge: z.string().describe("Send it with the app's first code to `POST /auth/sign-in/two-factor`."),
    expires_at: z.string().describe("The challenge's end (ISO 8601): 10 minutes."),
    setup: twoFactorSetupSchema,
  })
  .describe("The company requires two-factor and this user has none: set it up now. No session yet.");

export const twoFactorSignInAnswerSchema = sessionInfoSchema
  .extend({
    status: z.literal("success"),
    recovery_codes: recoveryCodesSchema
      .optional()
      .describe("Only after setting two-factor up at sign-in: ten recovery codes, shown this once."),
  })
  .describe("Signed in: who, which company, and the role's scopes.");

/** GET/PUT /api/settings/two-factor: the company's requirement. */
export const companyTwoFactorSchema = z
  .object({
    require_two_factor: z
      .boolean()
      .describe("Every user must sign in with a second factor; one without is led through setup at sign-in."),
  })
  .describe("The company's two-factor rule.");
export type CompanyTwoFactor = z.output<typeof companyTwoFactorSchema>;

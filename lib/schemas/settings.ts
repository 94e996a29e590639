import { z } from "zod";
import { maxChars, minChars, nonBlank } from "./text";
import { EMAIL_PATTERN } from "./upsert-fields";
import { SCOPES } from "@/lib/values/scopes";
import { API_KEY_DAILY_LIMIT_MAX, DEFAULT_DAILY_LIMIT } from "@/lib/values/limits";
import { USER_ROLES } from "@/lib/values/roles";

// Settings endpoints (/api/settings/…): session-only, admins only. Records never carry a key
// hash or a password hash.

export const idParamsSchema = z.object({
  id: maxChars(nonBlank(z.string().trim()), 100).describe("The record's id."),
});

// ---- API keys ----------------------------------------------------------------------------

export const createApiKeyBodySchema = z
  .object({
    name: maxChars(
      nonBlank(z.string({ error: "Give the key a name" }).trim(), "Give the key a name"),
      100,
      "At most 100 characters",
    ).describe("What the key is for, e.g. “Website form”."),
    scopes: z
      .array(z.enum(SCOPES, { error: `Unknown scope; use ${SCOPES.join(", ")}` }), {
        error: "Pick at least one scope",
      })
      .min(1, "Pick at least one scope")
      .transform((scopes) => [...new Set(scopes)])
      .describe("What the key may do (GET /auth/test needs none)."),
    daily_limit: z
      .number({ error: "Enter a whole number" })
      .int("Enter a whole number")
      .min(1, "At least 1")
      .max(API_KEY_DAILY_LIMIT_MAX, `At most ${API_KEY_DAILY_LIMIT_MAX.toLocaleString("en-US")}`)
      .default(DEFAULT_DAILY_LIMIT)
      .describe(`Requests per UTC day (default ${DEFAULT_DAILY_LIMIT}).`),
  })
  .describe("A new API key.");
export type CreateApiKeyBody = z.output<typeof createApiKeyBodySchema>;

export const apiKeyRecordSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe("The key's first characters, to tell keys apart; never the whole key."),
    scopes: z.array(z.enum(SCOPES)),
    daily_limit: z.number().int(),
    used_today: z.number().int().describe("Requests counted today (UTC day)."),
    last_used_at: z.string().nullable(),
    created_at: z.string(),
    created_by: z.string().nullable().describe("The id of the user who created the key, if known."),
    expires_at: z.string().nullable(),
    revoked_at: z.string().nullable().describe("When it was revoked; null while active."),
  })
  .describe("An API key as the settings page shows it (no secret, no hash).");
export type ApiKeyRecord = z.output<typeof apiKeyRecordSchema>;

export const apiKeyListSchema = z
  .object({ data: z.array(apiKeyRecordSchema) })
  .describe("The company's API keys, newest first.");
export type ApiKeyList = z.output<typeof apiKeyListSchema>;

export const createdApiKeySchema = apiKeyRecordSchema
  .extend({
    key: z.string().describe("The secret key. Shown this once: only its hash is stored."),
  })
  .describe("The new key, with its secret (shown once).");
export type CreatedApiKey = z.output<typeof createdApiKeySchema>;

// ---- Users --------------------------------------------------------------------------------

export const PASSWORD_MIN_LENGTH = 8;

export const createUserBodySchema = z
  .object({
    name: maxChars(
      nonBlank(z.string({ error: "Enter a name" }).trim(), "Enter a name"),
      255,
      "At most 255 characters",
    ).describe("The user's full name."),
    email: maxChars(z.string({ error: "Enter a valid email address" }).trim(), 255, "At most 255 characters")
      .regex(EMAIL_PATTERN, "Enter a valid email address")
      .meta({ format: "email" })
      .describe("Sign-in email; unique within the company (any case)."),
    role: z
      .enum(USER_ROLES, { error: `Choose a role: ${USER_ROLES.join(", ")}` })
      .describe("admin, manager, sales_rep or technician."),
    password: maxChars(
      minChars(
        z.string({ error: `Enter an initial password of at least ${PASSWORD_MIN_LENGTH} characters` }),
        PASSWORD_MIN_LENGTH,
        `At least ${PASSWORD_MIN_LENGTH} characters`,
      ),
      200,
      "At most 200 characters",
    ).describe(`Initial password, at least ${PASSWORD_MIN_LENGTH} characters.`),
  })
  .describe("A new dashboard user.");
export type CreateUserBody = z.output<typeof createUserBodySchema>;

const CREATE_ONLY_FIELDS = ["name", "email", "password"] as const;
const MISSING_MESSAGES: Record<(typeof CREATE_ONLY_FIELDS)[number], string> = {
  name: "Enter a name",
  email: "Enter a valid email address",
  password: `Enter an initial password of at least ${PASSWORD_MIN_LENGTH} characters`,
};

/**
 * POST /settings/users (extensions.md E11): without `id`, adds a user (name, email, role, password);
 * with `id`, changes that user's role (and nothing else).
 */
export const userBodySchema = z
  .object({
    id: maxChars(nonBlank(z.string().trim()), 100)
      .optional()
      .describe("Change this user's role (send only `id` and `role`). Leave out to add a user."),
    name: createUserBodySchema.shape.name.optional(),
    email: createUserBodySchema.shape.email.optional(),
    role: createUserBodySchema.shape.role,
    password: createUserBodySchema.shape.password.optional(),
  })
  .superRefine((body, ctx) => {
    for (const field of CREATE_ONLY_FIELDS) {
      if (body.id === undefined && body[field] === undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: MISSING_MESSAGES[field] });
      } else if (body.id !== undefined && body[field] !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: "Only the role can be changed: leave this out",
        });
      }
    }
  })
  .describe("A new dashboard user, or a role change (`id` and `role`).");
export type UserBody = z.output<typeof userBodySchema>;

export const userRecordSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    role: z.enum(USER_ROLES),
    active: z.boolean().describe("Deactivated users cannot sign in; their sessions have ended."),
    created_at: z.string(),
  })
  .describe("A dashboard user (no password hash).");
export type UserRecord = z.output<typeof userRecordSchema>;

export const userListSchema = z
  .object({ data: z.array(userRecordSchema) })
  .describe("The company's users, by name.");
export type UserList = z.output<typeof userListSchema>;

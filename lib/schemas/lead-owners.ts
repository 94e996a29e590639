import { z } from "zod";
import { maxChars, nonBlank } from "./text";
import { USER_ROLES } from "@/lib/values/roles";
import { SHORT_TEXT_MAX } from "./upsert-fields";

/**
 * A lead's owner (extensions.md E2): a user id or null. Whether the user belongs to the company
 * is checked by lib/domain/leads/owners.ts, also as a 400 naming the field.
 */
export const assignedToInput = (description: string) =>
  maxChars(z.string().trim(), SHORT_TEXT_MAX)
    // A form clears the owner by choosing "Unassigned" (an empty value).
    .transform((value) => (value === "" ? null : value))
    .nullable()
    .optional()
    .describe(description);

/** `me` and `none` of the owner filter; never a user id (ours start with `usr_`). */
export const OWNER_ME = "me";
export const OWNER_NONE = "none";

/** `assigned_to` of GET /leads and its siblings: a user id, `none` or `me`. */
export const assignedToQuery = maxChars(
  nonBlank(z.string().trim(), "must be a user id, none or me"),
  SHORT_TEXT_MAX,
)
  .optional()
  .describe(
    "Only leads assigned to this user id; `none`: unassigned leads; `me` (dashboard sessions): " +
      "the signed-in user's leads (an API key is tied to no user: 400).",
  );

// ---------------------------------------------------------------------------------------------
// GET /api/users

export const assignableUserSchema = z
  .object({
    id: z.string().describe("The user's id: a value of a lead's assigned_to."),
    name: z.string().describe("The user's name."),
    role: z.enum(USER_ROLES).describe("The user's role."),
  })
  .describe("A user a lead can be assigned to.");
export type AssignableUser = z.output<typeof assignableUserSchema>;

export const listAssignableUsersResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z.array(assignableUserSchema).describe("The company's active users, by name (then id)."),
  })
  .describe("The users leads can be assigned to.");
export type ListAssignableUsersResponse = z.output<typeof listAssignableUsersResponseSchema>;

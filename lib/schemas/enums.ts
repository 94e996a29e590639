/**
 * Value lists shared by the database schema and the API schemas. Kept free of imports so that
 * client components validating with the API schemas do not pull the database layer into the
 * browser bundle.
 */
export const LEAD_PRIORITIES = ["low", "medium", "high"] as const;
export type LeadPriority = (typeof LEAD_PRIORITIES)[number];

export const CUSTOMER_STATUSES = ["active", "inactive"] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

/** What reaching a pipeline stage means (extensions.md E2). */
export const STAGE_KINDS = ["open", "won", "lost"] as const;
export type StageKind = (typeof STAGE_KINDS)[number];

/** The records whose story is kept (extensions.md E3): their activity entries. */
export const ACTIVITY_RECORD_TYPES = ["lead", "customer"] as const;
export type ActivityRecordType = (typeof ACTIVITY_RECORD_TYPES)[number];

export const ACTIVITY_TYPES = ["created", "updated", "archived", "unarchived", "note", "converted"] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export const ACTIVITY_ACTOR_KINDS = ["user", "api_key", "import"] as const;
export type ActivityActorKind = (typeof ACTIVITY_ACTOR_KINDS)[number];

/** A field's value as the record's API answer gives it. */
export type ActivityValue = string | number | boolean | (string | number)[] | null;

/** One changed field of an update: its name as the record's API answer spells it, before and after. */
export interface ActivityChange {
  field: string;
  from: ActivityValue;
  to: ActivityValue;
}

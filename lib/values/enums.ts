/**
 * Value lists shared by the database schema, the API schemas and the pages. Import-free (the
 * ground floor, lib/values) so the browser can use them without the database layer.
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

/** A service plan's frequency (contract section 7). */
export const PLAN_FREQUENCIES = [
  "One-Time",
  "Annual",
  "Semi-Annual",
  "Tri-Annual",
  "Quarterly",
  "Bi-Monthly",
  "Monthly",
  "Bi-Weekly",
  "Weekly",
  "Custom",
] as const;
export type PlanFrequency = (typeof PLAN_FREQUENCIES)[number];

/** A job's status, in the order of the work (the jobs' status sort follows it). */
export const JOB_STATUSES = ["Unscheduled", "Scheduled", "In Progress", "Completed", "Cancelled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const PAYMENT_TYPES = ["payment", "refund"] as const;
export const PAYMENT_STATUSES = ["succeeded", "pending", "failed"] as const;
export const PAYMENT_METHODS = ["card", "ach", "cash", "check", "other"] as const;

/** The event types an endpoint can subscribe to (extensions.md E8; the names are fixed). */
export const WEBHOOK_EVENT_TYPES = [
  "lead.created",
  "lead.updated",
  "customer.created",
  "customer.updated",
  "pin.created",
  "pin.updated",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Every type an outbox row may have: the subscribable ones and the settings' test event. */
export const WEBHOOK_OUTBOX_TYPES = [...WEBHOOK_EVENT_TYPES, "webhook.test"] as const;
export type WebhookOutboxType = (typeof WEBHOOK_OUTBOX_TYPES)[number];

/** The records whose changes are events. */
export const WEBHOOK_RECORD_TYPES = ["lead", "customer", "pin", "webhook_endpoint"] as const;
export type WebhookRecordType = (typeof WEBHOOK_RECORD_TYPES)[number];

/** A delivery's state: `failed` will be retried, `dead` was given up. */
export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed", "dead"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

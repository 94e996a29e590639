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

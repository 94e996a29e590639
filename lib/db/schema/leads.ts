import { sql, type SQL } from "drizzle-orm";
import {
  boolean,
  check,
  doublePrecision,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { companies } from "./companies";
import {
  addressColumns,
  changeFeedIndex,
  changePosition,
  createdAt,
  location,
  money,
  searchField,
  searchIndex,
  sortIndexes,
  tenantKey,
  updatedAt,
} from "./columns";
import { users } from "./users";
import type { LeadPriority } from "@/lib/values/enums";

export { LEAD_PRIORITIES, type LeadPriority } from "@/lib/values/enums";

const property = addressColumns("property");

/**
 * The fields a lead search matches (contract section 5: name, email, phone, and the phone's
 * digits), in the order of its search document (searchDocument) and its index.
 */
export function leadSearchFields(t: {
  name: AnyPgColumn;
  emailNormalized: AnyPgColumn;
  phone: AnyPgColumn;
  phoneNormalized: AnyPgColumn;
}): SQL[] {
  return [t.name, t.emailNormalized, t.phone, t.phoneNormalized].map(searchField);
}

/**
 * Sort keys of GET /leads (extensions.md E2), shared by ORDER BY and its indexes: names
 * case-insensitive, priority by rank (low < medium < high), stage as text.
 */
export function leadSortKeys(t: {
  createdAt: AnyPgColumn;
  updatedAt: AnyPgColumn;
  name: AnyPgColumn;
  stage: AnyPgColumn;
  priority: AnyPgColumn;
  projectedValue: AnyPgColumn;
  followUpDate: AnyPgColumn;
}) {
  return {
    created_at: [t.createdAt],
    updated_at: [t.updatedAt],
    name: [sql`lower(${t.name})`],
    stage: [t.stage],
    priority: [sql`(case ${t.priority} when 'low' then 1 when 'medium' then 2 when 'high' then 3 end)`],
    projected_value: [t.projectedValue],
    follow_up_date: [t.followUpDate],
  } satisfies Record<string, (AnyPgColumn | SQL)[]>;
}

export const leads = pgTable(
  "leads",
  {
    ...tenantKey(),
    name: text("name"),
    email: text("email"),
    /** lower(trim(email)), for matching on create-or-update. */
    emailNormalized: text("email_normalized"),
    phone: text("phone"),
    /** Digits of the phone, a leading US 1 of an 11-digit number dropped (lib/values/normalize.ts). */
    phoneNormalized: text("phone_normalized"),
    propertyStreet1: property.street1,
    propertyStreet2: property.street2,
    propertyCity: property.city,
    propertyState: property.state,
    propertyZip: property.zip,
    propertyCountry: property.country,
    priority: text("priority").$type<LeadPriority>(),
    projectedValue: money("projected_value"),
    valueScore: doublePrecision("value_score"),
    serviceType: text("service_type"),
    leadSource: text("lead_source"),
    stage: text("stage"),
    /** Why the lead was lost: a lost reason's label as chosen, or null. */
    lostReason: text("lost_reason"),
    tags: text("tags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    notes: text("notes"),
    followUpDate: timestamp("follow_up_date", { withTimezone: true }),
    assignedTo: text("assigned_to"),
    archived: boolean("archived").notNull().default(false),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    /** The customer the lead was converted to (POST /leads/{id}/convert, extensions.md E4). */
    customerId: text("customer_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...changePosition(),
    ...location(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    foreignKey({
      name: "leads_assigned_to_fk",
      columns: [t.companyId, t.assignedTo],
      foreignColumns: [users.companyId, users.id],
    }),
    check("leads_priority_check", sql`${t.priority} is null or ${t.priority} in ('low', 'medium', 'high')`),
    // Default list order, with and without archived leads.
    changeFeedIndex("leads_change_idx", t),
    index("leads_created_idx").on(t.companyId, t.createdAt.desc(), t.id.desc()),
    index("leads_active_created_idx")
      .on(t.companyId, t.createdAt.desc(), t.id.desc())
      .where(sql`not ${t.archived}`),
    index("leads_stage_created_idx").on(t.companyId, t.stage, t.createdAt.desc(), t.id.desc()),
    // The stage filter of the list (archived left out): page and exact count by an index-only
    // scan, not a heap scan of the tenant's leads.
    index("leads_active_stage_created_idx")
      .on(t.companyId, t.stage, t.createdAt.desc(), t.id.desc())
      .where(sql`not ${t.archived}`),
    // The owner filter (assigned_to = a user, or null: unassigned): page and exact count of a
    // rep's leads by an index range, not a walk of the tenant's leads.
    index("leads_assigned_created_idx").on(t.companyId, t.assignedTo, t.createdAt.desc(), t.id.desc()),
    index("leads_active_assigned_created_idx")
      .on(t.companyId, t.assignedTo, t.createdAt.desc(), t.id.desc())
      .where(sql`not ${t.archived}`),
    index("leads_tags_idx").using("gin", t.companyId, t.tags),
    // Matching on create-or-update.
    index("leads_phone_idx").on(t.companyId, t.phoneNormalized),
    index("leads_email_idx").on(t.companyId, t.emailNormalized),
    searchIndex("leads_search_grams_idx", t.companyId, leadSearchFields(t)),
    // The territory filter: `point(longitude, latitude) <@ polygon` within the tenant.
    index("leads_location_idx")
      .using("gist", t.companyId, sql`point(${t.longitude}, ${t.latitude})`)
      .where(sql`${t.latitude} is not null`),
    // Each sort order of the list (-created_at is leads_active_created_idx).
    ...sortIndexes("leads", t, leadSortKeys(t), {
      skip: ["-created_at"],
      covering: { name: [t.name], priority: [t.priority] },
    }),
  ],
);

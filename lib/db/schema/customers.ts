import { sql, type SQL } from "drizzle-orm";
import {
  boolean,
  check,
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
  searchField,
  searchIndex,
  sortIndexes,
  tenantKey,
  updatedAt,
} from "./columns";
import type { CustomerStatus } from "@/lib/values/enums";

export { CUSTOMER_STATUSES, type CustomerStatus } from "@/lib/values/enums";

const property = addressColumns("property");
const billing = addressColumns("billing");

/**
 * Fields a customer search matches (contract section 5), in the order of its search document:
 * `first last`, company name, email, phone and the phone's digits.
 */
export function customerSearchFields(t: {
  firstName: AnyPgColumn;
  lastName: AnyPgColumn;
  companyName: AnyPgColumn;
  emailNormalized: AnyPgColumn;
  phone: AnyPgColumn;
  phoneNormalized: AnyPgColumn;
}): SQL[] {
  return [
    sql`${searchField(t.firstName)} || ' ' || ${searchField(t.lastName)}`,
    ...[t.companyName, t.emailNormalized, t.phone, t.phoneNormalized].map(searchField),
  ];
}

/**
 * The characters of each name the name order compares: three whole names (255 characters, up to 4
 * bytes each) would overflow a btree entry (2,704 bytes) and fail the write.
 */
export const SORTED_NAME_LENGTH = 100;

/**
 * Sort keys of GET /customers (extensions.md E2), shared by ORDER BY and its indexes: the name
 * sorts by last, first, then company name, case-insensitive on SORTED_NAME_LENGTH characters.
 */
export function customerSortKeys(t: {
  createdAt: AnyPgColumn;
  updatedAt: AnyPgColumn;
  firstName: AnyPgColumn;
  lastName: AnyPgColumn;
  companyName: AnyPgColumn;
  status: AnyPgColumn;
}) {
  return {
    created_at: [t.createdAt],
    updated_at: [t.updatedAt],
    name: [t.lastName, t.firstName, t.companyName].map(
      (name) => sql`lower(left(${name}, ${sql.raw(String(SORTED_NAME_LENGTH))}))`,
    ),
    status: [t.status],
  } satisfies Record<string, (AnyPgColumn | SQL)[]>;
}

export const customers = pgTable(
  "customers",
  {
    ...tenantKey(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    companyName: text("company_name"),
    email: text("email"),
    emailNormalized: text("email_normalized"),
    phone: text("phone"),
    phoneNormalized: text("phone_normalized"),
    notes: text("notes"),
    source: text("source"),
    propertyStreet1: property.street1,
    propertyStreet2: property.street2,
    propertyCity: property.city,
    propertyState: property.state,
    propertyZip: property.zip,
    propertyCountry: property.country,
    billingStreet1: billing.street1,
    billingStreet2: billing.street2,
    billingCity: billing.city,
    billingState: billing.state,
    billingZip: billing.zip,
    billingCountry: billing.country,
    billingSameAsProperty: boolean("billing_same_as_property").notNull().default(false),
    serviceFrequency: text("service_frequency"),
    serviceType: text("service_type"),
    status: text("status").$type<CustomerStatus>().notNull().default("active"),
    tags: text("tags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    archived: boolean("archived").notNull().default(false),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    /** The lead this customer was converted from (POST /leads/{id}/convert, extensions.md E4). */
    leadId: text("lead_id"),
    isAutoPay: boolean("is_auto_pay").notNull().default(false),
    /** True when at least one saved payment method is on file (kept by the billing integration). */
    hasPaymentMethod: boolean("has_payment_method").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...changePosition(),
    ...location(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    check("customers_status_check", sql`${t.status} in ('active', 'inactive')`),
    changeFeedIndex("customers_change_idx", t),
    index("customers_created_idx").on(t.companyId, t.createdAt.desc(), t.id.desc()),
    index("customers_active_created_idx")
      .on(t.companyId, t.createdAt.desc(), t.id.desc())
      .where(sql`not ${t.archived}`),
    index("customers_status_created_idx").on(t.companyId, t.status, t.createdAt.desc(), t.id.desc()),
    // The status filter of the list (archived left out): page and exact count by an index-only
    // scan, not a sequential scan of the table.
    index("customers_active_status_created_idx")
      .on(t.companyId, t.status, t.createdAt.desc(), t.id.desc())
      .where(sql`not ${t.archived}`),
    index("customers_tags_idx").using("gin", t.companyId, t.tags),
    index("customers_phone_idx").on(t.companyId, t.phoneNormalized),
    index("customers_email_idx").on(t.companyId, t.emailNormalized),
    searchIndex("customers_search_grams_idx", t.companyId, customerSearchFields(t)),
    // Each sort order of the list (-created_at is customers_active_created_idx).
    ...sortIndexes("customers", t, customerSortKeys(t), {
      skip: ["-created_at"],
    }),
  ],
);

import { doublePrecision, numeric, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Every table is keyed by (company_id, id) so that it can be distributed by tenant (Citus):
 * each row, key and foreign key carries the tenant.
 */
export const tenantKey = () => ({
  companyId: text("company_id").notNull(),
  id: text("id").notNull(),
});

export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

/** Dollars, exact to the cent. Never a float. */
export const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: "number" });

/** [latitude, longitude] as two nullable columns (both set or both null). */
export const location = () => ({
  latitude: doublePrecision("latitude"),
  longitude: doublePrecision("longitude"),
});

export const addressColumns = <P extends string>(prefix: P) => ({
  street1: text(`${prefix}_street1`),
  street2: text(`${prefix}_street2`),
  city: text(`${prefix}_city`),
  state: text(`${prefix}_state`),
  zip: text(`${prefix}_zip`),
  country: text(`${prefix}_country`),
});

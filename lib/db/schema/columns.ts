import { sql, type SQL } from "drizzle-orm";
import { doublePrecision, index, numeric, text, timestamp, type AnyPgColumn } from "drizzle-orm/pg-core";

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

/**
 * What separates the fields of a search document (searchDocument): U+0001. A search term without
 * it cannot match across two fields, whatever the fields hold; a term with it is also checked
 * field by field (lib/domain/record-lists.ts).
 */
export const SEARCH_FIELD_SEPARATOR = "\u0001";

/** A searched field as it stands in a search document: its text, or '' for null. */
export const searchField = (value: AnyPgColumn | SQL): SQL => sql`coalesce(${value}, '')`;

/** The separator as SQL: `chr(1)`, a constant, so the planner matches the index's expression. */
const separatorSql = sql.raw(` || chr(${SEARCH_FIELD_SEPARATOR.codePointAt(0)}) || `);

/**
 * The searched fields of a row as one lower-cased text, separated by SEARCH_FIELD_SEPARATOR: one
 * trigram index over it (searchIndex) serves a search of every field with one index scan, where
 * an index per field took one scan each (bench/RESULTS.md, finding 21). The list's predicate must
 * be built by this very function, so that its expression is the index's.
 */
export function searchDocument(fields: readonly SQL[]): SQL {
  return sql`lower(${sql.join([...fields], separatorSql)})`;
}

/**
 * A table's search index: trigrams (pg_trgm) of its search document, by tenant (btree_gin), for
 * case-insensitive substring search of every searched field at once.
 */
export function searchIndex(name: string, companyId: AnyPgColumn, fields: readonly SQL[]) {
  return index(name).using("gin", companyId, sql`${searchDocument(fields)} gin_trgm_ops`);
}

import { sql, type SQL } from "drizzle-orm";
import {
  bigint,
  customType,
  doublePrecision,
  index,
  numeric,
  text,
  timestamp,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";

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

/** PostgreSQL's 64-bit transaction id, read as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

/**
 * A record's place in the change feed (extensions.md E10): the id of the transaction that last
 * wrote it, then a sequence for the order within it. An insert takes them as its defaults, an
 * update from a trigger (drizzle/0036_change_feed.sql), whatever path writes. Rows from before the
 * feed hold 0 and 0 (the oldest place; `id` breaks their ties).
 */
export const changePosition = () => ({
  changeXid: xid8("change_xid")
    .notNull()
    .default(sql`pg_current_xact_id()`),
  changeSeq: bigint("change_seq", { mode: "bigint" })
    .notNull()
    .default(sql`nextval('record_change_seq')`),
});

/**
 * The change feed's index: a walk reads the tenant's rows in change order from its cursor on.
 */
export const changeFeedIndex = (
  name: string,
  t: { companyId: AnyPgColumn; changeXid: AnyPgColumn; changeSeq: AnyPgColumn; id: AnyPgColumn },
) => index(name).on(t.companyId, t.changeXid, t.changeSeq, t.id);

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

/** The keys of the property address in a lead's and a customer's row (addressColumns("property")). */
export const PROPERTY_ADDRESS_KEYS = [
  "propertyStreet1",
  "propertyStreet2",
  "propertyCity",
  "propertyState",
  "propertyZip",
  "propertyCountry",
] as const;

/**
 * Separates the fields of a search document (U+0001), so a term without it cannot match across
 * two fields; a term with it is checked field by field (lib/domain/record-lists.ts).
 */
export const SEARCH_FIELD_SEPARATOR = "\u0001";

/** A searched field as it stands in a search document: its text, or '' for null. */
export const searchField = (value: AnyPgColumn | SQL): SQL => sql`coalesce(${value}, '')`;

/** The separator as SQL: `chr(1)`, a constant, so the planner matches the index's expression. */
const separatorSql = sql.raw(` || chr(${SEARCH_FIELD_SEPARATOR.codePointAt(0)}) || `);

/**
 * A row's searched fields as one lower-cased text, so one index serves a search of every field.
 * List predicates must be built by this function so their expression is the index's.
 */
export function searchDocument(fields: readonly SQL[]): SQL {
  return sql`lower(${sql.join([...fields], separatorSql)})`;
}

/**
 * Length of a search gram (migrations 0011, 0012): a text holds every gram of a term it contains,
 * so `grams @> term's grams` finds a superset that the LIKE on the document makes exact.
 */
export const SEARCH_GRAM_LENGTH = 3;

/** Whether a search term has grams to look up: SEARCH_GRAM_LENGTH characters or more, lower-cased. */
export const hasSearchGrams = (term: string): boolean => [...term.toLowerCase()].length >= SEARCH_GRAM_LENGTH;

/** The grams of `text` (a search document or a lower-cased term) for the tenant `companyId`. */
export const searchGrams = (companyId: AnyPgColumn | string, text: SQL | string): SQL =>
  sql`search_grams(${companyId}, ${text})`;

/**
 * The search index's expression: a row's document grams in its tenant. Searches build their
 * predicate with this function so the planner matches it to the index.
 */
export const documentGrams = (companyId: AnyPgColumn, fields: readonly SQL[]): SQL =>
  searchGrams(companyId, searchDocument(fields));

/**
 * A GIN index of document grams keyed by tenant, so a search reads only its own tenant's postings
 * (a trigram index by tenant read every row's company_id entry).
 */
export function searchIndex(name: string, companyId: AnyPgColumn, fields: readonly SQL[]) {
  return index(name).using("gin", documentGrams(companyId, fields));
}

/**
 * Indexes for a list's sort orders (extensions.md E2), spelled as listOrder spells them. `skip`:
 * orders served elsewhere; `covering`: columns after `id` for index-only deep pages; `listed`: filter.
 */
export function sortIndexes(
  table: string,
  t: { companyId: AnyPgColumn; id: AnyPgColumn; archived: AnyPgColumn },
  sorts: Record<string, readonly (AnyPgColumn | SQL)[]>,
  options: {
    skip?: readonly string[];
    covering?: Record<string, readonly AnyPgColumn[]>;
    listed?: { name: string; where: SQL };
  } = {},
) {
  const listed = options.listed ?? { name: "active", where: sql`not ${t.archived}` };
  return Object.entries(sorts).flatMap(([field, keys]) =>
    (["asc", "desc"] as const)
      .filter((direction) => !options.skip?.includes(`${direction === "desc" ? "-" : ""}${field}`))
      .map((direction) =>
        index(`${table}_${listed.name}_${field}_${direction}_idx`)
          .on(
            t.companyId,
            ...keys.map((key) => sql`${key} ${sql.raw(direction)} nulls last`),
            sql`${t.id} desc nulls last`,
            ...(options.covering?.[field] ?? []),
          )
          .where(listed.where),
      ),
  );
}

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
 * index over it (searchIndex) serves a search of every field with one index scan, where an index
 * per field takes one scan each. The list's predicate must be built
 * by this very function, so that its expression is the index's.
 */
export function searchDocument(fields: readonly SQL[]): SQL {
  return sql`lower(${sql.join([...fields], separatorSql)})`;
}

/**
 * How many characters a search gram holds: `search_grams(tenant, text)` (migrations 0011, 0012) is the
 * set of every run of this many characters of the text, each hashed with the tenant into a
 * bigint. A text that contains a term holds every gram of the term, so `grams @> term's grams`
 * finds a superset of the matches, which the LIKE on the document then makes exact.
 */
export const SEARCH_GRAM_LENGTH = 3;

/** Whether a search term has grams to look up: SEARCH_GRAM_LENGTH characters or more, lower-cased. */
export const hasSearchGrams = (term: string): boolean => [...term.toLowerCase()].length >= SEARCH_GRAM_LENGTH;

/** The grams of `text` (a search document or a lower-cased term) for the tenant `companyId`. */
export const searchGrams = (companyId: AnyPgColumn | string, text: SQL | string): SQL =>
  sql`search_grams(${companyId}, ${text})`;

/**
 * The grams of a row's search document in the row's tenant: the search index's expression
 * (searchIndex). A search's predicate is built by this very function, so that the planner matches
 * it to the index.
 */
export const documentGrams = (companyId: AnyPgColumn, fields: readonly SQL[]): SQL =>
  searchGrams(companyId, searchDocument(fields));

/**
 * A table's search index: the grams of its search document, by tenant (documentGrams), in a GIN
 * index. A term's grams are keys of its own tenant only, so a search reads the postings of its
 * grams in that tenant and nothing else: a trigram index by tenant (pg_trgm with btree_gin) read
 * the tenant's whole entry of company_id on every search, a posting per row of the tenant.
 */
export function searchIndex(name: string, companyId: AnyPgColumn, fields: readonly SQL[]) {
  return index(name).using("gin", documentGrams(companyId, fields));
}

/**
 * The indexes of a list's sort orders (extensions.md E2) under its default filter (`not archived`):
 * for each field's keys, one ascending and one descending, each `nulls last` and then `id desc`, as
 * the list orders (lib/domain/lists/newest-list.ts, listOrder). A key is written as the list's
 * query writes it (a column, or the same expression), so the planner reads the page from the index
 * instead of sorting the tenant's rows. `skip` names orders another index already serves;
 * `covering` the columns of a field's expressions, appended after `id` (which is unique, so the
 * order is the same) so that a deep page skips rows by the index alone (an index-only scan needs
 * the columns, not just the expression). `listed` replaces the default filter where a list has
 * another (jobs: never quotes nor archived), with the name it gives the indexes.
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

import { and, eq, inArray, sql, type AnyColumn, type SQL, type SQLWrapper } from "drizzle-orm";
import type { AnyPgColumn, AnyPgTable, PgTable, SelectedFieldsFlat } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/lib/db/client";
import { hasSearchGrams } from "@/lib/db/schema/columns";
import { pageAndTotal, type CountQuery, type ListTotal } from "@/lib/domain/list-page";
import { pageOffset } from "@/lib/schemas/common";

/**
 * The list query engine of leads and customers: a page of a tenant's records newest first, a deep
 * page in two steps, and the page and total of a search in one statement.
 */

/** A tenant table listed newest first (leads, customers). */
export type NewestListTable = AnyPgTable & {
  companyId: AnyPgColumn;
  id: AnyPgColumn;
  createdAt: AnyPgColumn;
};

/** What a list selects: its table, and its record's fields (recordFields), each page row of type R. */
export interface NewestListing<R extends object, T extends NewestListTable = NewestListTable> {
  table: T;
  fields: SelectedFieldsFlat;
  /** Only carries the row type. */
  readonly row?: R;
}

/**
 * `created_at desc, id desc` spelled as the indexes are built (`desc nulls last`; drizzle's
 * `.desc()` in an index definition). A bare `desc` means `nulls first` in PostgreSQL, which the
 * planner cannot serve from those indexes, so it would sort the whole tenant instead. Both
 * columns are NOT NULL, so the order is the same.
 */
export function newestFirst(createdAt: AnyColumn | SQL, id: AnyColumn | SQL): SQL[] {
  return [sql`${createdAt} desc nulls last`, sql`${id} desc nulls last`];
}

/** One key of a list's order: a column or expression, ascending or descending, empty values last. */
export interface ListOrderKey {
  key: AnyColumn | SQL;
  descending: boolean;
}

/**
 * A list's ORDER BY: its keys, each `nulls last` (extensions.md E2), then `id desc`, the
 * tie-break that keeps pages from repeating or skipping a record. Spelled as the sort indexes are
 * built (lib/db/schema/leads.ts, customers.ts: drizzle's `.desc()` is `desc nulls last`, an
 * ascending key's default is `nulls last`), so that the planner reads a page from them.
 */
export function listOrder(keys: readonly ListOrderKey[], id: AnyColumn | SQL): SQL[] {
  return [
    ...keys.map(({ key, descending }) => sql`${key} ${sql.raw(descending ? "desc" : "asc")} nulls last`),
    sql`${id} desc nulls last`,
  ];
}

/**
 * From this many skipped rows on, a list page is read in two steps (newestPage): below it one index
 * scan is cheaper, above it skipping rows in the index alone wins.
 */
export const DEFERRED_PAGE_OFFSET = 2000;

type Window = { limit: number; offset: number };

/**
 * A page of the listing's rows matching `where`, newest first, each with the list's kept total when
 * there is one (a field of the page's statement; pageAndTotal reads it from the first row). A deep
 * page (DEFERRED_PAGE_OFFSET) is a "deferred join": the page's ids first, from the list's index
 * alone (an index-only scan passes over the earlier pages without reading their rows), then those
 * rows by primary key.
 */
function newestPage<R extends object>(
  db: DbOrTx,
  listing: NewestListing<R>,
  companyId: string,
  where: SQL,
  window: Window,
  total: ListTotal,
  keys: readonly ListOrderKey[],
): SQLWrapper & PromiseLike<R[]> {
  const table = listing.table as NewestListTable & PgTable;
  const order = listOrder(keys, table.id);
  const fields =
    "kept" in total ? { ...listing.fields, total: sql`${total.kept}`.as("total") } : listing.fields;
  const rows = db.select(fields).from(table);
  if (window.offset < DEFERRED_PAGE_OFFSET) {
    return rows
      .where(where)
      .orderBy(...order)
      .limit(window.limit)
      .offset(window.offset) as unknown as SQLWrapper & PromiseLike<R[]>;
  }
  const pageIds = db
    .select({ id: table.id })
    .from(table)
    .where(where)
    .orderBy(...order)
    .limit(window.limit)
    .offset(window.offset);
  return rows
    .where(and(eq(table.companyId, companyId), inArray(table.id, pageIds)))
    .orderBy(...order) as unknown as SQLWrapper & PromiseLike<R[]>;
}

/**
 * The statements of a list request on the listing's table, newest first: with a search of grams
 * (sharesMatches), the page and the total in one statement (newestMatches); otherwise the page
 * (newestPage) and `total()`, the list's own total: its counters, read by the page's statement,
 * or a count(*) of the matches of a term under a gram beside it (lib/domain/list-page.ts).
 */
export function newestList<R extends object>(
  db: DbOrTx,
  listing: NewestListing<R>,
  companyId: string,
  where: SQL,
  request: { page: bigint; limit: number; search?: string; order?: readonly ListOrderKey[] },
  total: () => ListQueryTotal,
): ListQueries<R> {
  const window = { limit: request.limit, offset: pageOffset(request) };
  const table = listing.table as NewestListTable;
  const keys = request.order ?? [{ key: table.createdAt, descending: true }];
  if (sharesMatches(request.search)) {
    return { matches: newestMatches(db, listing, companyId, where, window, keys) };
  }
  const listTotal = total();
  return { page: newestPage(db, listing, companyId, where, window, listTotal, keys), total: listTotal };
}

/**
 * Whether a search reads its page and total in one statement (newestMatches): a term with grams to
 * look up in the search index (hasSearchGrams). The planner cannot tell how many rows hold a
 * term's grams, so it reads every match for the page and sorts them: counting them apart would
 * find the same matches again. A term under a gram has no index to read: its page walks the
 * created_at index until it is full, and finding every match for it would cost more.
 */
function sharesMatches(search: string | undefined): boolean {
  return search !== undefined && hasSearchGrams(search);
}

/** One row of newestMatches: the number of all matches, and a page row (its fields null when the page is empty). */
type MatchRow<R> = R & { total: unknown };

/**
 * A page of the listing's rows matching `where`, newest first, and the number of all matches, in
 * one statement that finds the matches once: their keys (the CTE `matched`, read twice, so
 * PostgreSQL keeps it), counted, and the page's rows then fetched by key. An empty page is one row
 * with the total and null fields.
 */
function newestMatches<R extends object>(
  db: DbOrTx,
  listing: NewestListing<R>,
  companyId: string,
  where: SQL,
  window: Window,
  keys: readonly ListOrderKey[],
): SQLWrapper & PromiseLike<MatchRow<R>[]> {
  const table = listing.table as NewestListTable & PgTable;
  // Each match's id and order keys (k0, k1, …), so the page is ordered without reading its rows.
  const keyOf = (from: object, i: number) => (from as Record<string, SQL.Aliased>)[`k${i}`] as SQL.Aliased;
  const keyFields = (from: object) => Object.fromEntries(keys.map((_, i) => [`k${i}`, keyOf(from, i)]));
  const keysOf = (from: object) => keys.map((key, i) => ({ ...key, key: keyOf(from, i) as unknown as SQL }));
  const matched = db.$with("matched").as(
    db
      .select({
        id: table.id,
        ...Object.fromEntries(keys.map(({ key }, i) => [`k${i}`, sql`${key}`.as(`k${i}`)])),
      })
      .from(table)
      .where(where),
  );
  const counted = db
    .$with("counted")
    .as(db.select({ total: sql<number>`count(*)::int`.as("total") }).from(matched));
  const page = db.$with("page").as(
    db
      .select({ id: matched.id, ...keyFields(matched) })
      .from(matched)
      .orderBy(...listOrder(keysOf(matched), matched.id))
      .limit(window.limit)
      .offset(window.offset),
  );
  return db
    .with(matched, counted, page)
    .select({ ...listing.fields, total: counted.total })
    .from(counted)
    .leftJoin(page, sql`true`)
    .leftJoin(table, and(eq(table.companyId, companyId), eq(table.id, page.id)))
    .orderBy(...listOrder(keysOf(page), page.id)) as unknown as SQLWrapper & PromiseLike<MatchRow<R>[]>;
}

/** A lead or customer list's total, kept or counted, each a query whose plan a test can check. */
export type ListQueryTotal = ListTotal<CountQuery>;

/**
 * The statements of a list request: a page and its total (read by the page's statement from the
 * counters, or counted beside it), or the page and the total in one statement that finds the
 * matches once (newestMatches, a search of grams).
 */
export type ListQueries<R> =
  | { page: SQLWrapper & PromiseLike<R[]>; total: ListQueryTotal }
  | { matches: SQLWrapper & PromiseLike<MatchRow<R>[]> };

/** Runs a list request's statements: its page's rows and the total of its matches. */
export async function listRows<R extends object>(
  queries: ListQueries<R>,
): Promise<{ rows: R[]; total: number }> {
  if ("matches" in queries) {
    const found = await queries.matches;
    const rows = found.filter((row) => (row as { id?: unknown }).id != null);
    return { rows, total: Number(found[0]?.total ?? 0) };
  }
  return pageAndTotal(queries.page, queries.total);
}

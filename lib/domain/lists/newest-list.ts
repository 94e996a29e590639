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

/**
 * From this many skipped rows on, a list page is read in two steps (newestPage): below it one index
 * scan is cheaper, above it skipping rows in the index alone wins.
 */
export const DEFERRED_PAGE_OFFSET = 2000;

type Window = { limit: number; offset: number };

/**
 * A page's offset for Drizzle's `.offset()`, which takes a JS number. No table holds 2^53 rows, so
 * a larger offset is clamped to one that leaves the page just as empty and stays an exact integer.
 */
function windowOffset(request: { page: number; limit: number }): number {
  const offset = pageOffset(request);
  return Number(offset > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(Number.MAX_SAFE_INTEGER) : offset);
}

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
): SQLWrapper & PromiseLike<R[]> {
  const table = listing.table as NewestListTable & PgTable;
  const order = newestFirst(table.createdAt, table.id);
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
  request: { page: number; limit: number; search?: string },
  total: () => ListQueryTotal,
): ListQueries<R> {
  const window = { limit: request.limit, offset: windowOffset(request) };
  if (sharesMatches(request.search)) {
    return { matches: newestMatches(db, listing, companyId, where, window) };
  }
  const listTotal = total();
  return { page: newestPage(db, listing, companyId, where, window, listTotal), total: listTotal };
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
): SQLWrapper & PromiseLike<MatchRow<R>[]> {
  const table = listing.table as NewestListTable & PgTable;
  const matched = db
    .$with("matched")
    .as(db.select({ id: table.id, createdAt: table.createdAt }).from(table).where(where));
  const counted = db
    .$with("counted")
    .as(db.select({ total: sql<number>`count(*)::int`.as("total") }).from(matched));
  const page = db.$with("page").as(
    db
      .select({ id: matched.id, createdAt: matched.createdAt })
      .from(matched)
      .orderBy(...newestFirst(matched.createdAt, matched.id))
      .limit(window.limit)
      .offset(window.offset),
  );
  return db
    .with(matched, counted, page)
    .select({ ...listing.fields, total: counted.total })
    .from(counted)
    .leftJoin(page, sql`true`)
    .leftJoin(table, and(eq(table.companyId, companyId), eq(table.id, page.id)))
    .orderBy(...newestFirst(page.createdAt, page.id)) as unknown as SQLWrapper & PromiseLike<MatchRow<R>[]>;
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

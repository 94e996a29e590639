import "server-only";
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
 * `created_at desc, id desc` spelled `desc nulls last` as the indexes are built: bare `desc`
 * means `nulls first`, which the indexes cannot serve (both columns are NOT NULL anyway).
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
 * A list's ORDER BY: its keys `nulls last` (extensions.md E2), then `id desc` so pages never repeat
 * or skip a record. Spelled as the sort indexes are built so the planner reads pages from them.
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
 * A newest-first page, each row carrying the kept total if any. A deep page reads its ids from
 * the index alone first (a deferred join), then fetches those rows by primary key.
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
 * A list request's statements, newest first: a gram search gets page and total in one statement
 * (newestMatches); otherwise the page plus its kept total or a count beside it.
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
 * Whether a search reads page and total in one statement: with grams, the planner reads every
 * match anyway, so counting apart would find them twice; a shorter term has no index to share.
 */
function sharesMatches(search: string | undefined): boolean {
  return search !== undefined && hasSearchGrams(search);
}

/** One row of newestMatches: the number of all matches, and a page row (its fields null when the page is empty). */
type MatchRow<R> = R & { total: unknown };

/**
 * A newest-first page and the match count in one statement that finds matches once (a CTE read
 * twice). An empty page is one row with the total and null fields.
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
 * A list request's statements: a page with its total (kept or counted beside it), or both in one
 * statement (newestMatches, a gram search).
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

import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { toNumber } from "@/lib/domain/reports/sql";

/**
 * A list's total (exact), in one of two ways:
 * - `kept`: read from the kept counters (lib/domain/list-counts.ts), a few rows (a job list's
 *   service-date range adds a count of at most a day's jobs at each end). It is read by the
 *   page's own statement, a scalar subquery that PostgreSQL runs once (totalColumn): the list is
 *   then one statement, not two.
 * - `counted`: a count of the matching rows, which can take as long as the page; it runs beside
 *   the page, on a second connection.
 */
export type ListTotal<Counted extends PromiseLike<{ total: unknown }[]> = PromiseLike<{ total: unknown }[]>> =
  { kept: CountQuery } | { counted: Counted };

/** A count as a query: its statement can be embedded (and explained) as well as run. */
export type CountQuery = SQLWrapper & PromiseLike<{ total: unknown }[]>;

/**
 * A kept total written as raw SQL (a statement of one row, `total`): embedded in the page's
 * statement like a query builder's, run alone on `db` for an empty page.
 */
export function keptCount(db: DbOrTx, statement: SQL): CountQuery {
  return {
    getSQL: () => statement,
    then: (fulfilled, rejected) =>
      db
        .execute<{ total: unknown }>(statement)
        .then((result) => result.rows)
        .then(fulfilled, rejected),
  };
}

/** The select-list column that carries a kept total into the page's statement (`, (…) as total`), or nothing. */
export function totalColumn(total: ListTotal | undefined): SQL {
  return total && "kept" in total ? sql`, (${total.kept}) as total` : sql``;
}

/**
 * A list's page and its total. With a kept total, the page's rows carry it (totalColumn); a page
 * without rows (past the last one, or nothing matches) carries none, and the counters are then
 * read on their own. With a counted total, the page and the count run at the same time.
 */
export async function pageAndTotal<R extends object>(
  page: PromiseLike<R[]>,
  total: ListTotal,
): Promise<{ rows: R[]; total: number }> {
  if ("kept" in total) {
    const rows = await page;
    const [first] = rows.length > 0 ? (rows as { total?: unknown }[]) : await total.kept;
    return { rows, total: toNumber(first?.total) };
  }
  const [rows, [counted]] = await Promise.all([page, total.counted]);
  return { rows, total: toNumber(counted?.total) };
}

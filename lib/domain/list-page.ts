import "server-only";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { toNumber } from "@/lib/domain/reports/sql";

/**
 * A list's exact total: `kept` reads the counters inside the page's own statement (one statement,
 * not two); `counted` counts matching rows beside the page on a second connection.
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
 * A list's page and total. A kept total rides on the page's rows, so an empty page reads the
 * counters on their own; a counted total runs alongside the page.
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

import { sql, type SQL } from "drizzle-orm";
import { expect } from "vitest";
import { type Db } from "@/lib/db/client";

type Statement = { getSQL(): SQL };

/**
 * As leadListQueries and customerListQueries return them: a page and its total (kept by the counters or
 * counted beside it), or for a search of grams page and total in one statement.
 */
type ListQueries =
  { page: Statement; total: { kept: Statement } | { counted: Statement } } | { matches: Statement };

/** What the plans of one list query must show. */
export interface ListPlanExpectation {
  /** Text the page's plan holds (an index name, or a node and its index). */
  page?: string;
  /**
   * Indexes the count's plan uses; with a search of grams or a kept total, each as many times as listed
   * (twice: two scans of one index, one per alternative of the predicate).
   */
  count?: string[];
  /** The page may sort (filters no created_at index serves); otherwise no Sort at all. */
  sorted?: true;
  /**
   * A deep page (newestPage): the ids from `<table>_active_created_idx` (or the named index of its
   * sort order) alone, then the rows by key.
   */
  deferred?: true | string;
}

/**
 * A Seq Scan left means no index fits the predicate; a Sort under the page means the order misses the
 * created_at indexes. Either would be slow on a large tenant.
 */
export async function expectListPlans(
  db: Db,
  table: string,
  queriesFor: (db: Db, query: Record<string, string>) => ListQueries,
  cases: [Record<string, string>, ListPlanExpectation][],
): Promise<void> {
  const plansFor = async (query: Record<string, string>) => {
    const queries = queriesFor(db, query);
    if ("matches" in queries) {
      const [plan = ""] = await pricedPlans(db, [queries.matches.getSQL()]);
      return { page: plan, count: plan, single: true };
    }
    const { total } = queries;
    if ("kept" in total) {
      // The page's statement reads the counters; they are read alone for an empty page.
      const [plan = "", alone = ""] = await pricedPlans(db, [queries.page.getSQL(), total.kept.getSQL()]);
      expect(alone).not.toContain("Seq Scan");
      return { page: plan, count: plan, single: true };
    }
    const [page = "", count = ""] = await pricedPlans(db, [queries.page.getSQL(), total.counted.getSQL()]);
    return { page, count, single: false };
  };
  for (const [query, expected] of cases) {
    const name = JSON.stringify(query);
    const plans = await plansFor(query);
    expect(plans.page, name).not.toContain("Seq Scan");
    expect(plans.count, name).not.toContain("Seq Scan");
    if (expected.page) expect(plans.page, name).toContain(expected.page);
    if (expected.deferred) {
      expect(plans.page, name).toContain(`${table}_company_id_id_pk`);
      // The skipped rows come in index order, unsorted: the page's limit reads the scan itself
      // (the page's own rows may be sorted again, by key and for the answer: 100 rows).
      expect(plans.page, name).toMatch(
        new RegExp(
          `Limit[^\\n]*\\n\\s*->\\s+Index Only Scan using ${expected.deferred === true ? `${table}_active_created_idx` : expected.deferred}\\b`,
        ),
      );
    } else if (!expected.sorted) expect(plans.page, name).not.toMatch(/\bSort\b/);
    const listed = expected.count ?? [];
    for (const index of new Set(listed)) {
      expect(plans.count, name).toContain(index);
      // Page and total in one statement: the matches (newestMatches) or the counters are read once.
      const times = listed.filter((i) => i === index).length;
      if (plans.single)
        expect(plans.count.split(index).length - 1, `${name}: ${index} × ${times}`).toBe(times);
    }
  }
}

/**
 * EXPLAINs with sequential scans priced out and rows priced high, so the most selective index wins on a
 * test-sized table as on a large one; the settings end with the transaction.
 */
export function pricedPlans(db: Db, statements: SQL[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local cpu_tuple_cost = 1`);
    await tx.execute(sql`set local cpu_index_tuple_cost = 1`);
    const plans: string[] = [];
    for (const statement of statements) {
      const rows = (await tx.execute<{ "QUERY PLAN": string }>(sql`explain ${statement}`)).rows;
      plans.push(rows.map((r) => r["QUERY PLAN"]).join("\n"));
    }
    return plans;
  });
}

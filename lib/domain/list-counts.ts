import { and, eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { listCounts, type ListCountEntity } from "@/lib/db/schema";

/**
 * Exact list totals from the counters of list_counts (lib/db/schema/list-counts.ts, kept by the
 * triggers of drizzle/0006_list_counts.sql). A list whose request filters only by the columns
 * the counters are kept by reads its total here: sum(n) over a few rows of the tenant, instead
 * of count(*) over up to every row of the tenant (bench/RESULTS.md, finding 1). Other filters
 * (search, tags, date ranges, seller, creator) still count the matching rows.
 *
 * The dimensions, as the triggers fill them (undefined: any value):
 * - leads: flag = archived, key1 = stage
 * - customers: flag = archived, key1 = status
 * - service_plans: flag = active, key1 = frequency, key2 = service_type
 * - jobs (never quotes nor archived ones): key1 = status
 * - pins: key1 = pin_type_id
 */
export interface ListCountFilter {
  companyId: string;
  entity: ListCountEntity;
  flag?: boolean;
  key1?: string;
  key2?: string;
}

/** The total of the rows matching the filter: `{ total }` in one row, like the counts it replaces. */
export function listCountTotal(db: DbOrTx, filter: ListCountFilter) {
  return db
    .select({ total: sql<number>`coalesce(sum(${listCounts.n}), 0)::int` })
    .from(listCounts)
    .where(listCountWhere(filter));
}

function listCountWhere(filter: ListCountFilter): SQL {
  return and(
    eq(listCounts.companyId, filter.companyId),
    eq(listCounts.entity, filter.entity),
    filter.flag === undefined ? undefined : eq(listCounts.flag, filter.flag),
    filter.key1 === undefined ? undefined : eq(listCounts.key1, filter.key1),
    filter.key2 === undefined ? undefined : eq(listCounts.key2, filter.key2),
  ) as SQL;
}

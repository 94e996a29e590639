import "server-only";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { leads, listCounts } from "@/lib/db/schema";
import { textArray } from "@/lib/domain/lists/sql-fragments";
import { toNumber } from "@/lib/domain/reports/sql";
import { cents } from "@/lib/schemas/common";
import type { GetLeadStageTotalsQuery, LeadStageTotal, LeadStageTotalsResponse } from "@/lib/schemas/leads";
import type { LeadReadContext } from "./lead-record";
import { leadFilter, withTerritoryResolved, type TerritoryResolved } from "./list-leads";
import { withOwnerResolved } from "./owners";

/**
 * GET /leads/stage-totals: per-stage counts and projected-value sums, exact, in one statement.
 * Archived, stage and tag filters read the kept sums (0019); any other filter groups the matches.
 */
export async function leadStageTotals({
  ctx,
  input,
}: {
  ctx: LeadReadContext;
  input: GetLeadStageTotalsQuery;
}): Promise<LeadStageTotalsResponse> {
  const filters = await withTerritoryResolved(ctx, withOwnerResolved(ctx, input));
  const query = stageTotalsFromCounters(filters)
    ? keptStageTotals(ctx.companyId, filters)
    : countedStageTotals(ctx.companyId, filters);
  const rows = (await ctx.db.execute<StageTotalRow>(query)).rows;
  return stageTotalsResponse(rows);
}

/** The filters the counters are kept by: archived (flag), stage (key1, or key2 of a tag set) and tags. */
const KEPT_FILTERS: ReadonlySet<string> = new Set(["archived", "stage", "tags"]);

const isSet = (value: unknown) =>
  value !== undefined && value !== null && value !== "" && !(Array.isArray(value) && value.length === 0);

/**
 * Whether the request filters by the counters' dimensions alone. Any other filter that is set
 * (a search, or one the list gains later) is answered by counting the leads.
 */
export function stageTotalsFromCounters(input: GetLeadStageTotalsQuery): boolean {
  return Object.entries(input).every(([name, value]) => KEPT_FILTERS.has(name) || !isSet(value));
}

/** A row of either statement: a stage's totals (total = 0) or all of them (total = 1). */
interface StageTotalRow extends Record<string, unknown> {
  stage: string | null;
  count: number | string;
  projected_value: number | string | null;
  total: number | string;
}

/** sum(n) and sum(amount) of the tenant's counter rows, per stage and in all. */
function keptStageTotals(companyId: string, input: GetLeadStageTotalsQuery): SQL {
  const tags = input.tags && input.tags.length > 0 ? input.tags : undefined;
  // The tag sets' rows hold the stage in key2 (key1 is the set); the leads' rows in key1.
  const stage = tags ? listCounts.key2 : listCounts.key1;
  const where = and(
    eq(listCounts.companyId, companyId),
    eq(listCounts.entity, tags ? "lead_tags" : "leads"),
    input.archived ? undefined : eq(listCounts.flag, false),
    input.stage ? eq(stage, input.stage) : undefined,
    tags ? sql`${listCounts.key1}::text[] && ${textArray(tags)}` : undefined,
  );
  return sql`select ${stage} as stage, sum(${listCounts.n})::int as count,
      coalesce(sum(${listCounts.amount}), 0)::float8 as projected_value, grouping(${stage})::int as total
    from ${listCounts} where ${where}
    group by grouping sets ((${stage}), ()) having sum(${listCounts.n}) <> 0`;
}

/** count(*) and sum(projected_value) of the matching leads, per stage and in all. */
function countedStageTotals(companyId: string, input: GetLeadStageTotalsQuery & TerritoryResolved): SQL {
  return sql`select ${leads.stage} as stage, count(*)::int as count,
      coalesce(sum(${leads.projectedValue}), 0)::float8 as projected_value, grouping(${leads.stage})::int as total
    from ${leads} where ${leadFilter(companyId, input)}
    group by grouping sets ((${leads.stage}), ())`;
}

/** Stages in text order, no stage last. */
const byStage = (a: LeadStageTotal, b: LeadStageTotal) =>
  a.stage === b.stage ? 0 : a.stage === null ? 1 : b.stage === null ? -1 : a.stage < b.stage ? -1 : 1;

/** The answer from the statement's rows (no total row: nothing matched). */
export function stageTotalsResponse(rows: StageTotalRow[]): LeadStageTotalsResponse {
  const totalsOf = (row: StageTotalRow | undefined) => ({
    count: toNumber(row?.count),
    projected_value: cents(toNumber(row?.projected_value)),
  });
  return {
    status: "success",
    data: rows
      .filter((row) => toNumber(row.total) === 0)
      .map((row) => ({ stage: row.stage ?? null, ...totalsOf(row) }))
      .sort(byStage),
    totals: totalsOf(rows.find((row) => toNumber(row.total) === 1)),
  };
}

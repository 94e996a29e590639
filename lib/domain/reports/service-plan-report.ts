import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { PLAN_FREQUENCIES, type PlanFrequency } from "@/lib/db/schema/service-plans";
import { cents } from "@/lib/schemas/common";
import type {
  GetServicePlanReportQuery,
  ServicePlanReport,
  ServicePlanReportResponse,
} from "@/lib/schemas/reports";
import { planFilterSql } from "@/lib/domain/service-plans/filters";
import { planNumbersSql } from "@/lib/domain/service-plans/numbers";
import { toNumber } from "./sql";

interface GroupRow extends Record<string, unknown> {
  /** grouping(frequency, service type or "", sold_by): 7 the whole set, 3 by frequency, 5 by type, 6 by seller. */
  grouping: number;
  frequency: PlanFrequency | null;
  service_type: string | null;
  sold_by: string | null;
  sold_by_name: string | null;
  sold_by_email: string | null;
  plan_count: number | string;
  sale_value: number | string | null;
  total_received: number | string | null;
  num_completed_jobs: number | string | null;
  num_scheduled_jobs: number | string | null;
  num_pending_jobs: number | string | null;
}

type PlanTotals = Omit<ServicePlanReport, "by_frequency" | "by_service_type" | "by_sales_rep">;

/** received / sale value, 4 decimals; 0 when there is no sale value. */
export function collectionRate(received: number, saleValue: number): number {
  return saleValue > 0 ? Math.round((received / saleValue) * 10_000) / 10_000 : 0;
}

function totals(row: GroupRow | undefined): PlanTotals {
  const saleValue = cents(toNumber(row?.sale_value));
  const received = cents(toNumber(row?.total_received));
  return {
    plan_count: toNumber(row?.plan_count),
    sale_value: saleValue,
    total_received: received,
    collection_rate: collectionRate(received, saleValue),
    num_completed_jobs: toNumber(row?.num_completed_jobs),
    num_scheduled_jobs: toNumber(row?.num_scheduled_jobs),
    num_pending_jobs: toNumber(row?.num_pending_jobs),
  };
}

/**
 * The plan report: plan numbers summed over matching plans and by frequency, service type and
 * seller, as grouping sets over numbers kept on the plan rows, so it reads one row per plan.
 */
function servicePlanReportSql(companyId: string, input: GetServicePlanReportQuery): SQL {
  return sql`with groups as (
      select grouping(p.frequency, coalesce(p.service_type, ''), p.sold_by) as grouping,
        p.frequency, coalesce(p.service_type, '') as service_type, p.sold_by,
        count(*) as plan_count,
        sum(p.sale_value) as sale_value,
        sum(p.total_received) as total_received,
        sum(p.num_completed_jobs) as num_completed_jobs,
        sum(p.num_scheduled_jobs) as num_scheduled_jobs,
        sum(p.num_pending_jobs) as num_pending_jobs
      from (
        select p.frequency, p.service_type, p.sold_by, ${planNumbersSql("p")}
        from service_plans p
        where ${planFilterSql(companyId, input)}
      ) p
      group by grouping sets ((), (p.frequency), (coalesce(p.service_type, '')), (p.sold_by))
    )
    select g.grouping::int as grouping, g.frequency, g.service_type, g.sold_by,
      u.name as sold_by_name, u.email as sold_by_email,
      g.plan_count::int as plan_count, g.sale_value::float8 as sale_value,
      g.total_received::float8 as total_received,
      g.num_completed_jobs::float8 as num_completed_jobs, g.num_scheduled_jobs::float8 as num_scheduled_jobs,
      g.num_pending_jobs::float8 as num_pending_jobs
    from groups g
    left join users u on u.company_id = ${companyId} and u.id = g.sold_by`;
}

/**
 * GET /reports/service-plans. Runs outside queryReportRows' transaction: its hashed groups are
 * few, so the default `work_mem` holds them and the extra round trips would gain nothing.
 */
export async function getServicePlanReport({
  ctx,
  input,
}: {
  ctx: Pick<DomainContext, "db" | "companyId">;
  input: GetServicePlanReportQuery;
}): Promise<ServicePlanReportResponse> {
  return assemblePlanReport(
    (await ctx.db.execute<GroupRow>(servicePlanReportSql(ctx.companyId, input))).rows,
  );
}

/** The report from servicePlanReportSql's rows. */
function assemblePlanReport(rows: GroupRow[]): ServicePlanReportResponse {
  const of = (grouping: number) => rows.filter((r) => toNumber(r.grouping) === grouping);
  const byFrequency = of(3)
    .map((r) => ({ frequency: r.frequency as PlanFrequency, ...totals(r) }))
    .sort((a, b) => PLAN_FREQUENCIES.indexOf(a.frequency) - PLAN_FREQUENCIES.indexOf(b.frequency));
  const byServiceType = of(5)
    .map((r) => ({ service_type: r.service_type ?? "", ...totals(r) }))
    .sort(
      (a, b) =>
        b.sale_value - a.sale_value ||
        (a.service_type < b.service_type ? -1 : a.service_type > b.service_type ? 1 : 0),
    );
  const bySalesRep = of(6)
    .map((r) => ({
      sold_by: { email: r.sold_by_email ?? "", name: r.sold_by_name ?? "", user_id: r.sold_by ?? "" },
      ...totals(r),
    }))
    .sort(
      (a, b) =>
        b.total_received - a.total_received ||
        b.sale_value - a.sale_value ||
        (a.sold_by.name < b.sold_by.name ? -1 : a.sold_by.name > b.sold_by.name ? 1 : 0) ||
        (a.sold_by.user_id < b.sold_by.user_id ? -1 : 1),
    );
  return {
    status: "success",
    data: {
      ...totals(of(7)[0]),
      by_frequency: byFrequency,
      by_service_type: byServiceType,
      by_sales_rep: bySalesRep,
    },
  };
}

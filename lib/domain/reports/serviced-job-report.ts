import { sql } from "drizzle-orm";
import type { RequestContext } from "@/lib/api/handler";
import { queryRows } from "@/lib/db/client";
import { cents } from "@/lib/schemas/common";
import type {
  GetServicedJobReportQuery,
  ServicedJobReport,
  ServicedJobReportResponse,
} from "@/lib/schemas/reports";
import { jobFilterSql } from "@/lib/domain/serviced-jobs/filters";
import { jobOutstandingSql, jobReceivedSql, jobTotalSql } from "@/lib/domain/serviced-jobs/money";
import { isoUtc, toNumber } from "./sql";

interface ReportRow extends Record<string, unknown> {
  kind: "all" | "period" | "technician";
  period_start: string | null;
  user_id: string | null;
  user_name: string | null;
  user_email: string | null;
  job_count: number | string;
  total: number | string | null;
  total_received: number | string | null;
  total_outstanding: number | string | null;
}

type JobTotals = Pick<ServicedJobReport, "job_count" | "total" | "total_received" | "total_outstanding">;

function totals(row: ReportRow | undefined): JobTotals {
  return {
    job_count: toNumber(row?.job_count),
    total: cents(toNumber(row?.total)),
    total_received: cents(toNumber(row?.total_received)),
    total_outstanding: cents(toNumber(row?.total_outstanding)),
  };
}

/**
 * GET /reports/serviced-jobs: the job money (lib/domain/serviced-jobs/money.ts) summed over every
 * job matching the list's filters, per week or month of the service date, and per technician
 * (assigned user or crew member, a job counted once per technician), in one statement.
 */
export async function getServicedJobReport({
  ctx,
  input,
}: {
  ctx: Pick<RequestContext, "db" | "companyId">;
  input: GetServicedJobReportQuery;
}): Promise<ServicedJobReportResponse> {
  // date_trunc's unit as a literal: one of two fixed words, never the raw parameter.
  const unit = sql.raw(input.interval === "week" ? "'week'" : "'month'");
  const rows = await queryRows<ReportRow>(
    ctx.db,
    sql`with fj as (
      select j.id, j.assigned_to, date_trunc(${unit}, j.service_date at time zone 'UTC') as period,
        ${jobTotalSql("j")} as line_total, ${jobReceivedSql("j")} as received,
        ${jobOutstandingSql("j")} as outstanding
      from jobs j
      where ${jobFilterSql(ctx.companyId, input)}
    ),
    techs as (
      select fj.id as job_id, fj.assigned_to as user_id from fj where fj.assigned_to is not null
      union
      select cr.job_id, cr.user_id from job_crew cr
      where cr.company_id = ${ctx.companyId} and cr.job_id in (select id from fj)
    ),
    by_tech as (
      select t.user_id, count(*) as job_count, sum(m.line_total) as total, sum(m.received) as total_received,
        sum(m.outstanding) as total_outstanding
      from techs t
      join fj m on m.id = t.job_id
      group by t.user_id
    )
    select 'all' as kind, null as period_start, null as user_id, null as user_name, null as user_email,
      count(*)::int as job_count, sum(line_total)::float8 as total, sum(received)::float8 as total_received,
      sum(outstanding)::float8 as total_outstanding
    from fj
    union all
    select 'period', ${isoUtc(sql`(period at time zone 'UTC')`)}, null, null, null,
      count(*)::int, sum(line_total)::float8, sum(received)::float8, sum(outstanding)::float8
    from fj
    group by period
    union all
    select 'technician', null, b.user_id, u.name, u.email,
      b.job_count::int, b.total::float8, b.total_received::float8, b.total_outstanding::float8
    from by_tech b
    left join users u on u.company_id = ${ctx.companyId} and u.id = b.user_id`,
  );
  const overTime = rows
    .filter((r) => r.kind === "period")
    .map((r) => ({ period_start: r.period_start, ...totals(r) }))
    // Oldest first; the jobs without a visit (no period) last. ISO strings sort as dates.
    .sort((a, b) =>
      a.period_start === b.period_start
        ? 0
        : a.period_start === null
          ? 1
          : b.period_start === null
            ? -1
            : a.period_start < b.period_start
              ? -1
              : 1,
    );
  const byTechnician = rows
    .filter((r) => r.kind === "technician")
    .map((r) => ({
      technician: { email: r.user_email ?? "", name: r.user_name ?? "", user_id: r.user_id ?? "" },
      ...totals(r),
    }))
    .sort(
      (a, b) =>
        b.total_received - a.total_received ||
        b.job_count - a.job_count ||
        (a.technician.name < b.technician.name ? -1 : a.technician.name > b.technician.name ? 1 : 0) ||
        (a.technician.user_id < b.technician.user_id ? -1 : 1),
    );
  return {
    status: "success",
    data: {
      ...totals(rows.find((r) => r.kind === "all")),
      interval: input.interval,
      over_time: overTime,
      by_technician: byTechnician,
    },
  };
}

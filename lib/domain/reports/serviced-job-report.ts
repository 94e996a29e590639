import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { cents } from "@/lib/schemas/common";
import type {
  GetServicedJobReportQuery,
  ServicedJobReport,
  ServicedJobReportResponse,
} from "@/lib/schemas/reports";
import { JOB_STATUSES } from "@/lib/db/schema";
import { DAY_MS, dayKeyRange, splitIntoDays } from "@/lib/domain/list-counts";
import { dateBound, jobFilterSql, customerBound } from "@/lib/domain/serviced-jobs/filters";
import { jobOutstandingSql, jobReceivedSql, jobTotalSql } from "@/lib/domain/serviced-jobs/money";
import { allOf, isoUtc, queryReportRows, toNumber } from "./sql";

interface ReportRow extends Record<string, unknown> {
  /** all: the whole set; period: one week or month; assigned / crew: one technician's jobs. */
  kind: "all" | "period" | "assigned" | "crew";
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

function totals(rows: (ReportRow | undefined)[]): JobTotals {
  const add = (key: keyof JobTotals) => rows.reduce((sum, row) => sum + toNumber(row?.[key]), 0);
  return {
    job_count: add("job_count"),
    total: cents(add("total")),
    total_received: cents(add("total_received")),
    total_outstanding: cents(add("total_outstanding")),
  };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** date_trunc's unit as a literal: one of two fixed words, never the raw parameter. */
const truncUnit = (input: GetServicedJobReportQuery): SQL =>
  sql.raw(input.interval === "week" ? "'week'" : "'month'");

/**
 * Report rows with formatted periods and technician names, in period order. ±infinity format as
 * null like no date, so the stable sort keeps them as they come whichever way rows were grouped.
 */
function reportSelect(companyId: string, report: SQL): SQL {
  return sql`with report as (${report})
    select r.kind, ${isoUtc(sql`(r.period at time zone 'UTC')`)} as period_start, r.user_id,
      u.name as user_name, u.email as user_email, r.job_count::int as job_count, r.total::float8 as total,
      r.total_received::float8 as total_received, r.total_outstanding::float8 as total_outstanding
    from report r
    left join users u on u.company_id = ${companyId} and u.id = r.user_id
    order by r.period nulls last`;
}

/**
 * Report rows computed from the jobs: grouping sets over jobs, plus crew members' jobs leaving
 * out the assignee; a unique crew index means each technician counts a job once.
 */
async function reportRowsFromJobs(
  ctx: Pick<DomainContext, "db" | "companyId">,
  input: GetServicedJobReportQuery,
): Promise<ReportRow[]> {
  const where = jobFilterSql(ctx.companyId, input);
  return queryReportRows<ReportRow>(
    ctx.db,
    reportSelect(
      ctx.companyId,
      sql`select case grouping(f.period, f.assigned_to) when 3 then 'all' when 1 then 'period' else 'assigned' end
          as kind,
        f.period, f.assigned_to as user_id,
        count(*) as job_count, sum(f.line_total) as total, sum(f.received) as total_received,
        sum(f.outstanding) as total_outstanding
      from (
        select date_trunc(${truncUnit(input)}, j.service_date at time zone 'UTC') as period, j.assigned_to,
          ${jobTotalSql("j")} as line_total, ${jobReceivedSql("j")} as received,
          ${jobOutstandingSql("j")} as outstanding
        from jobs j
        where ${where}
      ) f
      group by grouping sets ((), (f.period), (f.assigned_to))
      union all
      select 'crew', null, cr.user_id, count(*), sum(${jobTotalSql("j")}), sum(${jobReceivedSql("j")}),
        sum(${jobOutstandingSql("j")})
      from jobs j
      join job_crew cr on cr.company_id = j.company_id and cr.job_id = j.id
      where ${where} and cr.user_id is distinct from j.assigned_to
      group by cr.user_id`,
    ),
  );
}

/** The kept rows' statuses: Completed only, or every status (jobs_status_check), as an index range. */
const totalsStatusSql = (input: GetServicedJobReportQuery): SQL =>
  input.only_completed
    ? sql`status = 'Completed'`
    : sql`status in (${sql.join(
        JOB_STATUSES.map((status) => sql`${status}`),
        sql`, `,
      )})`;

/**
 * The week or month of a day's key (job_day_key, migration 0008: its Julian day number plus one,
 * ten digits); ±infinity have keys of their own and '' is no service date (the period null).
 */
function periodOfDayKey(key: SQL, input: GetServicedJobReportQuery): SQL {
  return sql`case ${key}
    when '' then null
    when '0000000000' then '-infinity'::timestamp
    when '9999999999' then 'infinity'::timestamp
    else date_trunc(${truncUnit(input)}, ('4714-11-24 BC'::date + (left(${key}, 10)::int - 1))::timestamp)
  end`;
}

/**
 * The report from kept or computed rows, summed per period and technician since a tuple may have
 * several delta rows; tuples summing to no job give no row, as in the jobs' report.
 */
function summedReportSql(rows: SQL): SQL {
  return sql`with f (kind, period, user_id, job_count, total, total_received, total_outstanding) as (
      ${rows}
    ),
    g as (
      select f.kind, f.period, f.user_id, sum(f.job_count) as job_count, sum(f.total) as total,
        sum(f.total_received) as total_received, sum(f.total_outstanding) as total_outstanding
      from f group by f.kind, f.period, f.user_id
      having sum(f.job_count) <> 0
    )
    select * from g
    union all
    select 'all', null, null, coalesce(sum(g.job_count), 0), sum(g.total), sum(g.total_received),
      sum(g.total_outstanding)
    from g where g.kind = 'period'`;
}

/**
 * Report rows without a date bound, from the sums kept per day, assignee and crew member
 * (job_report_totals): a few thousand rows instead of every job and crew row.
 */
async function reportRowsFromTotals(
  ctx: Pick<DomainContext, "db" | "companyId">,
  input: GetServicedJobReportQuery,
): Promise<ReportRow[]> {
  // A day's sums give its period ('' is no service date: the period null); an unassigned job's
  // ('' assigned) count in the periods only.
  const rows = sql`select case t.kind when 'day' then 'period' else t.kind end,
      case t.kind when 'day' then ${periodOfDayKey(sql`t.key`, input)} end,
      case when t.kind <> 'day' then t.key end,
      t.job_count, t.total, t.received, t.outstanding
    from job_report_totals t
    where t.company_id = ${ctx.companyId} and ${totalsStatusSql(input)}
      and t.kind in ('day', 'assigned', 'crew') and (t.kind = 'day' or t.key <> '')`;
  return ctx.db
    .execute<ReportRow>(reportSelect(ctx.companyId, summedReportSql(rows)))
    .then((result) => result.rows);
}

/** The longest span of days read by one statement alone (wholeDayReport): 366 days. */
const ONE_STATEMENT_MAX_MS = 366 * DAY_MS;

/**
 * Date-bounded report rows: whole days' kept sums plus or minus part-day jobs (splitIntoDays).
 * `oneStatement`: up to a year needs no work_mem transaction, so its round trips are skipped.
 */
function wholeDayReport(
  companyId: string,
  input: GetServicedJobReportQuery,
): { sql: SQL; oneStatement: boolean } | undefined {
  const split = splitIntoDays(input.service_date_range_start, input.service_date_range_end);
  if (!split) return undefined;
  const { firstDay, lastDay, added, taken } = split;
  const oneStatement = Boolean(
    firstDay && lastDay && lastDay.getTime() - firstDay.getTime() <= ONE_STATEMENT_MAX_MS,
  );
  const keys = allOf(dayKeyRange(sql`t.key`, { from: firstDay, to: lastDay }));
  const partJobs = (sign: number, where: SQL) =>
    sql`select ${sql.raw(String(sign))} as sign, j.service_date, j.assigned_to, j.crew_user_ids,
      j.line_items_total, j.total_received
      from jobs j where ${where}`;
  const listed = jobFilterSql(companyId, { only_completed: input.only_completed });
  const parts = [
    added.length > 0 && partJobs(1, sql`${listed} and (${sql.join(added, sql` or `)})`),
    taken.length > 0 && partJobs(-1, sql`${listed} and (${sql.join(taken, sql` or `)})`),
  ].filter((part): part is SQL => Boolean(part));
  const money = sql`p.sign * ${jobTotalSql("p")}, p.sign * ${jobReceivedSql("p")}, p.sign * ${jobOutstandingSql("p")}`;
  const keptRows = sql`select case t.kind when 'day' then 'period' when 'assigned_day' then 'assigned' else 'crew' end,
      case t.kind when 'day' then ${periodOfDayKey(sql`t.key`, input)} end,
      case when t.kind <> 'day' then substr(t.key, 12) end,
      t.job_count, t.total, t.received, t.outstanding
    from job_report_totals t
    where t.company_id = ${companyId} and ${totalsStatusSql(input)}
      and t.kind in ('day', 'assigned_day', 'crew_day') and t.key <> '' and ${keys}`;
  const rows =
    parts.length === 0
      ? keptRows
      : sql`with p as materialized (${sql.join(parts, sql` union all `)})
        ${keptRows}
        union all
        select 'period', date_trunc(${truncUnit(input)}, p.service_date at time zone 'UTC'), null, p.sign, ${money}
        from p
        union all
        select 'assigned', null, p.assigned_to, p.sign, ${money} from p where p.assigned_to is not null
        union all
        select 'crew', null, c.user_id, p.sign, ${money}
        from p cross join unnest(p.crew_user_ids) as c(user_id)
        where c.user_id is distinct from p.assigned_to`;
  return { oneStatement, sql: summedReportSql(rows) };
}

/**
 * GET /reports/serviced-jobs: job money per week or month and per technician, from the kept sums
 * where it can. `from: "jobs"` reads the jobs: the reference the kept sums are tested against.
 */
export async function getServicedJobReport({
  ctx,
  input,
  from,
}: {
  ctx: Pick<DomainContext, "db" | "companyId">;
  input: GetServicedJobReportQuery;
  from?: "jobs";
}): Promise<ServicedJobReportResponse> {
  // The kept sums know no customer; a customer's jobs are summed as they are.
  if (from === "jobs" || customerBound(input)) {
    return assembleReport(input, await reportRowsFromJobs(ctx, input));
  }
  if (!dateBound(input)) return assembleReport(input, await reportRowsFromTotals(ctx, input));
  const days = wholeDayReport(ctx.companyId, input);
  if (!days) return assembleReport(input, await reportRowsFromJobs(ctx, input));
  const statement = reportSelect(ctx.companyId, days.sql);
  const rows = days.oneStatement
    ? (await ctx.db.execute<ReportRow>(statement)).rows
    : await queryReportRows<ReportRow>(ctx.db, statement);
  return assembleReport(input, rows);
}

function assembleReport(input: GetServicedJobReportQuery, rows: ReportRow[]): ServicedJobReportResponse {
  const overTime = rows
    .filter((r) => r.kind === "period")
    .map((r) => ({ period_start: r.period_start, ...totals([r]) }))
    // Oldest first; the jobs without a visit (no period) last. ISO strings sort as dates; the
    // periods without a string (±infinity, none) keep reportSelect's order.
    .sort((a, b) =>
      a.period_start === null
        ? Number(b.period_start !== null)
        : b.period_start === null
          ? -1
          : compareText(a.period_start, b.period_start),
    );

  // A technician's jobs: those assigned to them plus those they crewed (disjoint by construction).
  const perUser = new Map<string, ReportRow[]>();
  for (const row of rows) {
    if ((row.kind !== "assigned" && row.kind !== "crew") || row.user_id === null) continue;
    perUser.set(row.user_id, [...(perUser.get(row.user_id) ?? []), row]);
  }
  const byTechnician = [...perUser.entries()]
    .map(([userId, parts]) => ({
      technician: { email: parts[0]?.user_email ?? "", name: parts[0]?.user_name ?? "", user_id: userId },
      ...totals(parts),
    }))
    .sort(
      (a, b) =>
        b.total_received - a.total_received ||
        b.job_count - a.job_count ||
        compareText(a.technician.name, b.technician.name) ||
        compareText(a.technician.user_id, b.technician.user_id),
    );

  return {
    status: "success",
    data: {
      ...totals([rows.find((r) => r.kind === "all")]),
      interval: input.interval,
      over_time: overTime,
      by_technician: byTechnician,
    },
  };
}

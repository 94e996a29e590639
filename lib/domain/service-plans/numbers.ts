import { sql, type SQL } from "drizzle-orm";
import type { PlanFrequency } from "@/lib/db/schema/service-plans";
import { jobReceivedSql, jobTotalSql, listableJob } from "@/lib/domain/serviced-jobs/money";
import { ident } from "@/lib/domain/reports/sql";

/**
 * The derived numbers of a service plan (contract section 7), the one place for these rules,
 * used by the plan list, the plan report and the CSV export:
 * - planned visits: the plan's total_visits, or the frequency's count in one year;
 * - num_completed_jobs: its jobs with status Completed;
 * - num_scheduled_jobs: its jobs with status Scheduled, In Progress or Completed;
 * - num_pending_jobs: max(planned visits − num_scheduled_jobs, 0);
 * - sale_value: line item totals of its non-Cancelled jobs + max(planned visits − non-Cancelled
 *   jobs, 0) × price_per_visit;
 * - total_received: the sum of its jobs' received.
 * A job's line item total and received are those of lib/domain/serviced-jobs/money.ts.
 * Quotes and archived jobs are not the plan's jobs for any of these.
 */

/** Planned visits in one year when a plan does not give total_visits (Custom must give it). */
export const VISITS_PER_YEAR: Record<Exclude<PlanFrequency, "Custom">, number> = {
  "One-Time": 1,
  Annual: 1,
  "Semi-Annual": 2,
  "Tri-Annual": 3,
  Quarterly: 4,
  "Bi-Monthly": 6,
  Monthly: 12,
  "Bi-Weekly": 26,
  Weekly: 52,
};

/** service_frequency of a plan: the frequency's name; for Custom, the plan's own label. */
export function serviceFrequencyName(frequency: string, customLabel: string | null): string {
  if (frequency === "Custom") return customLabel?.trim() ? customLabel : "Custom";
  return frequency;
}

/** The planned visits of the plan row `alias` as SQL. */
export function plannedVisitsSql(alias: string): SQL {
  const p = ident(alias);
  const cases = Object.entries(VISITS_PER_YEAR).map(
    ([frequency, visits]) => sql`when ${sql.raw(`'${frequency}'`)} then ${sql.raw(String(visits))}`,
  );
  return sql`coalesce(${p}.total_visits, case ${p}.frequency ${sql.join(cases, sql` `)} end, 0)`;
}

/**
 * CTEs that follow a CTE of plans (columns id, frequency, total_visits, price_per_visit) and
 * end with `plan_numbers(plan_id, num_completed_jobs, num_scheduled_jobs, num_pending_jobs,
 * sale_value, total_received)`, one row per plan. The same SQL serves a page of 50 plans
 * (index probes) and a report over every plan of a tenant (a scan of the covering index
 * jobs_plan_idx): the planner chooses.
 */
export function planNumbersCtes(companyId: string, plansCte: string): SQL {
  const plans = ident(plansCte);
  return sql`plan_job_totals as (
    select j.service_plan_id,
      count(*) filter (where j.status = 'Completed') as completed,
      count(*) filter (where j.status in ('Scheduled', 'In Progress', 'Completed')) as scheduled,
      count(*) filter (where j.status <> 'Cancelled') as not_cancelled,
      coalesce(sum(${jobTotalSql("j")}) filter (where j.status <> 'Cancelled'), 0) as line_total,
      sum(${jobReceivedSql("j")}) as received
    from jobs j
    where j.company_id = ${companyId} and ${listableJob("j")}
      and j.service_plan_id in (select id from ${plans})
    group by j.service_plan_id
  ),
  plan_numbers as (
    select p.id as plan_id,
      coalesce(t.completed, 0)::int as num_completed_jobs,
      coalesce(t.scheduled, 0)::int as num_scheduled_jobs,
      greatest(${plannedVisitsSql("p")} - coalesce(t.scheduled, 0), 0)::int as num_pending_jobs,
      coalesce(t.line_total, 0)
        + greatest(${plannedVisitsSql("p")} - coalesce(t.not_cancelled, 0), 0) * p.price_per_visit
        as sale_value,
      coalesce(t.received, 0) as total_received
    from ${plans} p
    left join plan_job_totals t on t.service_plan_id = p.id
  )`;
}

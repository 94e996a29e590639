import { sql, type SQL } from "drizzle-orm";
import type { PlanFrequency } from "@/lib/db/schema/service-plans";
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
 *
 * The counts and sums over the plan's jobs are kept on the plan row (jobs_completed,
 * jobs_scheduled, jobs_not_cancelled, not_cancelled_line_items_total, jobs_received) by a
 * statement-level trigger on jobs (drizzle/0003_plan_job_totals.sql); this file turns them into
 * the numbers. numbers.test.ts checks the kept sums against the jobs after every kind of write.
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
 * The plan numbers of the plan row `alias` as SQL select items (num_completed_jobs,
 * num_scheduled_jobs, num_pending_jobs, sale_value, total_received). They read only the plan
 * row: its job sums are kept by a trigger on jobs (service_plans.jobs_*), so a page of plans and
 * a report over every plan of a tenant cost the same per plan.
 */
export function planNumbersSql(alias: string): SQL {
  const p = ident(alias);
  const visits = plannedVisitsSql(alias);
  return sql`${p}.jobs_completed as num_completed_jobs,
    ${p}.jobs_scheduled as num_scheduled_jobs,
    greatest(${visits} - ${p}.jobs_scheduled, 0) as num_pending_jobs,
    ${p}.not_cancelled_line_items_total
      + greatest(${visits} - ${p}.jobs_not_cancelled, 0) * ${p}.price_per_visit as sale_value,
    ${p}.jobs_received as total_received`;
}

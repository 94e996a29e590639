import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { PlanFrequency } from "@/lib/db/schema/service-plans";
import { ident } from "@/lib/domain/reports/sql";

/**
 * A service plan's derived numbers (contract section 7), the one place for these rules:
 * - planned visits: the plan's total_visits, or the frequency's count in one year;
 * - num_completed_jobs: its jobs with status Completed;
 * - num_scheduled_jobs: its jobs with status Scheduled, In Progress or Completed;
 * - num_pending_jobs: max(planned visits − num_scheduled_jobs, 0);
 * - sale_value: line item totals of its non-Cancelled jobs + max(planned visits − non-Cancelled
 *   jobs, 0) × price_per_visit;
 * - total_received: the sum of its jobs' received.
 * Quotes and archived jobs never count. The job sums are kept on the plan row by a trigger (0003).
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
 * The plan numbers of plan row `alias` as SQL select items, reading only the plan row (its job
 * sums are kept by a trigger), so a plan costs the same in a page as in a whole-tenant report.
 */
export function planNumbersSql(alias: string): SQL {
  const p = ident(alias);
  return sql`${p}.jobs_completed as num_completed_jobs,
    ${p}.jobs_scheduled as num_scheduled_jobs,
    ${pendingJobsSql(alias)} as num_pending_jobs,
    ${saleValueSql(alias)} as sale_value,
    ${p}.jobs_received as total_received`;
}

/** num_pending_jobs of plan row `alias`: planned visits not yet scheduled. */
export function pendingJobsSql(alias: string): SQL {
  return sql`greatest(${plannedVisitsSql(alias)} - ${ident(alias)}.jobs_scheduled, 0)`;
}

/** sale_value of plan row `alias`: non-cancelled jobs' line items plus each planned visit without a job. */
export function saleValueSql(alias: string): SQL {
  const p = ident(alias);
  return sql`(${p}.not_cancelled_line_items_total
      + greatest(${plannedVisitsSql(alias)} - ${p}.jobs_not_cancelled, 0) * ${p}.price_per_visit)`;
}

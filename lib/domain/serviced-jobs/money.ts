import { sql, type SQL } from "drizzle-orm";
import { ident } from "@/lib/domain/reports/sql";

/**
 * The money of a job (contract section 7), the one place for these rules:
 * - total: the sum of its line items' total_price;
 * - received: succeeded payments of type `payment` minus succeeded payments of type `refund`
 *   (pending and failed ones do not count);
 * - outstanding: total − received, never below 0.
 *
 * `jobMoneyCte` adds, after a CTE of jobs (column `id`), a CTE `<name>(job_id, line_total,
 * received, outstanding)` with one row per job of it. The line items and payments are read
 * with a semi-join on that CTE, so the planner probes the job indexes for a page of jobs and
 * scans and hashes for a whole report; the rows never leave the database.
 */
export function jobMoneyCte(companyId: string, jobsCte: string, name: string): SQL {
  const jobsRef = ident(jobsCte);
  const lines = ident(`${name}_lines`);
  const received = ident(`${name}_received`);
  return sql`${lines} as (
    select li.job_id, sum(li.total_price) as line_total
    from job_line_items li
    where li.company_id = ${companyId} and li.job_id in (select id from ${jobsRef})
    group by li.job_id
  ),
  ${received} as (
    select pay.job_id,
      sum(case when pay.payment_type = 'refund' then -pay.amount else pay.amount end) as received
    from job_payments pay
    where pay.company_id = ${companyId} and pay.status = 'succeeded'
      and pay.job_id in (select id from ${jobsRef})
    group by pay.job_id
  ),
  ${ident(name)} as (
    select f.id as job_id,
      coalesce(l.line_total, 0) as line_total,
      coalesce(r.received, 0) as received,
      greatest(coalesce(l.line_total, 0) - coalesce(r.received, 0), 0) as outstanding
    from ${jobsRef} f
    left join ${lines} l on l.job_id = f.id
    left join ${received} r on r.job_id = f.id
  )`;
}

/**
 * Conditions every listed or counted job meets: never a quote, never archived. Written as the
 * partial indexes' predicate so that the planner can use them.
 */
export function listableJob(alias: string): SQL {
  return sql`not ${ident(alias)}.is_quote and not ${ident(alias)}.archived`;
}

import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { jobOutstanding } from "@/lib/db/schema/jobs";
import { ident } from "@/lib/domain/reports/sql";

/**
 * A job's money (contract section 7), kept on the job row by triggers (drizzle/0001) so reports
 * skip the child rows:
 * - total: the sum of its line items' total_price               → jobs.line_items_total
 * - received: succeeded payments of type `payment` minus succeeded payments of type `refund`
 *   (pending and failed ones do not count)                       → jobs.total_received
 * - outstanding: total − received, never below 0                 → jobOutstandingSql
 */
export function jobTotalSql(alias: string): SQL {
  return sql`${ident(alias)}.line_items_total`;
}

export function jobReceivedSql(alias: string): SQL {
  return sql`${ident(alias)}.total_received`;
}

export function jobOutstandingSql(alias: string): SQL {
  return jobOutstanding(jobTotalSql(alias), jobReceivedSql(alias));
}

/**
 * Conditions every listed or counted job meets: never a quote, never archived. Written as the
 * partial indexes' predicate so that the planner can use them.
 */
export function listableJob(alias: string): SQL {
  return sql`not ${ident(alias)}.is_quote and not ${ident(alias)}.archived`;
}

import { and, eq, gte, lte, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { listCounts, type ListCountEntity } from "@/lib/db/schema";
import { timestampParam } from "@/lib/domain/reports/sql";
import { textArray } from "@/lib/domain/lists/sql-fragments";

/**
 * Exact list totals from the counters of list_counts (lib/db/schema/list-counts.ts, kept by the
 * triggers of drizzle/0006_list_counts.sql, 0007_tag_set_counts.sql and 0008_job_day_counts.sql,
 * whose per-tuple fold is one function since 0009_list_counts_fold.sql).
 * A list whose request filters only by the columns the counters are kept by reads its total here:
 * sum(n) over a few rows of the tenant, instead of count(*) over up to every row of the tenant.
 * The tag filters of leads and customers read theirs with
 * listTagCountTotal, the job list's service-date range the days splitIntoDays reads from the
 * counters with jobDayCountSql. Other filters (search, creation dates, seller, creator) still count
 * the matching rows.
 *
 * The dimensions, as the triggers fill them (undefined: any value):
 * - leads: flag = archived, key1 = stage
 * - customers: flag = archived, key1 = status
 * - service_plans: flag = active, key1 = frequency, key2 = service_type
 * - jobs (never quotes nor archived ones): key1 = status
 * - pins: key1 = pin_type_id
 * - lead_tags, customer_tags: read by listTagCountTotal (TagCountFilter)
 * - job_days: read by jobDayCountSql (JobDayCountFilter)
 */
export interface ListCountFilter {
  companyId: string;
  entity: Exclude<ListCountEntity, TagCountEntity>;
  flag?: boolean;
  key1?: string;
  key2?: string;
}

/** The total of the rows matching the filter: `{ total }` in one row, like the counts it replaces. */
export function listCountTotal(db: DbOrTx, filter: ListCountFilter) {
  return countersTotal(db, filter, filter.key1 === undefined ? undefined : eq(listCounts.key1, filter.key1));
}

/**
 * sum(n) over the tenant's counter rows of the entity that meet the filter's flag and key2 (each
 * left out: any value) and `key1`, as `{ total }` in one row.
 */
function countersTotal(
  db: DbOrTx,
  filter: { companyId: string; entity: ListCountEntity; flag?: boolean; key2?: string },
  key1: SQL | undefined,
) {
  return db
    .select({ total: sql<number>`coalesce(sum(${listCounts.n}), 0)::int` })
    .from(listCounts)
    .where(
      and(
        eq(listCounts.companyId, filter.companyId),
        eq(listCounts.entity, filter.entity),
        filter.flag === undefined ? undefined : eq(listCounts.flag, filter.flag),
        key1,
        filter.key2 === undefined ? undefined : eq(listCounts.key2, filter.key2),
      ),
    );
}

/** The counters of the tag filters: one row per (archived, stage or status, tag set). */
export type TagCountEntity = Extract<ListCountEntity, "lead_tags" | "customer_tags">;

/**
 * A tag filter with the dimensions beside it (undefined: any value): flag = archived, key2 =
 * stage (lead_tags) or status (customer_tags), and the tags, at least one.
 */
export interface TagCountFilter {
  companyId: string;
  entity: TagCountEntity;
  flag?: boolean;
  key2?: string;
  tags: readonly string[];
}

/**
 * The total of the records having any of the tags (exact, case-sensitive), as `{ total }` in one
 * row. Each record with tags is counted once, under its whole canonical tag set (key1, the text
 * of a sorted text[]), so the records matching "any of T" are exactly those of the sets that
 * overlap T: sum(n) over those rows, each read back with key1::text[]. Its cost grows with the
 * tenant's number of (archived, stage, set) tuples, not with the number of matching records.
 */
export function listTagCountTotal(db: DbOrTx, filter: TagCountFilter) {
  return countersTotal(db, filter, sql`${listCounts.key1}::text[] && ${textArray(filter.tags)}`);
}

/**
 * The listed jobs (never quotes nor archived) whose service date falls on a whole UTC day from
 * `from` (its midnight, included) to `to` (a midnight, excluded); a bound left out leaves that
 * side open (days and infinite dates alike). With `status`, those of that status only.
 */
export interface JobDayCountFilter {
  companyId: string;
  status?: string;
  from?: Date;
  to?: Date;
}

/** A day's key in the counters and the job report's sums: job_day_key of drizzle/0008_job_day_counts.sql. */
export const dayKey = (day: Date) => sql`job_day_key(${timestampParam(day)})`;

export const DAY_MS = 86_400_000;

/**
 * The whole UTC days of a service-date range from `start` to `end` (both included; a bound left
 * out leaves that side open): from the first midnight at or after the start (included) to the
 * last midnight at or before the end (excluded: a bare end date ends at 23:59:59.999, so its day
 * is a part).
 */
export function wholeDays(start?: Date, end?: Date): { from?: Date; to?: Date } {
  return {
    from: start && new Date(Math.ceil(start.getTime() / DAY_MS) * DAY_MS),
    to: end && new Date(Math.floor(end.getTime() / DAY_MS) * DAY_MS),
  };
}

/**
 * How a service-date range from `start` to `end` (both included; a bound left out leaves that
 * side open) is read from numbers kept per UTC day (the day counters, the job report's sums):
 * those of the days from `firstDay` (its midnight, included) to `lastDay` (excluded; undefined:
 * open), plus the jobs whose service date meets one of `added`, less those meeting one of `taken`.
 * Each condition is on `j.service_date`, within one day, and carries its own bounds: it goes
 * beside the other filters, never the range's bounds.
 *
 * Each end that falls inside a day reads whichever is less: up to half a day, the jobs of its
 * part of the day (added to the whole days); more, the whole day less the jobs of the rest of it
 * (taken). A bare end date ends at 23:59:59.999: its day less the jobs after that instant, almost
 * always none. A range within one day is read the same way as a whole: up to half a day, its
 * jobs; more, its day less the jobs before and after it. Undefined when no day is worth reading
 * (a range of at most half a day, or an empty one): the caller reads the range's jobs.
 */
export interface DaySplit {
  firstDay?: Date;
  lastDay?: Date;
  added: SQL[];
  taken: SQL[];
}

export function splitIntoDays(start?: Date, end?: Date): DaySplit | undefined {
  const half = DAY_MS / 2;
  const at = timestampParam;
  const { from, to } = wholeDays(start, end);
  // No midnight from the start to the end (a range within one day, or an empty one) and at most
  // half a day: its jobs. Longer, each end's part is longer still: both are taken from the day.
  if (start && end && from! > to! && end.getTime() - start.getTime() <= half) return undefined;
  const split: DaySplit = { firstDay: from, lastDay: to, added: [], taken: [] };
  if (start && from && from > start) {
    if (from.getTime() - start.getTime() <= half) {
      split.added.push(sql`(j.service_date >= ${at(start)} and j.service_date < ${at(from)})`);
    } else {
      split.firstDay = new Date(from.getTime() - DAY_MS);
      split.taken.push(sql`(j.service_date >= ${at(split.firstDay)} and j.service_date < ${at(start)})`);
    }
  }
  if (end && to) {
    if (end.getTime() - to.getTime() <= half) {
      split.added.push(sql`(j.service_date >= ${at(to)} and j.service_date <= ${at(end)})`);
    } else {
      split.lastDay = new Date(to.getTime() + DAY_MS);
      split.taken.push(sql`(j.service_date > ${at(end)} and j.service_date < ${at(split.lastDay)})`);
    }
  }
  if (split.firstDay && split.lastDay && split.firstDay >= split.lastDay) return undefined;
  return split;
}

/**
 * The conditions on a day-keyed column (the counters' key1, the report sums' key) of the days from
 * `from` (included) to `to` (excluded); a bound left out leaves that side open.
 */
export function dayKeyRange(
  key: AnyColumn | SQL,
  { from, to }: { from?: Date; to?: Date },
): (SQL | undefined)[] {
  return [from && sql`${key} >= ${dayKey(from)}`, to && sql`${key} < ${dayKey(to)}`];
}

/** The tenant's job_days rows of the status (any without one) whose days meet the conditions. */
function jobDayRows(
  filter: { companyId: string; status?: string },
  days: (SQL | undefined)[],
): SQL | undefined {
  return and(
    eq(listCounts.companyId, filter.companyId),
    eq(listCounts.entity, "job_days"),
    eq(listCounts.flag, false),
    ...days,
    filter.status === undefined ? undefined : eq(listCounts.key2, filter.status),
  );
}

/**
 * The number of jobs matching the filter, as a scalar SQL expression (bigint): sum(n) over the
 * tenant's job_days rows of those days, one row per (day, status) folded by every write, so a
 * month is ~30 rows a status. The days are key1, compared as keys (job_day_key, drizzle/
 * 0008_job_day_counts.sql): an index range.
 */
export function jobDayCountSql(filter: JobDayCountFilter): SQL {
  const where = jobDayRows(filter, dayKeyRange(listCounts.key1, filter));
  return sql`(select coalesce(sum(${listCounts.n}), 0) from ${listCounts} where ${where})`;
}

/**
 * The listed jobs (never quotes nor archived) whose service date lies from `start` to `end` (both
 * included; a bound left out leaves that side open). With `status`, those of that status only.
 */
export interface JobDaysFilter {
  companyId: string;
  status?: string;
  start?: Date;
  end?: Date;
}

/**
 * The days that hold jobs matching the filter, as a subquery of one row per day: `day`, the day
 * key (job_day_key), and `whole`, whether the whole day lies within the range (wholeDays: its
 * jobs need no other bound); the days are those whose counters sum to more than zero, from the
 * day of `start` to the day of `end`.
 */
export function jobDaysSql(filter: JobDaysFilter): SQL {
  const where = jobDayRows(filter, [
    filter.start && gte(listCounts.key1, dayKey(filter.start)),
    filter.end && lte(listCounts.key1, dayKey(filter.end)),
  ]);
  const whole = and(sql`true`, ...dayKeyRange(listCounts.key1, wholeDays(filter.start, filter.end))) as SQL;
  return sql`select ${listCounts.key1} as day, ${whole} as whole from ${listCounts} where ${where}
    group by ${listCounts.key1} having sum(${listCounts.n}) > 0`;
}

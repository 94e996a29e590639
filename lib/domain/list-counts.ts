import "server-only";
import { and, eq, gte, lte, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { listCounts, type ListCountEntity } from "@/lib/db/schema";
import { timestampParam } from "@/lib/domain/reports/sql";
import { textArray } from "@/lib/domain/lists/sql-fragments";

/**
 * Exact list totals from the list_counts counters (dimensions: lib/db/schema/list-counts.ts), so a
 * filter on counted columns sums a few rows instead of count(*); search and dates still count rows.
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
 * Total of records having any of the tags: each record counts once under its whole tag set, so
 * it is sum(n) over sets overlapping the tags, costing per set rather than per record.
 */
export function listTagCountTotal(db: DbOrTx, filter: TagCountFilter) {
  return countersTotal(db, filter, sql`${listCounts.key1}::text[] && ${textArray(filter.tags)}`);
}

/**
 * Listed jobs with a service date on whole UTC days from `from` (included) to `to` (excluded);
 * a missing bound leaves that side open. With `status`, that status only.
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
 * The whole UTC days of a range: from the first midnight at or after `start` to the last at or
 * before `end` (a bare end date ends at 23:59:59.999, so its own day is partial).
 */
export function wholeDays(start?: Date, end?: Date): { from?: Date; to?: Date } {
  return {
    from: start && new Date(Math.ceil(start.getTime() / DAY_MS) * DAY_MS),
    to: end && new Date(Math.floor(end.getTime() / DAY_MS) * DAY_MS),
  };
}

/**
 * A service-date range read from per-day numbers: whole days `firstDay` to `lastDay`, plus jobs
 * meeting `added`, less those meeting `taken`; undefined when no whole day is worth reading.
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
 * Matching job count as a scalar SQL expression: sum(n) over the tenant's job_days rows, which
 * are folded per (day, status), so a month is an index range of ~30 rows per status.
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
 * Days holding matching jobs, one row per day: `day` (job_day_key) and `whole`, whether the range
 * covers the whole day so its jobs need no other bound.
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

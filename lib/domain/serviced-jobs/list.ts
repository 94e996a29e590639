import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { jobSortKeys } from "@/lib/db/schema/jobs";
import type { DomainContext } from "@/lib/domain/context";
import { listOrder } from "@/lib/domain/lists/newest-list";
import { cents, pageOffset, paginationOf, type SortItem } from "@/lib/schemas/common";
import type { UserRef } from "@/lib/schemas/service-plans";
import type {
  GetServicedJobsQuery,
  ListServicedJobsResponse,
  ServicedJob,
  ServicedJobFilters,
  ServicedJobSortField,
} from "@/lib/schemas/serviced-jobs";
import {
  afterCreatedCursor,
  newestFirst,
  cursorUtc,
  ident,
  isoUtc,
  toNumber,
  type CreatedCursor,
} from "@/lib/domain/reports/sql";
import { jobDayCountSql, jobDaysSql, listCountTotal, splitIntoDays } from "@/lib/domain/list-counts";
import { keptCount, pageAndTotal, totalColumn, type ListTotal } from "@/lib/domain/list-page";
import { dateBound, jobFilterSql, customerBound, serviceDateBoundsSql } from "./filters";
import { jobOutstandingSql, jobReceivedSql, jobTotalSql } from "./money";

/** One job row with its money and embedded arrays, as the database answers it. */
export interface JobRow extends Record<string, unknown> {
  id: string;
  created_at: string;
  cursor_created_at: string;
  service_date: string | null;
  service_plan_id: string | null;
  status: ServicedJob["status"];
  customer_id: string;
  customer_company_name: string | null;
  customer_first_name: string | null;
  customer_last_name: string | null;
  technicians: unknown;
  line_items: unknown;
  payments: unknown;
  line_total: number | string;
  total_received: number | string;
  total_outstanding: number | string;
}

export interface JobWindow {
  limit: number;
  offset?: number;
  /** Keyset: only jobs after this one in the list order (the export's batches). */
  after?: CreatedCursor;
  /** The order of GET /serviced-jobs?sort (sortedWindowKeysSql); without it, or with `after`, newest first. */
  sort?: readonly SortItem<ServicedJobSortField>[];
}

type JobSortColumns = Parameters<typeof jobSortKeys>[0];

/** The columns jobSortKeys reads, of a job row under an alias. */
function jobColumnsOf(alias: string): JobSortColumns {
  const a = ident(alias);
  return {
    createdAt: sql`${a}.created_at`,
    serviceDate: sql`${a}.service_date`,
    status: sql`${a}.status`,
    lineItemsTotal: sql`${a}.line_items_total`,
    totalReceived: sql`${a}.total_received`,
  };
}

/**
 * The ORDER BY of `sort` (extensions.md E2's grammar): each field's keys, nulls last, then id
 * descending; spelled as the sort indexes are built (lib/db/schema/jobs.ts), so a page walks one.
 */
function jobOrder(sort: readonly SortItem<ServicedJobSortField>[], columns: JobSortColumns, id: SQL): SQL {
  const keys = jobSortKeys(columns);
  const order = sort.flatMap(({ field, descending }) => keys[field].map((key) => ({ key, descending })));
  return sql.join(listOrder(order, id), sql`, `);
}

/**
 * A window's ids in `sort` order, walking the order's index; with a date bound the range is read
 * from the service-date index first and sorted (OFFSET 0 keeps the planner from merging the steps).
 */
function sortedWindowKeysSql(
  companyId: string,
  filters: ServicedJobFilters,
  sort: readonly SortItem<ServicedJobSortField>[],
  cut: SQL,
): SQL {
  const where = jobFilterSql(companyId, filters);
  // A customer's jobs are few: read them by the customer's index and sorted, rather than walking
  // a sort index of the whole tenant for them.
  const rangeFirst = dateBound(filters) && sort[0]?.field !== "service_date";
  if (rangeFirst || customerBound(filters)) {
    return sql`select k.id
      from (select j.id, j.created_at, j.service_date, j.status, j.line_items_total, j.total_received
        from jobs j where ${where} offset 0) k
      order by ${jobOrder(sort, jobColumnsOf("k"), sql`k.id`)} ${cut}`;
  }
  return sql`select j.id from jobs j where ${where} order by ${jobOrder(sort, jobColumnsOf("j"), sql`j.id`)} ${cut}`;
}

/**
 * A job's technicians: assignee first, then crew by position, each once. Users are read by key
 * (LATERAL … LIMIT 1), since a plain join would hash the tenant's users for every job.
 */
const techniciansSql = sql`(
  select coalesce(json_agg(json_build_object('email', u.email, 'name', u.name, 'user_id', u.id)
    order by t.rank), '[]'::json)
  from (
    select x.user_id, min(x.rank) as rank
    from (
      select page.assigned_to as user_id, 0::bigint as rank where page.assigned_to is not null
      union all
      select cr.user_id, row_number() over (order by cr.position, cr.id) as rank
      from job_crew cr
      where cr.company_id = page.company_id and cr.job_id = page.id
    ) x
    group by x.user_id
  ) t
  cross join lateral (
    select u.email, u.name, u.id from users u
    where u.company_id = page.company_id and u.id = t.user_id
    limit 1
  ) u
)`;

const lineItemsSql = sql`(
  select coalesce(json_agg(json_build_object('id', li.id, 'title', li.title, 'description', li.description,
    'total_price', li.total_price) order by li.position, li.id), '[]'::json)
  from job_line_items li
  where li.company_id = page.company_id and li.job_id = page.id
)`;

const paymentsSql = sql`(
  select coalesce(json_agg(json_build_object('id', pay.id, 'amount', pay.amount,
    'payment_date', ${isoUtc(sql`pay.payment_date`)}, 'payment_method', pay.payment_method,
    'payment_type', pay.payment_type, 'status', pay.status) order by pay.payment_date nulls last, pay.id), '[]'::json)
  from job_payments pay
  where pay.company_id = page.company_id and pay.job_id = page.id
)`;

/**
 * A window's ids in list order. A date range lies deep in the created_at index, so the window is
 * merged from each day's first offset + limit jobs; deeper windows read the range whole and sort.
 */
function windowKeysSql(companyId: string, filters: ServicedJobFilters, window: JobWindow): SQL {
  const offset = window.offset ?? 0;
  const cut = sql`limit ${window.limit} offset ${offset}`;
  if (window.sort?.length && !window.after) return sortedWindowKeysSql(companyId, filters, window.sort, cut);
  // The day counters know no customer: a customer's jobs are read newest first from their own
  // index (jobs_customer_created_idx), the bounds applied to them, below.
  if (dateBound(filters) && !window.after && !customerBound(filters)) {
    if (offset + window.limit <= DAY_BY_DAY_MAX_ROWS) {
      return sql`select k.id, k.created_at
        from (${jobDaysSql(dayFilter(companyId, filters))}) d
        cross join lateral (
          select j.id, j.created_at from jobs j
          where ${jobFilterSql(companyId, { only_completed: filters.only_completed })}
            and job_day_key(j.service_date) = d.day and (d.whole or ${serviceDateBoundsSql(filters)})
          order by ${newestFirst("j")} limit ${window.limit + offset}
        ) k
        order by ${newestFirst("k")} ${cut}`;
    }
    // OFFSET 0 keeps the planner from merging the two steps back into a walk of created_at.
    return sql`select k.id, k.created_at
      from (select j.id, j.created_at from jobs j where ${jobFilterSql(companyId, filters)} offset 0) k
      order by ${newestFirst("k")} ${cut}`;
  }
  const where = sql`${jobFilterSql(companyId, filters)} and ${afterCreatedCursor("j", window.after)}`;
  return sql`select j.id, j.created_at from jobs j where ${where} order by ${newestFirst("j")} ${cut}`;
}

/** The day counters' view of the filters (jobDaysSql). */
function dayFilter(companyId: string, filters: ServicedJobFilters) {
  return {
    companyId,
    status: filters.only_completed ? "Completed" : undefined,
    start: filters.service_date_range_start,
    end: filters.service_date_range_end,
  };
}

/**
 * The deepest window read day by day (windowKeysSql): past it, a window reads most of each day's
 * jobs anyway, and the range read and sorted once costs less.
 */
export const DAY_BY_DAY_MAX_ROWS = 500;

/**
 * One window of matching jobs with customer, technicians, line items, payments and money. The
 * window is cut first so the rest is read for its jobs only; a kept `total` rides on every row.
 */
export function jobsWithDetailsSql(
  companyId: string,
  filters: ServicedJobFilters,
  window: JobWindow,
  options: { details?: boolean; total?: ListTotal } = {},
): SQL {
  const details = options.details ?? true;
  const pageColumns = {
    ...jobColumnsOf("page"),
    lineItemsTotal: sql`page.line_total`,
    totalReceived: sql`page.received`,
  };
  const order =
    window.sort?.length && !window.after
      ? jobOrder(window.sort, pageColumns, sql`page.id`)
      : newestFirst("page");
  return sql`with page_keys as (${windowKeysSql(companyId, filters, window)}),
  page as (
    select j.company_id, j.id, j.customer_id, j.service_plan_id, j.status, j.service_date, j.created_at,
      j.assigned_to, ${jobTotalSql("j")} as line_total, ${jobReceivedSql("j")} as received,
      ${jobOutstandingSql("j")} as outstanding
    from page_keys k
    join jobs j on j.company_id = ${companyId} and j.id = k.id
  )
  select page.id, ${isoUtc(sql`page.created_at`)} as created_at,
    ${cursorUtc(sql`page.created_at`)} as cursor_created_at,
    ${isoUtc(sql`page.service_date`)} as service_date, page.service_plan_id, page.status,
    page.customer_id, c.company_name as customer_company_name, c.first_name as customer_first_name,
    c.last_name as customer_last_name,
    ${techniciansSql} as technicians,
    ${details ? lineItemsSql : sql`null`} as line_items,
    ${details ? paymentsSql : sql`null`} as payments,
    page.line_total::float8 as line_total, page.received::float8 as total_received,
    page.outstanding::float8 as total_outstanding
    ${totalColumn(options.total)}
  from page
  left join customers c on c.company_id = page.company_id and c.id = page.customer_id
  order by ${order}`;
}

/** json columns: parsed by one driver, text from the other. */
function jsonArray<T>(value: unknown): T[] {
  if (value === null || value === undefined) return [];
  const parsed: unknown = typeof value === "string" ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}

export function technicianList(row: Pick<JobRow, "technicians">): UserRef[] {
  return jsonArray<UserRef>(row.technicians).map((t) => ({
    email: t.email ?? "",
    name: t.name ?? "",
    user_id: t.user_id,
  }));
}

export function toServicedJob(row: JobRow): ServicedJob {
  return {
    id: row.id,
    created_at: row.created_at,
    customer: {
      id: row.customer_id,
      company_name: row.customer_company_name ?? "",
      first_name: row.customer_first_name ?? "",
      last_name: row.customer_last_name ?? "",
    },
    service_date: row.service_date,
    service_plan_id: row.service_plan_id,
    status: row.status,
    technicians: technicianList(row),
    line_items: jsonArray<ServicedJob["line_items"][number]>(row.line_items).map((li) => ({
      id: li.id,
      title: li.title ?? "",
      description: li.description ?? "",
      total_price: cents(li.total_price),
    })),
    payments: jsonArray<ServicedJob["payments"][number]>(row.payments).map((p) => ({
      id: p.id,
      amount: cents(p.amount),
      payment_date: p.payment_date ?? null,
      payment_method: p.payment_method,
      payment_type: p.payment_type,
      status: p.status,
    })),
    total: cents(toNumber(row.line_total)),
    total_received: cents(toNumber(row.total_received)),
    total_outstanding: cents(toNumber(row.total_outstanding)),
  };
}

/**
 * GET /serviced-jobs: a page in `sort` order with the exact total from the kept counters (with a
 * date bound, the days plus part-day counts). Counters know no customer, so those count beside.
 */
export async function listServicedJobs({
  ctx,
  input,
}: {
  ctx: Pick<DomainContext, "db" | "companyId">;
  input: GetServicedJobsQuery;
}): Promise<ListServicedJobsResponse> {
  const { limit } = input;
  const total: ListTotal = customerBound(input)
    ? {
        counted: ctx.db
          .execute<{ total: number }>(
            sql`select count(*)::int as total from jobs j where ${jobFilterSql(ctx.companyId, input)}`,
          )
          .then((result) => result.rows),
      }
    : dateBound(input)
      ? { kept: keptCount(ctx.db, dateRangeTotalSql(ctx.companyId, input)) }
      : {
          kept: listCountTotal(ctx.db, {
            companyId: ctx.companyId,
            entity: "jobs",
            key1: input.only_completed ? "Completed" : undefined,
          }),
        };
  const { rows, total: matching } = await pageAndTotal(
    ctx.db
      .execute<JobRow>(
        jobsWithDetailsSql(
          ctx.companyId,
          input,
          { limit, offset: pageOffset(input), sort: input.sort },
          { total },
        ),
      )
      .then((result) => result.rows),
    total,
  );
  return {
    status: "success",
    data: rows.map(toServicedJob),
    pagination: paginationOf(input, matching),
  };
}

/**
 * A date-bounded total in one statement: the range's day counters, plus or minus counts of the
 * part days as splitIntoDays splits it. Exported so a test can check its plan.
 */
export function dateRangeTotalSql(companyId: string, filters: ServicedJobFilters): SQL {
  const { start, end, ...counters } = dayFilter(companyId, filters);
  const split = splitIntoDays(start, end);
  if (!split) return sql`select count(*)::int as total from jobs j where ${jobFilterSql(companyId, filters)}`;
  const listed = jobFilterSql(companyId, { only_completed: filters.only_completed });
  const count = (part: SQL) => sql`(select count(*) from jobs j where ${listed} and ${part})`;
  const days = jobDayCountSql({ ...counters, from: split.firstDay, to: split.lastDay });
  const terms = [
    days,
    ...split.added.map((part) => sql` + ${count(part)}`),
    ...split.taken.map((part) => sql` - ${count(part)}`),
  ];
  return sql`select (${sql.join(terms)})::int as total`;
}

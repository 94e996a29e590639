import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { cents, pageOffset, paginationOf, type SortItem } from "@/lib/schemas/common";
import type {
  GetServicePlansQuery,
  ListServicePlansResponse,
  ServicePlan,
  ServicePlanFilters,
  ServicePlanSortField,
} from "@/lib/schemas/service-plans";
import {
  afterCreatedCursor,
  newestFirst,
  cursorUtc,
  ident,
  isoUtc,
  toNumber,
  type CreatedCursor,
} from "@/lib/domain/reports/sql";
import { listOrder } from "@/lib/domain/lists/newest-list";
import { listCountTotal } from "@/lib/domain/list-counts";
import { pageAndTotal, totalColumn, type ListTotal } from "@/lib/domain/list-page";
import { planFilterSql } from "./filters";
import { pendingJobsSql, planNumbersSql, saleValueSql, serviceFrequencyName } from "./numbers";

/** One plan row with its numbers, as the database answers it. */
export interface PlanRow extends Record<string, unknown> {
  id: string;
  active: boolean;
  created_at: string;
  cursor_created_at: string;
  start_date: string | null;
  frequency: string;
  custom_frequency_label: string | null;
  service_type: string | null;
  customer_id: string;
  customer_company_name: string | null;
  customer_first_name: string | null;
  customer_last_name: string | null;
  sold_by_id: string | null;
  sold_by_email: string | null;
  sold_by_name: string | null;
  num_completed_jobs: number;
  num_scheduled_jobs: number;
  num_pending_jobs: number;
  sale_value: number | string;
  total_received: number | string;
}

export interface PlanWindow {
  limit: number;
  offset?: number;
  /** Keyset: only plans after this one in the list order (the export's batches). */
  after?: CreatedCursor;
  /** The order of GET /service-plans?sort; without it, or with `after`, newest first. */
  sort?: readonly SortItem<ServicePlanSortField>[];
}

/** A sort field's value, of a plan row under an alias: its column, or its number (planNumbersSql). */
function planSortKey(alias: string, field: ServicePlanSortField): SQL {
  const p = ident(alias);
  switch (field) {
    case "created_at":
      return sql`${p}.created_at`;
    case "start_date":
      return sql`${p}.start_date`;
    case "service_type":
      // An empty service type shows as none: it sorts with them, last.
      return sql`nullif(lower(${p}.service_type), '')`;
    case "sale_value":
      return saleValueSql(alias);
    case "total_received":
      return sql`${p}.jobs_received`;
    case "num_completed_jobs":
      return sql`${p}.jobs_completed`;
    case "num_scheduled_jobs":
      return sql`${p}.jobs_scheduled`;
    case "num_pending_jobs":
      return pendingJobsSql(alias);
  }
}

/** The window's ORDER BY: `sort` with nulls last and id descending last (listOrder), else newest first. */
function planOrder(alias: string, window: PlanWindow): SQL {
  if (!window.sort || window.sort.length === 0 || window.after) return newestFirst(alias);
  const keys = window.sort.map(({ field, descending }) => ({ key: planSortKey(alias, field), descending }));
  return sql.join(listOrder(keys, sql`${ident(alias)}.id`), sql`, `);
}

/**
 * One window of matching plans in list order, each with customer, seller and numbers read from
 * the plan row alone. A kept `total` is a column of every row (totalColumn).
 */
export function plansWithNumbersSql(
  companyId: string,
  filters: ServicePlanFilters,
  window: PlanWindow,
  total?: ListTotal,
): SQL {
  return sql`with plans as (
    select p.* from service_plans p
    where ${planFilterSql(companyId, filters)} and ${afterCreatedCursor("p", window.after)}
    order by ${planOrder("p", window)}
    limit ${window.limit} offset ${window.offset ?? 0}
  ),
  numbered as (select p.*, ${planNumbersSql("p")} from plans p)
  select p.id, p.active, ${isoUtc(sql`p.created_at`)} as created_at,
    ${cursorUtc(sql`p.created_at`)} as cursor_created_at, ${isoUtc(sql`p.start_date`)} as start_date,
    p.frequency, p.custom_frequency_label, p.service_type,
    p.customer_id, c.company_name as customer_company_name, c.first_name as customer_first_name,
    c.last_name as customer_last_name,
    u.id as sold_by_id, u.email as sold_by_email, u.name as sold_by_name,
    p.num_completed_jobs, p.num_scheduled_jobs, p.num_pending_jobs,
    p.sale_value::float8 as sale_value, p.total_received::float8 as total_received
    ${totalColumn(total)}
  from numbered p
  left join customers c on c.company_id = p.company_id and c.id = p.customer_id
  left join users u on u.company_id = p.company_id and u.id = p.sold_by
  order by ${planOrder("p", window)}`;
}

export function toServicePlan(row: PlanRow): ServicePlan {
  return {
    id: row.id,
    active: row.active,
    created_at: row.created_at,
    customer: {
      id: row.customer_id,
      company_name: row.customer_company_name ?? "",
      first_name: row.customer_first_name ?? "",
      last_name: row.customer_last_name ?? "",
    },
    num_completed_jobs: toNumber(row.num_completed_jobs),
    num_pending_jobs: toNumber(row.num_pending_jobs),
    num_scheduled_jobs: toNumber(row.num_scheduled_jobs),
    sale_value: cents(toNumber(row.sale_value)),
    service_frequency: serviceFrequencyName(row.frequency, row.custom_frequency_label),
    service_type: row.service_type ?? "",
    sold_by: { email: row.sold_by_email ?? "", name: row.sold_by_name ?? "", user_id: row.sold_by_id ?? "" },
    start_date: row.start_date,
    total_received: cents(toNumber(row.total_received)),
  };
}

/**
 * GET /service-plans: newest first (or in `sort` order) with the exact total, from the counters when filtered only by
 * status, frequency and service type; any other filter counts beside the page.
 */
export async function listServicePlans({
  ctx,
  input,
}: {
  ctx: Pick<DomainContext, "db" | "companyId">;
  input: GetServicePlansQuery;
}): Promise<ListServicePlansResponse> {
  const { limit } = input;
  const total: ListTotal = countedByDimensions(input)
    ? {
        kept: listCountTotal(ctx.db, {
          companyId: ctx.companyId,
          entity: "service_plans",
          flag: input.status === undefined ? undefined : input.status === "active",
          key1: input.frequency,
          key2: input.service_type,
        }),
      }
    : {
        counted: ctx.db
          .execute<{ total: number }>(
            sql`select count(*)::int as total from service_plans p where ${planFilterSql(ctx.companyId, input)}`,
          )
          .then((result) => result.rows),
      };
  const { rows, total: matching } = await pageAndTotal(
    ctx.db
      .execute<PlanRow>(
        plansWithNumbersSql(
          ctx.companyId,
          input,
          { limit, offset: pageOffset(input), sort: input.sort },
          total,
        ),
      )
      .then((result) => result.rows),
    total,
  );
  return {
    status: "success",
    data: rows.map(toServicePlan),
    pagination: paginationOf(input, matching),
  };
}

/**
 * Whether the counters answer the request's total: no creation range, no seller and no customer
 * (see planFilterSql; status, frequency and service type are the counters' dimensions).
 */
function countedByDimensions(filters: ServicePlanFilters): boolean {
  return (
    !filters.created_at_range_start &&
    !filters.created_at_range_end &&
    filters.sold_by_user_id === undefined &&
    filters.customer_id === undefined
  );
}

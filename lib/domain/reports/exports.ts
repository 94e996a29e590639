import "server-only";
import type { DomainContext } from "@/lib/domain/context";
import type { GetServicedJobsExportQuery, GetServicePlansExportQuery } from "@/lib/schemas/reports";
import { plansWithNumbersSql, toServicePlan, type PlanRow } from "@/lib/domain/service-plans/list";
import { jobsWithDetailsSql, technicianList, type JobRow } from "@/lib/domain/serviced-jobs/list";
import { cents } from "@/lib/schemas/common";
import { csvMoney, datedFilename, streamCsv, type CsvExport } from "./csv";
import { toNumber } from "./sql";

type Ctx = Pick<DomainContext, "db" | "companyId">;

export const SERVICE_PLAN_CSV_HEADER = [
  "id",
  "created_at",
  "active",
  "customer_id",
  "customer_first_name",
  "customer_last_name",
  "customer_company_name",
  "service_frequency",
  "service_type",
  "sold_by_user_id",
  "sold_by_name",
  "sold_by_email",
  "start_date",
  "num_completed_jobs",
  "num_scheduled_jobs",
  "num_pending_jobs",
  "sale_value",
  "total_received",
] as const;

/**
 * GET /reports/service-plans/export: every plan matching the list's filters, in the list's
 * order, with the list's numbers, as CSV read in keyset batches.
 */
export function exportServicePlansCsv({
  ctx,
  input,
  batchSize,
}: {
  ctx: Ctx;
  input: GetServicePlansExportQuery;
  /** Rows per query (tests use small batches to cross batch boundaries). */
  batchSize?: number;
}): Promise<CsvExport> {
  return streamCsv<PlanRow>({
    batchSize,
    filename: datedFilename("service-plans"),
    header: SERVICE_PLAN_CSV_HEADER,
    fetchBatch: (after, limit) =>
      ctx.db
        .execute<PlanRow>(plansWithNumbersSql(ctx.companyId, input, { limit, after }))
        .then((result) => result.rows),
    cursorOf: (row) => ({ createdAt: row.cursor_created_at, id: row.id }),
    toCells: (row) => {
      const plan = toServicePlan(row);
      return [
        plan.id,
        plan.created_at,
        plan.active,
        plan.customer.id,
        plan.customer.first_name,
        plan.customer.last_name,
        plan.customer.company_name,
        plan.service_frequency,
        plan.service_type,
        plan.sold_by.user_id,
        plan.sold_by.name,
        plan.sold_by.email,
        plan.start_date,
        plan.num_completed_jobs,
        plan.num_scheduled_jobs,
        plan.num_pending_jobs,
        csvMoney(plan.sale_value),
        csvMoney(plan.total_received),
      ];
    },
  });
}

export const SERVICED_JOB_CSV_HEADER = [
  "id",
  "created_at",
  "service_date",
  "status",
  "customer_id",
  "customer_first_name",
  "customer_last_name",
  "customer_company_name",
  "service_plan_id",
  "technicians",
  "total",
  "total_received",
  "total_outstanding",
] as const;

/**
 * GET /reports/serviced-jobs/export: every job matching the list's filters, in the list's order,
 * with its technicians (names, "; "-separated) and money, as CSV read in keyset batches.
 */
export function exportServicedJobsCsv({
  ctx,
  input,
  batchSize,
}: {
  ctx: Ctx;
  input: GetServicedJobsExportQuery;
  /** Rows per query (tests use small batches to cross batch boundaries). */
  batchSize?: number;
}): Promise<CsvExport> {
  return streamCsv<JobRow>({
    batchSize,
    filename: datedFilename("serviced-jobs"),
    header: SERVICED_JOB_CSV_HEADER,
    fetchBatch: (after, limit) =>
      ctx.db
        .execute<JobRow>(jobsWithDetailsSql(ctx.companyId, input, { limit, after }, { details: false }))
        .then((result) => result.rows),
    cursorOf: (row) => ({ createdAt: row.cursor_created_at, id: row.id }),
    toCells: (row) => [
      row.id,
      row.created_at,
      row.service_date,
      row.status,
      row.customer_id,
      row.customer_first_name,
      row.customer_last_name,
      row.customer_company_name,
      row.service_plan_id,
      technicianList(row)
        .map((t) => t.name || t.user_id)
        .join("; "),
      csvMoney(cents(toNumber(row.line_total))),
      csvMoney(cents(toNumber(row.total_received))),
      csvMoney(cents(toNumber(row.total_outstanding))),
    ],
  });
}

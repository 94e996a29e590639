import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { ServicedJobFilters } from "@/lib/schemas/serviced-jobs";
import { allOf, ident, timestampParam } from "@/lib/domain/reports/sql";
import { listableJob } from "./money";

/**
 * The `where` of the job list, report and export (contract sections 5, 7): listable jobs,
 * Completed unless only_completed=false, inclusive service-date bounds (undated jobs drop out), customer.
 */
export function jobFilterSql(companyId: string, filters: ServicedJobFilters, alias = "j"): SQL {
  const j = ident(alias);
  return allOf([
    sql`${j}.company_id = ${companyId}`,
    listableJob(alias),
    // A literal, not a parameter: it must match the partial index jobs_completed_created_idx.
    filters.only_completed && sql`${j}.status = 'Completed'`,
    dateBound(filters) && serviceDateBoundsSql(filters, alias),
    filters.customer_id !== undefined && sql`${j}.customer_id = ${filters.customer_id}`,
  ]);
}

/**
 * Whether the filters name a customer. The kept counters have no customer dimension, so such a
 * request reads the customer's few jobs by index instead.
 */
export function customerBound(filters: ServicedJobFilters): boolean {
  return filters.customer_id !== undefined;
}

/** Whether the filters bound the service date. */
export function dateBound(filters: ServicedJobFilters): boolean {
  return Boolean(filters.service_date_range_start || filters.service_date_range_end);
}

/** The service-date bounds of jobFilterSql alone (`true` without a bound). */
export function serviceDateBoundsSql(filters: ServicedJobFilters, alias = "j"): SQL {
  const j = ident(alias);
  return allOf([
    filters.service_date_range_start &&
      sql`${j}.service_date >= ${timestampParam(filters.service_date_range_start)}`,
    filters.service_date_range_end &&
      sql`${j}.service_date <= ${timestampParam(filters.service_date_range_end)}`,
  ]);
}

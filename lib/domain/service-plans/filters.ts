import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { ServicePlanFilters } from "@/lib/schemas/service-plans";
import { allOf, ident, timestampParam } from "@/lib/domain/reports/sql";

/**
 * The `where` of the plan list, report and export (contract section 5): the company, then each
 * filter given. Range bounds are inclusive (a bare end date already means 23:59:59.999 UTC).
 */
export function planFilterSql(companyId: string, filters: ServicePlanFilters, alias = "p"): SQL {
  const p = ident(alias);
  return allOf([
    sql`${p}.company_id = ${companyId}`,
    filters.created_at_range_start &&
      sql`${p}.created_at >= ${timestampParam(filters.created_at_range_start)}`,
    filters.created_at_range_end && sql`${p}.created_at <= ${timestampParam(filters.created_at_range_end)}`,
    filters.frequency && sql`${p}.frequency = ${filters.frequency}`,
    filters.service_type !== undefined && sql`${p}.service_type = ${filters.service_type}`,
    filters.sold_by_user_id !== undefined && sql`${p}.sold_by = ${filters.sold_by_user_id}`,
    filters.customer_id !== undefined && sql`${p}.customer_id = ${filters.customer_id}`,
    filters.status && sql`${p}.active = ${sql.raw(filters.status === "active" ? "true" : "false")}`,
  ]);
}

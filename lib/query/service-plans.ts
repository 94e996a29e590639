"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch, type QueryValue } from "@/lib/query/api-client";
import type { ListServicePlansResponse, ServicePlan } from "@/lib/schemas/service-plans";

// Query hooks for the service plans table. Filters use the API's own parameter names, so the
// page, report endpoint and CSV export all get the same query.

export type { ServicePlan };

/** The filters of GET /api/service-plans as the page holds them (strings from the URL; "" = none). */
export interface ServicePlanFilterValues {
  created_at_range_start?: string;
  created_at_range_end?: string;
  frequency?: string;
  service_type?: string;
  sold_by_user_id?: string;
  status?: string;
  /** One customer's plans (the customer page). */
  customer_id?: string;
}

export const SERVICE_PLAN_FILTER_KEYS = [
  "created_at_range_start",
  "created_at_range_end",
  "frequency",
  "service_type",
  "sold_by_user_id",
  "status",
  "customer_id",
] as const satisfies readonly (keyof ServicePlanFilterValues)[];

/** The filters as query parameters, empty ones left out. */
export function servicePlanFilterQuery(filters: ServicePlanFilterValues): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const key of SERVICE_PLAN_FILTER_KEYS) if (filters[key]) out[key] = filters[key];
  return out;
}

export const servicePlanKeys = {
  all: ["service-plans"] as const,
  list: (filters: ServicePlanFilterValues, page: number, limit: number, sort = "") =>
    ["service-plans", "list", servicePlanFilterQuery(filters), page, limit, sort] as const,
};

/** A page of plans; `sort` is the API's ("" = newest first). */
export function useServicePlans(filters: ServicePlanFilterValues, page: number, limit: number, sort = "") {
  return useQuery({
    queryKey: servicePlanKeys.list(filters, page, limit, sort),
    queryFn: ({ signal }) =>
      apiFetch<ListServicePlansResponse>("/service-plans", {
        query: { ...servicePlanFilterQuery(filters), page, limit, sort: sort || undefined },
        signal,
      }),
    // The previous page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch, type QueryValue } from "@/lib/query/api-client";
import type { ListServicedJobsResponse, ServicedJob } from "@/lib/schemas/serviced-jobs";

/**
 * TanStack Query hooks for the jobs report's table, over `GET /api/serviced-jobs`. Filters use
 * the API's parameter names, shared with the report endpoint and the CSV export.
 */

export type { ServicedJob };
export type JobLineItem = ServicedJob["line_items"][number];
export type JobPayment = ServicedJob["payments"][number];

/** The filters of GET /api/serviced-jobs as the page holds them ("" = none). */
export interface ServicedJobFilterValues {
  /** "true" (the API's default) or "false". */
  only_completed?: string;
  service_date_range_start?: string;
  service_date_range_end?: string;
  /** One customer's jobs (the customer page). */
  customer_id?: string;
}

export const SERVICED_JOB_FILTER_KEYS = [
  "only_completed",
  "service_date_range_start",
  "service_date_range_end",
  "customer_id",
] as const satisfies readonly (keyof ServicedJobFilterValues)[];

export function servicedJobFilterQuery(filters: ServicedJobFilterValues): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const key of SERVICED_JOB_FILTER_KEYS) if (filters[key]) out[key] = filters[key];
  return out;
}

/** A page of the list: its number and size, and the API's `sort` ("" = newest first). */
export interface ServicedJobPage {
  page: number;
  limit: number;
  sort: string;
}

export const servicedJobKeys = {
  all: ["serviced-jobs"] as const,
  list: (filters: ServicedJobFilterValues, { page, limit, sort }: ServicedJobPage) =>
    ["serviced-jobs", "list", servicedJobFilterQuery(filters), page, limit, sort] as const,
};

export function useServicedJobs(filters: ServicedJobFilterValues, { page, limit, sort }: ServicedJobPage) {
  return useQuery({
    queryKey: servicedJobKeys.list(filters, { page, limit, sort }),
    queryFn: ({ signal }) =>
      apiFetch<ListServicedJobsResponse>("/serviced-jobs", {
        query: { ...servicedJobFilterQuery(filters), page, limit, sort: sort || undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

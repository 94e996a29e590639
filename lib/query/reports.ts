"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import {
  API_VERSION,
  ApiClientError,
  apiFetch,
  buildQuery,
  type FieldDetail,
  type QueryValue,
} from "@/lib/query/api-client";
import { servicePlanFilterQuery, type ServicePlanFilterValues } from "@/lib/query/service-plans";
import { servicedJobFilterQuery, type ServicedJobFilterValues } from "@/lib/query/serviced-jobs";
import type {
  FieldActivityReport,
  FieldActivityRow,
  ReportInterval,
  ServicePlanReport,
  ServicePlanReportResponse,
  ServicedJobReport,
  ServicedJobReportResponse,
} from "@/lib/schemas/reports";

/**
 * Every number the report pages show comes from the aggregate endpoints over the whole filtered set,
 * never a sum over the rows the browser happens to hold.
 */

export type { FieldActivityReport, FieldActivityRow, ReportInterval, ServicePlanReport, ServicedJobReport };

/** The knock-to-cash report's filters as the page keeps them (empty: not set). */
export interface FieldActivityFilterValues {
  from: string;
  to: string;
  territory_id: string;
}

export function fieldActivityFilterQuery(filters: FieldActivityFilterValues): Record<string, QueryValue> {
  return { from: filters.from, to: filters.to, territory_id: filters.territory_id };
}

export const reportKeys = {
  all: ["reports"] as const,
  servicePlans: (filters: ServicePlanFilterValues) =>
    ["reports", "service-plans", servicePlanFilterQuery(filters)] as const,
  servicedJobs: (filters: ServicedJobFilterValues, interval: ReportInterval) =>
    ["reports", "serviced-jobs", servicedJobFilterQuery(filters), interval] as const,
  fieldActivity: (filters: FieldActivityFilterValues) =>
    ["reports", "field-activity", fieldActivityFilterQuery(filters)] as const,
};

/** `enabled: false` for a viewer whose role cannot read the report (nothing is fetched). */
export interface ReportQueryOptions {
  enabled?: boolean;
}

export function useServicePlanReport(filters: ServicePlanFilterValues, options: ReportQueryOptions = {}) {
  return useQuery<ServicePlanReport>({
    enabled: options.enabled ?? true,
    queryKey: reportKeys.servicePlans(filters),
    queryFn: ({ signal }) =>
      apiFetch<ServicePlanReportResponse>("/reports/service-plans", {
        query: servicePlanFilterQuery(filters),
        signal,
      }).then((r) => r.data),
    placeholderData: keepPreviousData,
  });
}

export function useServicedJobReport(
  filters: ServicedJobFilterValues,
  interval: ReportInterval,
  options: ReportQueryOptions = {},
) {
  return useQuery<ServicedJobReport>({
    enabled: options.enabled ?? true,
    queryKey: reportKeys.servicedJobs(filters, interval),
    queryFn: ({ signal }) =>
      apiFetch<ServicedJobReportResponse>("/reports/serviced-jobs", {
        query: { ...servicedJobFilterQuery(filters), interval },
        signal,
      }).then((r) => r.data),
    placeholderData: keepPreviousData,
  });
}

export function useFieldActivityReport(filters: FieldActivityFilterValues, options: ReportQueryOptions = {}) {
  return useQuery<FieldActivityReport>({
    enabled: options.enabled ?? true,
    queryKey: reportKeys.fieldActivity(filters),
    queryFn: ({ signal }) =>
      apiFetch<FieldActivityReport>("/reports/field-activity", {
        query: fieldActivityFilterQuery(filters),
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** The reports with a CSV export, each with its filters. */
export type CsvExportRequest =
  | { kind: "service-plans"; filters: ServicePlanFilterValues }
  | { kind: "serviced-jobs"; filters: ServicedJobFilterValues }
  | { kind: "field-activity"; filters: FieldActivityFilterValues };

function exportQuery(request: CsvExportRequest): Record<string, QueryValue> {
  switch (request.kind) {
    case "service-plans":
      return servicePlanFilterQuery(request.filters);
    case "serviced-jobs":
      return servicedJobFilterQuery(request.filters);
    case "field-activity":
      return fieldActivityFilterQuery(request.filters);
  }
}

/**
 * Downloads a CSV export of the filtered set. The API wants the version header, which a plain
 * link cannot send, so the file is fetched and handed to the browser as a download.
 */
export async function downloadCsv(request: CsvExportRequest): Promise<void> {
  await downloadCsvFrom(`/reports/${request.kind}/export`, exportQuery(request), request.kind);
}

/** Downloads the CSV an export endpoint (`/api` + path) answers for the query; `name` if it names none. */
export async function downloadCsvFrom(
  path: string,
  query: Record<string, QueryValue>,
  name: string,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`/api${path}${buildQuery(query)}`, {
      headers: { "service-api-version": API_VERSION, accept: "text/csv" },
      credentials: "same-origin",
    });
  } catch {
    throw new ApiClientError(
      0,
      "Cannot reach the server. Check your connection and try again.",
      "NETWORK_ERROR",
    );
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as {
      message?: string;
      error_code?: string;
      details?: FieldDetail[];
    };
    throw new ApiClientError(
      response.status,
      body.message ?? `Export failed (${response.status})`,
      body.error_code,
      Array.isArray(body.details) ? body.details : [],
    );
  }
  const blob = await response.blob();
  const disposition = response.headers.get("content-disposition") ?? "";
  const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
  const filename = named ? decodeURIComponent(named) : `${name}-${new Date().toISOString().slice(0, 10)}.csv`;
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the blob goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

"use client";

import { useMemo } from "react";
import { MoneyBarChart } from "@/components/charts/money-bar-chart";
import { DataTable } from "@/components/data-table/data-table";
import { formatSort, parseSort } from "@/components/data-table/api-sort";
import { listQueryProps } from "@/components/data-table/query-props";
import { ChartCard } from "@/components/reports/chart-card";
import { ExportButton } from "@/components/reports/export-button";
import {
  ReportFilters,
  dateRangeControls,
  filterErrors,
  type FilterControl,
} from "@/components/reports/report-filters";
import { ReportPage } from "@/components/reports/report-page";
import { servicePlanColumns } from "@/components/reports/service-plan-columns";
import { SummaryCards, type SummaryCard } from "@/components/reports/summary-cards";
import { PLAN_FREQUENCIES } from "@/lib/values/enums";
import { formatMoney, formatNumber, formatPercent } from "@/lib/format";
import { useServicePlanReport } from "@/lib/query/reports";
import { useServicePlans, type ServicePlanFilterValues } from "@/lib/query/service-plans";
import { SERVICE_PLAN_SORT_FIELDS } from "@/lib/schemas/service-plans";
import { parseIntParam, useUrlState } from "@/lib/query/url-state";

/**
 * Filters live in the URL; numbers, charts and column sums come from GET /api/reports/service-plans (the
 * whole filtered set), the plans a page at a time from GET /api/service-plans.
 */

const URL_DEFAULTS = {
  created_at_range_start: "",
  created_at_range_end: "",
  frequency: "",
  service_type: "",
  sold_by_user_id: "",
  status: "",
  page: "1",
  limit: "50",
  sort: "",
};
const FILTER_KEYS = [
  "created_at_range_start",
  "created_at_range_end",
  "frequency",
  "service_type",
  "sold_by_user_id",
  "status",
] as const;

const SERIES = [
  { key: "sale_value", label: "Sale value", color: "var(--color-chart-sale)" },
  { key: "total_received", label: "Received", color: "var(--color-chart-received)" },
] as const;

export function ServicePlansReport() {
  const [view, setView] = useUrlState(URL_DEFAULTS);
  const page = parseIntParam(view.page, 1);
  const limit = parseIntParam(view.limit, 50, 1, 1000);
  // Query keys hash the values, so a new object per render does not refetch anything.
  const filters: ServicePlanFilterValues = Object.fromEntries(FILTER_KEYS.map((k) => [k, view[k]]));

  const report = useServicePlanReport(filters);
  // The choices of "Service type" and "Sold by": every value in the company, from the report
  // without filters (the filtered report would only list the chosen one).
  const choices = useServicePlanReport({});
  // Sorted on the server by the API's `sort`, kept in the URL; none: newest created first.
  const sorting = parseSort(view.sort, SERVICE_PLAN_SORT_FIELDS);
  const plans = useServicePlans(filters, page, limit, formatSort(sorting));
  const data = report.data;

  // Customer, frequency and seller are not orders the API offers: their headers do not sort.
  const columns = useMemo(
    () =>
      servicePlanColumns(data).map((column) => ({
        ...column,
        enableSorting: (SERVICE_PLAN_SORT_FIELDS as readonly string[]).includes(
          column.id ?? ("accessorKey" in column ? String(column.accessorKey) : ""),
        ),
      })),
    [data],
  );

  const controls: FilterControl[] = [
    ...dateRangeControls(view, "created_at", "Created", filterErrors(report.error)),
    {
      kind: "select",
      key: "frequency",
      label: "Frequency",
      value: view.frequency,
      placeholder: "All frequencies",
      options: PLAN_FREQUENCIES.map((f) => ({ value: f, label: f })),
    },
    {
      kind: "select",
      key: "service_type",
      label: "Service type",
      value: view.service_type,
      placeholder: "All service types",
      options: withSelected(
        (choices.data?.by_service_type ?? [])
          .filter((s) => s.service_type)
          .map((s) => ({ value: s.service_type, label: s.service_type }))
          .sort((a, b) => a.label.localeCompare(b.label)),
        view.service_type,
      ),
    },
    {
      kind: "select",
      key: "sold_by_user_id",
      label: "Sold by",
      value: view.sold_by_user_id,
      placeholder: "Everyone",
      options: withSelected(
        (choices.data?.by_sales_rep ?? [])
          .filter((r) => r.sold_by.user_id)
          .map((r) => ({ value: r.sold_by.user_id, label: r.sold_by.name || r.sold_by.email }))
          .sort((a, b) => a.label.localeCompare(b.label)),
        view.sold_by_user_id,
      ),
    },
    {
      kind: "select",
      key: "status",
      label: "Status",
      value: view.status,
      placeholder: "Any status",
      options: [
        { value: "active", label: "Active" },
        { value: "inactive", label: "Inactive" },
      ],
    },
  ];
  const anyFilter = FILTER_KEYS.some((k) => view[k]);

  const moneyCards: SummaryCard[] = [
    { key: "plan_count", label: "Plans", value: data?.plan_count, display: formatNumber(data?.plan_count) },
    {
      key: "sale_value",
      label: "Sale value",
      value: data?.sale_value,
      display: formatMoney(data?.sale_value),
    },
    {
      key: "total_received",
      label: "Received",
      value: data?.total_received,
      display: formatMoney(data?.total_received),
      tone: "good",
    },
    {
      key: "collection_rate",
      label: "Collection rate",
      value: data?.collection_rate,
      display: formatPercent(data?.collection_rate),
      hint: "Received ÷ sale value",
    },
  ];
  const jobCards: SummaryCard[] = [
    {
      key: "num_completed_jobs",
      label: "Completed jobs",
      value: data?.num_completed_jobs,
      display: formatNumber(data?.num_completed_jobs),
    },
    {
      key: "num_scheduled_jobs",
      label: "Scheduled jobs",
      value: data?.num_scheduled_jobs,
      display: formatNumber(data?.num_scheduled_jobs),
      hint: "Including completed",
    },
    {
      key: "num_pending_jobs",
      label: "Pending jobs",
      value: data?.num_pending_jobs,
      display: formatNumber(data?.num_pending_jobs),
      hint: "Planned, not yet scheduled",
      tone: "warn",
    },
  ];

  const byFrequency = (data?.by_frequency ?? []).map((f) => ({
    name: f.frequency,
    sale_value: f.sale_value,
    total_received: f.total_received,
  }));
  const byServiceType = (data?.by_service_type ?? []).map((s) => ({
    name: s.service_type || "(none)",
    sale_value: s.sale_value,
    total_received: s.total_received,
  }));
  const leaderboard = (data?.by_sales_rep ?? []).slice(0, 10).map((r) => ({
    name: r.sold_by.name || r.sold_by.email || "No seller",
    total_received: r.total_received,
    sale_value: r.sale_value,
  }));

  return (
    <ReportPage
      title="Service plans"
      description="Plan revenue and jobs for every plan matching the filters."
      actions={<ExportButton kind="service-plans" filters={filters} />}
      filters={
        <ReportFilters
          controls={controls}
          onChange={(key, value) => setView({ [key]: value || null, page: null })}
          onClear={
            anyFilter
              ? () => setView(Object.fromEntries([...FILTER_KEYS, "page"].map((k) => [k, null])))
              : undefined
          }
        />
      }
      report={report}
      summary={
        <>
          <div className="flex flex-col gap-3">
            <SummaryCards label="Plan totals" cards={moneyCards} loading={report.isFetching} />
            <SummaryCards
              label="Job totals"
              cards={jobCards}
              loading={report.isFetching}
              className="sm:grid-cols-3"
            />
          </div>
          <div className="grid gap-4 xl:grid-cols-2">
            <ChartCard title="Sale value and received by frequency">
              <MoneyBarChart
                label="Sale value and received by frequency"
                data={byFrequency}
                series={SERIES}
                layout="auto"
              />
            </ChartCard>
            <ChartCard title="By service type">
              <MoneyBarChart
                label="Sale value and received by service type"
                data={byServiceType}
                series={SERIES}
                layout="horizontal"
              />
            </ChartCard>
            <ChartCard
              title="Sales rep leaderboard"
              description="By money collected"
              className="xl:col-span-2"
            >
              <MoneyBarChart
                label="Sales reps by money collected"
                data={leaderboard}
                series={[SERIES[1], SERIES[0]]}
                layout="horizontal"
              />
            </ChartCard>
          </div>
        </>
      }
      table={
        <DataTable
          label="Service plans"
          columns={columns}
          {...listQueryProps(plans)}
          getRowId={(p) => p.id}
          emptyState="No service plans match these filters."
          storageKey="report-service-plans"
          sorting={sorting}
          onSortingChange={(next) => setView({ sort: formatSort(next) || null, page: null })}
          pagination={{
            page,
            pageSize: limit,
            total: plans.data?.pagination.total,
            noun: "plans",
            onChange: (nextPage, nextLimit) => setView({ page: nextPage, limit: nextLimit }),
          }}
        />
      }
    />
  );
}

/** Keeps the selected value among the choices even before (or without) the choices loading. */
function withSelected(options: { value: string; label: string }[], selected: string) {
  if (!selected || options.some((o) => o.value === selected)) return options;
  return [{ value: selected, label: selected }, ...options];
}

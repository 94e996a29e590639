"use client";

import type { ColumnDef, SortingState } from "@tanstack/react-table";
import { useMemo } from "react";
import { MoneyBarChart } from "@/components/charts/money-bar-chart";
import { MoneyTimeChart } from "@/components/charts/money-time-chart";
import { DataTable } from "@/components/data-table/data-table";
import { formatSort, parseSort } from "@/components/data-table/api-sort";
import { listQueryProps } from "@/components/data-table/query-props";
import { ChartCard } from "@/components/reports/chart-card";
import { ExportButton } from "@/components/reports/export-button";
import { jobColumns } from "@/components/reports/job-columns";
import { JobDetails } from "@/components/reports/job-details";
import {
  ReportFilters,
  dateRangeControls,
  filterErrors,
  type FilterControl,
} from "@/components/reports/report-filters";
import { ReportPage } from "@/components/reports/report-page";
import { SummaryCards, type SummaryCard } from "@/components/reports/summary-cards";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { formatMoney, formatNumber } from "@/lib/format";
import { useServicedJobReport, type ReportInterval } from "@/lib/query/reports";
import { useServicedJobs, type ServicedJobFilterValues } from "@/lib/query/serviced-jobs";
import { parseIntParam, useUrlState } from "@/lib/query/url-state";
import { SERVICED_JOB_SORT_FIELDS } from "@/lib/schemas/serviced-jobs";

// Jobs report: totals, charts and column sums from GET /api/reports/serviced-jobs; the jobs a page
// at a time from GET /api/serviced-jobs, sorted by the API's `sort` kept in the URL.

const URL_DEFAULTS = {
  only_completed: "true",
  service_date_range_start: "",
  service_date_range_end: "",
  interval: "month",
  page: "1",
  limit: "50",
  sort: "",
};

/** The jobs table's order without a sort in the URL. */
const NEWEST_SERVICE_FIRST: SortingState = [{ id: "service_date", desc: true }];

const isDefaultSorting = (sorting: SortingState) => formatSort(sorting) === formatSort(NEWEST_SERVICE_FIRST);

/**
 * A header click that would clear the order while the default is shown turns it around instead,
 * since a cleared order is the default again.
 */
function nextSorting(current: SortingState, next: SortingState): SortingState {
  if (next.length === 0 && isDefaultSorting(current)) return [{ id: "service_date", desc: false }];
  return next;
}

const SERIES = [
  { key: "total_received", label: "Received", color: "var(--color-chart-received)" },
  { key: "total_outstanding", label: "Outstanding", color: "var(--color-chart-outstanding)" },
] as const;

export function JobsReport() {
  const [view, setView] = useUrlState(URL_DEFAULTS);
  const page = parseIntParam(view.page, 1);
  const limit = parseIntParam(view.limit, 50, 1, 1000);
  const interval: ReportInterval = view.interval === "week" ? "week" : "month";
  const filters: ServicedJobFilterValues = {
    only_completed: view.only_completed === "false" ? "false" : "true",
    service_date_range_start: view.service_date_range_start,
    service_date_range_end: view.service_date_range_end,
  };

  const report = useServicedJobReport(filters, interval);
  // Fields the API does not sort by are left out; none: the newest service date first (the API
  // breaks ties by id), which the Service date header shows.
  const chosen = parseSort(view.sort, SERVICED_JOB_SORT_FIELDS);
  const sorting = chosen.length > 0 ? chosen : NEWEST_SERVICE_FIRST;
  const jobs = useServicedJobs(filters, { page, limit, sort: formatSort(sorting) });
  const data = report.data;
  const columns = useMemo(() => jobColumns(data), [data]);

  const controls: FilterControl[] = [
    {
      kind: "select",
      key: "only_completed",
      label: "Show",
      value: filters.only_completed ?? "true",
      options: [
        { value: "true", label: "Completed jobs only" },
        { value: "false", label: "All jobs" },
      ],
    },
    ...dateRangeControls(view, "service_date", "Service", filterErrors(report.error)),
  ];
  const anyFilter =
    view.only_completed === "false" || Boolean(view.service_date_range_start || view.service_date_range_end);

  const cards: SummaryCard[] = [
    { key: "job_count", label: "Jobs", value: data?.job_count, display: formatNumber(data?.job_count) },
    {
      key: "total",
      label: "Billed",
      value: data?.total,
      display: formatMoney(data?.total),
      hint: "Line item totals",
    },
    {
      key: "total_received",
      label: "Received",
      value: data?.total_received,
      display: formatMoney(data?.total_received),
      tone: "good",
    },
    {
      key: "total_outstanding",
      label: "Outstanding",
      value: data?.total_outstanding,
      display: formatMoney(data?.total_outstanding),
      tone: "warn",
    },
  ];

  const overTime = (data?.over_time ?? [])
    .filter((p) => p.period_start !== null)
    .map((p) => ({
      period: p.period_start as string,
      total_received: p.total_received,
      total_outstanding: p.total_outstanding,
    }));
  const byTechnician = (data?.by_technician ?? []).slice(0, 12).map((t) => ({
    name: t.technician.name || t.technician.email || "Unassigned",
    total_received: t.total_received,
    total_outstanding: t.total_outstanding,
  }));
  const undated = data?.over_time.find((p) => p.period_start === null);

  return (
    <ReportPage
      title="Jobs"
      description="Serviced jobs: what was billed, received and is still outstanding."
      actions={<ExportButton kind="serviced-jobs" filters={filters} />}
      filters={
        <ReportFilters
          controls={controls}
          onChange={(key, value) => setView({ [key]: value || null, page: null })}
          onClear={
            anyFilter
              ? () =>
                  setView({
                    only_completed: null,
                    service_date_range_start: null,
                    service_date_range_end: null,
                    page: null,
                  })
              : undefined
          }
        />
      }
      report={report}
      summary={
        <>
          <SummaryCards label="Job totals" cards={cards} loading={report.isFetching} />
          <ChartCard
            title="Received and outstanding over time"
            description={
              undated
                ? `By service date. ${formatNumber(undated.job_count)} jobs without a visit are not in the chart.`
                : "By service date."
            }
            actions={<IntervalSwitch value={interval} onChange={(next) => setView({ interval: next })} />}
          >
            <MoneyTimeChart
              label={`Received and outstanding per ${interval}`}
              data={overTime}
              series={SERIES}
              granularity={interval}
            />
          </ChartCard>
          <ChartCard title="By technician" description="A job worked by two technicians counts for both.">
            <MoneyBarChart
              label="Received and outstanding by technician"
              data={byTechnician}
              series={SERIES}
              layout="horizontal"
            />
          </ChartCard>
        </>
      }
      table={
        <DataTable
          label="Jobs"
          columns={columns}
          {...listQueryProps(jobs)}
          getRowId={(j) => j.id}
          emptyState="No jobs match these filters."
          storageKey="report-jobs"
          getRowCanExpand={() => true}
          renderExpandedRow={(row) => <JobDetails job={row.original} />}
          sorting={sorting}
          onSortingChange={(next) =>
            setView({ sort: formatSort(nextSorting(sorting, next)) || null, page: null })
          }
          toolbar={
            <SortNote
              sorting={sorting}
              columns={columns}
              onReset={() => setView({ sort: null, page: null })}
            />
          }
          pagination={{
            page,
            pageSize: limit,
            total: jobs.data?.pagination.total,
            noun: "jobs",
            onChange: (nextPage, nextLimit) => setView({ page: nextPage, limit: nextLimit }),
          }}
        />
      }
    />
  );
}

/**
 * The table's order in words: on a phone the sorted header may be scrolled out of view. Reset
 * goes back to the newest service date first.
 */
function SortNote<T>({
  sorting,
  columns,
  onReset,
}: {
  sorting: SortingState;
  // TanStack's ColumnDef value type differs per column (as in DataTable's props).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<T, any>[];
  onReset: () => void;
}) {
  const label = (id: string) => {
    const column = columns.find((c) => (c.id ?? ("accessorKey" in c ? c.accessorKey : undefined)) === id);
    return typeof column?.header === "string" ? column.header : id;
  };
  const order = sorting.map((s) => `${label(s.id)}, ${s.desc ? "descending" : "ascending"}`).join("; then ");
  return (
    <div className="flex min-h-9 items-center gap-2 text-sm text-slate-600">
      <p role="status">{isDefaultSorting(sorting) ? "Newest service date first" : `Sorted by ${order}`}</p>
      {isDefaultSorting(sorting) ? null : (
        <Button variant="ghost" size="sm" onClick={onReset}>
          Newest service date first
        </Button>
      )}
    </div>
  );
}

/** Week / month, as a pair of radio buttons. */
function IntervalSwitch({
  value,
  onChange,
}: {
  value: ReportInterval;
  onChange: (v: ReportInterval) => void;
}) {
  const options: { value: ReportInterval; label: string }[] = [
    { value: "week", label: "Week" },
    { value: "month", label: "Month" },
  ];
  return (
    <div role="radiogroup" aria-label="Period" className="inline-flex rounded-md bg-slate-100 p-0.5">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          role="radio"
          aria-checked={value === option.value}
          onClick={() => onChange(option.value)}
          className={cn(
            "rounded px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600",
            value === option.value
              ? "bg-white text-slate-900 shadow-sm"
              : "text-slate-600 hover:text-slate-900",
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

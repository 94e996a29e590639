"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { formatDate, formatDateTime, formatMoney } from "@/lib/format";
import type { ServicedJobReport } from "@/lib/query/reports";
import type { ServicedJob } from "@/lib/query/serviced-jobs";
import { customerName } from "@/lib/values/customer-name";
import { Sum, TotalLabel, summedColumn } from "./report-columns";

/**
 * Footer sums cover the whole filtered set (report endpoint). A column's id is its GET /serviced-jobs
 * `sort` field where it has one; money sorts largest first on the first click.
 */

const col = createColumnHelper<ServicedJob>();

const STATUS_TONES: Record<string, BadgeTone> = {
  Completed: "success",
  Scheduled: "info",
  "In Progress": "brand",
  Unscheduled: "neutral",
  Cancelled: "danger",
};

export function JobStatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? "neutral"}>{status}</Badge>;
}

/**
 * "report": the jobs report's table (a row opens its details; the customer and the time of day
 * shown). "customer": a customer's own jobs (neither; the date always shown, its names wrap).
 */
export type JobColumnsView = "report" | "customer";

export function jobColumns(report: ServicedJobReport | undefined, view: JobColumnsView = "report") {
  const inReport = view === "report";
  const jobCount = report?.job_count;
  const reportOnly = [
    col.display({
      id: "expand",
      header: () => <span className="sr-only">Details</span>,
      meta: { alwaysVisible: true, label: "Details", cellClassName: "w-10 pr-0" },
      cell: ({ row }) => {
        const open = row.getIsExpanded();
        return (
          <button
            type="button"
            onClick={row.getToggleExpandedHandler()}
            aria-expanded={open}
            aria-controls={`row-details-${row.id}`}
            aria-label={`${open ? "Hide" : "Show"} line items and payments of the job for ${customerName(row.original.customer)}`}
            className="-my-1 inline-flex size-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <svg
              viewBox="0 0 20 20"
              className={cn("size-4 transition-transform", open && "rotate-90")}
              aria-hidden="true"
            >
              <path d="M7 5l5 5-5 5" fill="none" stroke="currentColor" strokeWidth="2" />
            </svg>
          </button>
        );
      },
      footer: () => null,
    }),
  ];
  return [
    ...(inReport ? reportOnly : []),
    col.accessor("service_date", {
      header: "Service date",
      sortDescFirst: false,
      meta: { alwaysVisible: !inReport, cellClassName: "whitespace-nowrap" },
      cell: (info) => (inReport ? formatDateTime(info.getValue()) : formatDate(info.getValue())),
      footer: () => <TotalLabel count={jobCount} noun={inReport || jobCount !== 1 ? "jobs" : "job"} />,
    }),
    ...(inReport
      ? [
          col.accessor((j) => customerName(j.customer), {
            id: "customer",
            header: "Customer",
            enableSorting: false,
            meta: { alwaysVisible: true, cellClassName: "min-w-40 font-medium text-slate-900" },
          }),
        ]
      : []),
    col.accessor("status", {
      header: "Status",
      sortDescFirst: false,
      cell: (info) => <JobStatusBadge status={info.getValue()} />,
    }),
    col.accessor((j) => j.technicians.map((t) => t.name || t.email).join(", "), {
      id: "technicians",
      header: "Technicians",
      enableSorting: false,
      meta: { wrap: !inReport, cellClassName: "min-w-36" },
      cell: (info) =>
        info.getValue() || <span className={inReport ? "text-slate-400" : "text-slate-500"}>—</span>,
    }),
    {
      ...summedColumn<ServicedJob>({
        id: "total",
        header: "Total",
        value: (j) => j.total,
        sum: report?.total,
        money: true,
      }),
      sortDescFirst: true,
    },
    {
      ...summedColumn<ServicedJob>({
        id: "total_received",
        header: "Received",
        value: (j) => j.total_received,
        sum: report?.total_received,
        money: true,
      }),
      sortDescFirst: true,
    },
    col.accessor("total_outstanding", {
      header: "Outstanding",
      sortDescFirst: true,
      meta: { align: "right" },
      cell: (info) => (
        <span className={inReport && info.getValue() > 0 ? "text-amber-700" : undefined}>
          {formatMoney(info.getValue())}
        </span>
      ),
      footer: () => <Sum name="total_outstanding" value={report?.total_outstanding} money />,
    }),
  ];
}

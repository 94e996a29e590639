"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { formatDate, formatMoney, formatNumber } from "@/lib/format";
import type { ServicePlanReport } from "@/lib/query/reports";
import type { ServicePlan } from "@/lib/query/service-plans";

/**
 * Columns of the plans table. The footer row holds the sums over the whole filtered set, from
 * the report endpoint (not a sum of the page), so it reads the report given to the builder.
 */

const col = createColumnHelper<ServicePlan>();

export function planCustomerName(customer: ServicePlan["customer"]): string {
  const person = `${customer.first_name} ${customer.last_name}`.trim();
  return customer.company_name || person || customer.id;
}

/** A footer cell: the report's number, marked for tests, or "…" while it loads. */
function Sum({ name, value, money }: { name: string; value: number | undefined; money?: boolean }) {
  if (value === undefined) return <span className="text-slate-400">…</span>;
  return (
    <span data-testid={`sum-${name}`} data-value={value}>
      {money ? formatMoney(value) : formatNumber(value)}
    </span>
  );
}

export function servicePlanColumns(report: ServicePlanReport | undefined) {
  return [
    col.accessor((p) => planCustomerName(p.customer), {
      id: "customer",
      header: "Customer",
      meta: { alwaysVisible: true },
      cell: (info) => (
        // "Inactive" under the name rather than beside it keeps the table narrow enough for a laptop.
        <span className="block">
          <span className="block font-medium text-slate-900">{info.getValue()}</span>
          {info.row.original.active ? null : (
            <span className="block text-xs text-slate-500">Inactive plan</span>
          )}
        </span>
      ),
      footer: () => (
        <span className="font-semibold">
          Total
          {report ? (
            <span className="font-normal text-slate-500"> ({formatNumber(report.plan_count)} plans)</span>
          ) : null}
        </span>
      ),
    }),
    col.accessor("service_frequency", { header: "Frequency", meta: { cellClassName: "whitespace-nowrap" } }),
    col.accessor("service_type", {
      header: "Service type",
      cell: (info) => info.getValue() || <span className="text-slate-400">—</span>,
    }),
    col.accessor((p) => p.sold_by.name || p.sold_by.email, {
      id: "sold_by",
      header: "Sold by",
      cell: (info) => info.getValue() || <span className="text-slate-400">—</span>,
    }),
    col.accessor("start_date", {
      header: "Start date",
      meta: { cellClassName: "whitespace-nowrap" },
      cell: (info) => formatDate(info.getValue()),
    }),
    col.accessor("sale_value", {
      header: "Sale value",
      meta: { align: "right" },
      cell: (info) => formatMoney(info.getValue()),
      footer: () => <Sum name="sale_value" value={report?.sale_value} money />,
    }),
    col.accessor("total_received", {
      header: "Received",
      meta: { align: "right" },
      cell: (info) => formatMoney(info.getValue()),
      footer: () => <Sum name="total_received" value={report?.total_received} money />,
    }),
    col.accessor("num_completed_jobs", {
      header: "Completed",
      meta: { align: "right" },
      cell: (info) => formatNumber(info.getValue()),
      footer: () => <Sum name="num_completed_jobs" value={report?.num_completed_jobs} />,
    }),
    col.accessor("num_scheduled_jobs", {
      header: "Scheduled",
      meta: { align: "right" },
      cell: (info) => formatNumber(info.getValue()),
      footer: () => <Sum name="num_scheduled_jobs" value={report?.num_scheduled_jobs} />,
    }),
    col.accessor("num_pending_jobs", {
      header: "Pending",
      meta: { align: "right" },
      cell: (info) => formatNumber(info.getValue()),
      footer: () => <Sum name="num_pending_jobs" value={report?.num_pending_jobs} />,
    }),
  ];
}

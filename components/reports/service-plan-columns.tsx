"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { formatDate } from "@/lib/format";
import { customerName } from "@/lib/values/customer-name";
import type { ServicePlanReport } from "@/lib/query/reports";
import type { ServicePlan } from "@/lib/query/service-plans";
import { TotalLabel, summedColumn } from "./report-columns";

/**
 * Columns of the plans table. The footer row holds the sums over the whole filtered set, from
 * the report endpoint (not a sum of the page), so it reads the report given to the builder.
 */

const col = createColumnHelper<ServicePlan>();

/** A plan's start date, sale value and money received, the report's sums in the footer. */
export function planMoneyColumns(report: ServicePlanReport | undefined) {
  return [
    col.accessor("start_date", {
      header: "Start date",
      meta: { cellClassName: "whitespace-nowrap" },
      cell: (info) => formatDate(info.getValue()),
    }),
    summedColumn<ServicePlan>({
      id: "sale_value",
      header: "Sale value",
      value: (p) => p.sale_value,
      sum: report?.sale_value,
      money: true,
    }),
    summedColumn<ServicePlan>({
      id: "total_received",
      header: "Received",
      value: (p) => p.total_received,
      sum: report?.total_received,
      money: true,
    }),
  ];
}

export function servicePlanColumns(report: ServicePlanReport | undefined) {
  return [
    col.accessor((p) => customerName(p.customer), {
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
      footer: () => <TotalLabel count={report?.plan_count} noun="plans" />,
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
    ...planMoneyColumns(report),
    summedColumn<ServicePlan>({
      id: "num_completed_jobs",
      header: "Completed",
      value: (p) => p.num_completed_jobs,
      sum: report?.num_completed_jobs,
    }),
    summedColumn<ServicePlan>({
      id: "num_scheduled_jobs",
      header: "Scheduled",
      value: (p) => p.num_scheduled_jobs,
      sum: report?.num_scheduled_jobs,
    }),
    summedColumn<ServicePlan>({
      id: "num_pending_jobs",
      header: "Pending",
      value: (p) => p.num_pending_jobs,
      sum: report?.num_pending_jobs,
    }),
  ];
}

"use client";

import { createColumnHelper } from "@tanstack/react-table";
import { DataTable, type DataTableProps } from "@/components/data-table/data-table";
import { listQueryProps } from "@/components/data-table/query-props";
import { jobColumns } from "@/components/reports/job-columns";
import { METHOD_LABELS, PaymentStatusBadge } from "@/components/reports/job-details";
import { TotalLabel, summedColumn } from "@/components/reports/report-columns";
import { planMoneyColumns } from "@/components/reports/service-plan-columns";
import { SummaryCards, type SummaryCard } from "@/components/reports/summary-cards";
import { Badge, Notice } from "@/components/ui";
import { formatDate, formatMoney, formatNumber } from "@/lib/format";
import {
  useServicePlanReport,
  useServicedJobReport,
  type ServicePlanReport,
  type ServicedJobReport,
} from "@/lib/query/reports";
import { useServicePlans, type ServicePlan } from "@/lib/query/service-plans";
import { useServicedJobs, type JobPayment, type ServicedJob } from "@/lib/query/serviced-jobs";
import { useCan } from "@/lib/query/session";

// The customer page's money, all from the API's lists and reports filtered by `customer_id`, so
// totals are the database's, never summed here. Sections the role cannot read are left out.

/** Rows per list: a customer's plans and jobs fit in one request; more is said, not hidden. */
const LIST_LIMIT = 1000;

export function CustomerMoney({ customerId }: { customerId: string }) {
  const canPlans = useCan("service_plans:read");
  const canJobs = useCan("jobs:read");
  const planReport = useServicePlanReport({ customer_id: customerId }, { enabled: canPlans });
  // Every status: a scheduled or cancelled job's money is the customer's too.
  const jobFilters = { customer_id: customerId, only_completed: "false" };
  const jobReport = useServicedJobReport(jobFilters, "month", { enabled: canJobs });
  if (!canPlans && !canJobs) return null;

  const plans = planReport.data;
  const jobs = jobReport.data;
  const cards: SummaryCard[] = [
    ...(canPlans
      ? [
          {
            key: "sale_value",
            label: "Sale value",
            value: plans?.sale_value,
            display: formatMoney(plans?.sale_value),
            hint: plans ? counted(plans.plan_count, "service plan", "service plans") : undefined,
          },
        ]
      : []),
    ...(canJobs
      ? [
          {
            key: "total",
            label: "Billed",
            value: jobs?.total,
            display: formatMoney(jobs?.total),
            hint: jobs ? counted(jobs.job_count, "job", "jobs") : undefined,
          },
          {
            key: "total_received",
            label: "Received",
            value: jobs?.total_received,
            display: formatMoney(jobs?.total_received),
            hint: "Payments less refunds",
            tone: "good" as const,
          },
          {
            key: "total_outstanding",
            label: "Outstanding balance",
            value: jobs?.total_outstanding,
            display: formatMoney(jobs?.total_outstanding),
            tone: "warn" as const,
          },
        ]
      : []),
  ];

  return (
    <section
      aria-labelledby="customer-money-heading"
      className="mt-8 flex flex-col gap-6"
      data-testid="customer-money"
    >
      <h2 id="customer-money-heading" className="text-lg font-semibold text-slate-900">
        Service and billing
      </h2>
      <SummaryCards
        label="Customer totals"
        cards={cards}
        loading={planReport.isFetching || jobReport.isFetching}
        className={cards.length === 4 ? "lg:grid-cols-4" : "sm:grid-cols-3"}
      />
      {canPlans ? <CustomerPlans customerId={customerId} report={plans} /> : null}
      {canJobs ? <CustomerJobs filters={jobFilters} report={jobs} /> : null}
    </section>
  );
}

const planCol = createColumnHelper<ServicePlan>();

function planColumns(report: ServicePlanReport | undefined) {
  return [
    planCol.accessor("service_frequency", {
      header: "Plan",
      meta: { alwaysVisible: true },
      footer: () => (
        <TotalLabel count={report?.plan_count} noun={report?.plan_count === 1 ? "plan" : "plans"} />
      ),
      cell: (info) => (
        <span className="block">
          <span className="block font-medium text-slate-900">{info.getValue()}</span>
          <span className="block text-xs text-slate-500">
            {[info.row.original.service_type, info.row.original.active ? null : "Inactive"]
              .filter(Boolean)
              .join(" · ") || "—"}
          </span>
        </span>
      ),
    }),
    ...planMoneyColumns(report),
    summedColumn<ServicePlan>({
      id: "visits_done",
      header: "Visits done",
      value: (p) => p.num_completed_jobs,
      sum: report?.num_completed_jobs,
    }),
    summedColumn<ServicePlan>({
      id: "visits_left",
      header: "Visits left",
      value: (p) => p.num_pending_jobs,
      sum: report?.num_pending_jobs,
    }),
  ];
}

function CustomerPlans({
  customerId,
  report,
}: {
  customerId: string;
  report: ServicePlanReport | undefined;
}) {
  const query = useServicePlans({ customer_id: customerId }, 1, LIST_LIMIT);
  return (
    <div>
      <PartTable
        label="Service plans"
        description="Visits done are completed jobs; visits left are planned visits not yet scheduled."
        columns={planColumns(report)}
        {...listQueryProps(query)}
        getRowId={(p) => p.id}
        emptyState="No service plans."
        cardLayout={{
          title: "service_frequency",
          fields: ["sale_value", "total_received", "visits_done", "visits_left"],
        }}
      />
      <MoreThanShown shown={query.data?.data.length} total={query.data?.pagination.total} noun="plans" />
    </div>
  );
}

/** A payment or refund with the job it was made on. */
type PaymentRow = JobPayment & { job: ServicedJob };

const paymentCol = createColumnHelper<PaymentRow>();

const paymentColumns = [
  paymentCol.accessor("payment_date", {
    header: "Date",
    meta: { alwaysVisible: true, cellClassName: "whitespace-nowrap" },
    cell: (info) => formatDate(info.getValue()),
  }),
  paymentCol.accessor("payment_type", {
    header: "Type",
    cell: (info) =>
      info.getValue() === "refund" ? <Badge tone="warning">Refund</Badge> : <span>Payment</span>,
  }),
  paymentCol.accessor("payment_method", {
    header: "Method",
    cell: (info) => METHOD_LABELS[info.getValue()] ?? info.getValue(),
  }),
  paymentCol.accessor("status", {
    header: "Status",
    cell: (info) => <PaymentStatusBadge status={info.getValue()} />,
  }),
  paymentCol.accessor((p) => p.job.service_date, {
    id: "job",
    header: "Job date",
    meta: { cellClassName: "whitespace-nowrap" },
    cell: (info) => formatDate(info.getValue()),
  }),
  paymentCol.accessor((p) => (p.payment_type === "refund" ? -p.amount : p.amount), {
    id: "amount",
    header: "Amount",
    meta: { align: "right" },
    cell: (info) => formatMoney(info.getValue()),
  }),
];

/** Newest first; undated ones last. */
function paymentRows(jobs: ServicedJob[] | undefined): PaymentRow[] | undefined {
  if (!jobs) return undefined;
  return jobs
    .flatMap((job) => job.payments.map((payment) => ({ ...payment, job })))
    .sort((a, b) =>
      a.payment_date === b.payment_date
        ? 0
        : a.payment_date === null
          ? 1
          : b.payment_date === null
            ? -1
            : b.payment_date.localeCompare(a.payment_date),
    );
}

function CustomerJobs({
  filters,
  report,
}: {
  filters: { customer_id: string; only_completed: string };
  report: ServicedJobReport | undefined;
}) {
  const query = useServicedJobs(filters, { page: 1, limit: LIST_LIMIT, sort: "" });
  const jobs = query.data?.data;
  const listed = listQueryProps(query);
  return (
    <>
      <div>
        <PartTable
          label="Jobs"
          description="Every job but quotes, newest first. Outstanding is what is billed and not yet received."
          columns={jobColumns(report, "customer")}
          {...listed}
          getRowId={(j) => j.id}
          emptyState="No jobs."
          cardLayout={{
            title: "service_date",
            fields: ["status", "technicians", "total", "total_received", "total_outstanding"],
          }}
        />
        <MoreThanShown shown={jobs?.length} total={query.data?.pagination.total} noun="jobs" />
      </div>
      <PartTable
        label="Payments and refunds"
        description="Of the jobs above. Only succeeded payments and refunds count toward what was received."
        columns={paymentColumns}
        {...listed}
        data={paymentRows(jobs)}
        getRowId={(p) => p.id}
        emptyState="No payments."
        cardLayout={{
          title: "amount",
          fields: ["payment_date", "payment_type", "payment_method", "status"],
        }}
      />
    </>
  );
}

/**
 * One part of the section: a table as tall as its rows, its heading (named as the table) and a
 * line on what it holds in the toolbar row, beside the table's Columns menu.
 */
function PartTable<TData>({ description, ...table }: DataTableProps<TData> & { description: string }) {
  return (
    <DataTable
      {...table}
      fitRows
      toolbar={
        <div className="min-w-0">
          <h3 className="text-base font-semibold text-slate-900">{table.label}</h3>
          <p className="mt-0.5 text-sm text-slate-500">{description}</p>
        </div>
      }
    />
  );
}

/** "1 job", "3 jobs". */
function counted(count: number, one: string, many: string): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/** Said when a list holds more than one request brings (the totals above still count them all). */
function MoreThanShown({
  shown,
  total,
  noun,
}: {
  shown: number | undefined;
  total: number | undefined;
  noun: string;
}) {
  if (shown === undefined || total === undefined || shown >= total) return null;
  return (
    <Notice tone="info" className="mt-3">
      The newest {formatNumber(shown)} of {formatNumber(total)} {noun} are listed; the totals count them all.
    </Notice>
  );
}

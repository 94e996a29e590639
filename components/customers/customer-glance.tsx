"use client";

import { Card, CardBody, CardHeader, LoadingBlock } from "@/components/ui";
import { formatDateTime, formatMoney } from "@/lib/format";
import { useServicedJobReport } from "@/lib/query/reports";
import { useServicedJobs } from "@/lib/query/serviced-jobs";
import { useCan } from "@/lib/query/session";

/** Visits still to come, by status: a completed or cancelled job is not one. */
const UPCOMING = new Set(["Unscheduled", "Scheduled", "In Progress"]);
const SHOWN = 5;

/** Today as YYYY-MM-DD in the browser's zone: visits from today on are upcoming. */
function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * The top of a customer's page: what they owe and their next visits, from the API's report and
 * list filtered by the customer (the same report the money section below reads).
 */
export function CustomerGlance({ customerId }: { customerId: string }) {
  // Without jobs:read there is neither a balance nor a visit this user may see.
  return useCan("jobs:read") ? <Glance customerId={customerId} /> : null;
}

function Glance({ customerId }: { customerId: string }) {
  const report = useServicedJobReport({ customer_id: customerId, only_completed: "false" }, "month");
  const upcoming = useServicedJobs(
    { customer_id: customerId, only_completed: "false", service_date_range_start: today() },
    { page: 1, limit: 20, sort: "service_date" },
  );
  const visits = (upcoming.data?.data ?? []).filter((job) => UPCOMING.has(job.status)).slice(0, SHOWN);
  const balance = report.data?.total_outstanding;

  return (
    <div className="mb-4 grid gap-4 sm:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]">
      <Card aria-labelledby="customer-balance">
        <CardHeader id="customer-balance" title="Balance" />
        <CardBody>
          <p
            className={
              balance ? "text-2xl font-semibold text-amber-800" : "text-2xl font-semibold text-slate-900"
            }
            data-testid="customer-balance"
          >
            {report.isPending ? "…" : formatMoney(balance ?? 0)}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            {balance ? "Outstanding on this customer's jobs" : "Nothing outstanding"}
          </p>
        </CardBody>
      </Card>
      <Card aria-labelledby="customer-upcoming">
        <CardHeader id="customer-upcoming" title="Upcoming visits" />
        <CardBody>
          {upcoming.isPending ? (
            <LoadingBlock label="Loading the upcoming visits" />
          ) : visits.length === 0 ? (
            <p className="text-sm text-slate-600" data-testid="customer-upcoming">
              No visits scheduled.
            </p>
          ) : (
            <ul className="divide-y divide-slate-100" data-testid="customer-upcoming">
              {visits.map((job) => (
                <li key={job.id} className="flex flex-wrap items-baseline justify-between gap-2 py-2 text-sm">
                  <span className="font-medium text-slate-900">
                    {job.service_date ? formatDateTime(job.service_date) : "No date yet"}
                  </span>
                  <span className="text-slate-600">
                    {[
                      job.status,
                      job.technicians.map((t) => t.name).join(", ") || null,
                      formatMoney(job.total),
                    ]
                      .filter(Boolean)
                      .join(" · ")}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </CardBody>
      </Card>
    </div>
  );
}

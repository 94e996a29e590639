import { Badge } from "@/components/ui/badge";
import { formatDate, formatMoney } from "@/lib/format";
import type { ServicedJob } from "@/lib/query/serviced-jobs";

export const METHOD_LABELS: Record<string, string> = {
  card: "Card",
  ach: "ACH",
  cash: "Cash",
  check: "Check",
  other: "Other",
};

/** A payment's status: only succeeded ones count toward what was received. */
export function PaymentStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={status === "succeeded" ? "success" : status === "failed" ? "danger" : "neutral"}>
      {status}
    </Badge>
  );
}

/** The expanded part of a job row: its line items and its payments. */
export function JobDetails({ job }: { job: ServicedJob }) {
  return (
    // On a phone the table scrolls sideways: the details stay in view at the screen's width.
    <div
      className="sticky left-3 grid max-w-[calc(100vw-4.5rem)] gap-4 py-1 lg:grid-cols-2"
      data-testid="job-details"
    >
      <section aria-label="Line items" className="min-w-0">
        <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">Line items</h3>
        {job.line_items.length === 0 ? (
          <p className="text-sm text-slate-500">No line items.</p>
        ) : (
          <table className="w-full text-sm" data-testid="job-line-items">
            <thead className="sr-only">
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Price</th>
              </tr>
            </thead>
            <tbody>
              {job.line_items.map((item) => (
                <tr key={item.id} className="border-b border-slate-200/70 last:border-0">
                  <td className="py-1.5 pr-3 whitespace-normal">
                    <span className="font-medium text-slate-800">{item.title}</span>
                    {item.description ? (
                      <span className="block text-slate-500">{item.description}</span>
                    ) : null}
                  </td>
                  <td className="py-1.5 text-right align-top tabular-nums">
                    {formatMoney(item.total_price)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-label="Payments" className="min-w-0">
        <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase">Payments</h3>
        {job.payments.length === 0 ? (
          <p className="text-sm text-slate-500">No payments.</p>
        ) : (
          <table className="w-full text-sm" data-testid="job-payments">
            <thead className="sr-only">
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Method</th>
                <th scope="col">Status</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {job.payments.map((payment) => (
                <tr key={payment.id} className="border-b border-slate-200/70 last:border-0">
                  <td className="py-1.5 pr-3 whitespace-nowrap">{formatDate(payment.payment_date)}</td>
                  <td className="py-1.5 pr-3">
                    {METHOD_LABELS[payment.payment_method] ?? payment.payment_method}
                    {payment.payment_type === "refund" ? (
                      <Badge tone="warning" className="ml-1.5">
                        Refund
                      </Badge>
                    ) : null}
                  </td>
                  <td className="py-1.5 pr-3">
                    <PaymentStatusBadge status={payment.status} />
                  </td>
                  <td className="py-1.5 text-right tabular-nums">
                    {formatMoney(payment.payment_type === "refund" ? -payment.amount : payment.amount)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

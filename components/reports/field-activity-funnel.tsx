import { formatMoney, formatNumber, formatPercent } from "@/lib/format";
import {
  funnelCash,
  funnelSteps,
  type FieldActivityConversion,
  type FieldActivityTotals,
  type FunnelStep,
} from "./field-activity-numbers";

/**
 * Knock to cash as bars, each count with its conversion from the step before, money set apart. The numbers
 * are written beside the bars, so nothing is told by length or color alone.
 */
export function FieldActivityFunnel({
  totals,
  conversion,
}: {
  totals: FieldActivityTotals;
  conversion: FieldActivityConversion;
}) {
  const steps = funnelSteps(totals, conversion);
  const cash = funnelCash(totals, conversion);
  return (
    <div className="flex flex-col gap-3">
      <ol aria-label="Funnel from knocks to customers" className="flex flex-col gap-3">
        {steps.map((step, index) => (
          <FunnelRow
            key={step.key}
            testId={`funnel-${step.key}`}
            value={step.value}
            label={step.label}
            display={formatNumber(step.value)}
            share={step.share}
            barClassName="bg-brand-500"
            note={conversionNote(step, steps[index - 1])}
          />
        ))}
      </ol>
      <div className="border-t border-slate-100 pt-3">
        <FunnelRow
          as="div"
          testId="funnel-collected"
          value={cash.collected}
          label="Collected"
          display={formatMoney(cash.collected)}
          displayClassName="text-emerald-700"
          share={Math.min(cash.rate ?? 0, 1)}
          barClassName="bg-emerald-600"
          note={
            cash.rate === null
              ? "No sales in this range"
              : `${formatPercent(cash.rate)} of ${formatMoney(cash.saleValue)} sold`
          }
        />
      </div>
    </div>
  );
}

function conversionNote(step: FunnelStep, previous: FunnelStep | undefined): string {
  if (!previous) return "Doors knocked";
  if (step.conversion === null) return `No ${previous.noun} to convert`;
  return `${formatPercent(step.conversion)} of ${previous.noun}`;
}

function FunnelRow({
  as: Tag = "li",
  testId,
  value,
  label,
  display,
  displayClassName = "text-slate-900",
  share,
  barClassName,
  note,
}: {
  as?: "li" | "div";
  testId: string;
  value: number;
  label: string;
  display: string;
  displayClassName?: string;
  share: number;
  barClassName: string;
  note: string;
}) {
  return (
    <Tag
      data-testid={testId}
      data-value={value}
      // Phones: the name and number, the conversion beside them (wrapping, never the number),
      // and a full-width bar under both.
      className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-1 sm:grid-cols-[9rem_minmax(0,1fr)_12rem]"
    >
      <span className="flex min-w-0 items-baseline gap-2 sm:flex-col sm:gap-0">
        <span className="text-sm text-slate-600">{label}</span>
        <span className={`whitespace-nowrap text-lg font-semibold tabular-nums ${displayClassName}`}>
          {display}
        </span>
      </span>
      <span className="order-last col-span-2 h-6 overflow-hidden rounded bg-slate-100 sm:order-none sm:col-span-1">
        <span
          aria-hidden="true"
          className={`block h-full rounded ${barClassName}`}
          // At least a sliver, so a step with a few of many still shows it exists.
          style={{ width: value > 0 ? `max(0.25rem, ${(share * 100).toFixed(2)}%)` : 0 }}
        />
      </span>
      <span className="text-right text-sm text-slate-600 sm:text-left">{note}</span>
    </Tag>
  );
}

import type { ComponentProps } from "react";
import type { Legend, Tooltip } from "recharts";
import { formatMoney } from "@/lib/format";

// What the money charts share. Recharts finds its parts by their own component types, so these
// are props to spread onto them, not wrappers.

/** One bar per row and series: the row's field, its name in the legend, its colour. */
export interface MoneySeries<K extends string> {
  key: K;
  label: string;
  color: string;
}

/** In place of a chart when the filters leave no data. */
export function ChartEmpty() {
  return (
    <div
      className="flex items-center justify-center rounded-md bg-slate-50 text-sm text-slate-500"
      style={{ height: 160 }}
    >
      No data for these filters
    </div>
  );
}

/** The tooltip lists the series in their order (not recharts' alphabetical one), amounts as money. */
export function moneyTooltipProps<K extends string>(series: readonly MoneySeries<K>[]) {
  return {
    itemSorter: (item) => series.findIndex((x) => x.key === item.dataKey),
    formatter: (value) => formatMoney(typeof value === "number" ? value : Number(value)),
    cursor: { fill: "rgb(148 163 184 / 0.15)" },
  } satisfies ComponentProps<typeof Tooltip>;
}

/** The legend, in the order of the series (not alphabetical, recharts' default). */
export function seriesLegendProps<K extends string>(series: readonly MoneySeries<K>[]) {
  return {
    wrapperStyle: { fontSize: 12 },
    itemSorter: (item) => series.findIndex((x) => x.key === item.dataKey),
    formatter: (value: string) => <span className="text-slate-700">{value}</span>,
  } satisfies ComponentProps<typeof Legend>;
}

/** An axis of amounts, in short form ($1.2K). */
export const MONEY_AXIS = {
  tickFormatter: (v: number) => formatMoney(v, { compact: true }),
  tick: { fontSize: 12, fill: "var(--color-slate-600)" },
};

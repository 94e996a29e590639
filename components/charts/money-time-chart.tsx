"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatPeriod } from "@/lib/format";
import {
  ChartEmpty,
  MONEY_AXIS,
  type MoneySeries,
  moneyTooltipProps,
  seriesLegendProps,
} from "./chart-parts";

/**
 * Money per period (week or month), stacked: e.g. received and outstanding per period of service.
 * Periods are ISO instants (the period's first day, 00:00 UTC); labels are in the user's locale.
 */

export type TimeRow<K extends string> = { period: string } & Record<K, number>;

interface Props<K extends string> {
  label: string;
  data: readonly TimeRow<K>[];
  series: readonly MoneySeries<K>[];
  granularity: "week" | "month";
  height?: number;
}

export function MoneyTimeChart<K extends string>({
  label,
  data,
  series,
  granularity,
  height = 280,
}: Props<K>) {
  if (data.length === 0) {
    return <ChartEmpty />;
  }
  return (
    <div role="img" aria-label={label} style={{ height }} className="w-full min-w-0">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data as TimeRow<K>[]} margin={{ top: 4, right: 12, bottom: 4, left: 4 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--color-slate-200)" vertical={false} />
          <XAxis
            dataKey="period"
            tickFormatter={(v: string) => formatPeriod(v, granularity)}
            tick={{ fontSize: 12, fill: "var(--color-slate-700)" }}
            minTickGap={16}
          />
          <YAxis width={64} {...MONEY_AXIS} />
          <Tooltip
            {...moneyTooltipProps(series)}
            labelFormatter={(v) => formatPeriod(String(v), granularity)}
          />
          <Legend {...seriesLegendProps(series)} />
          {series.map((s) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.label}
              stackId="money"
              fill={s.color}
              maxBarSize={40}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

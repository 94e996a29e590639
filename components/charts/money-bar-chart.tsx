"use client";

import { useEffect, useRef, useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import {
  ChartEmpty,
  MONEY_AXIS,
  type MoneySeries,
  moneyTooltipProps,
  seriesLegendProps,
} from "./chart-parts";

// Bars of money per category, one bar per series; `layout="horizontal"` puts categories down the
// side for long names and leaderboards.

export type MoneyRow<K extends string> = { name: string } & Record<K, number>;

interface Props<K extends string> {
  /** What the chart shows, for screen readers (the numbers are also in the table below it). */
  label: string;
  data: readonly MoneyRow<K>[];
  series: readonly MoneySeries<K>[];
  /**
   * vertical: categories along the bottom; horizontal: categories down the side; auto: vertical
   * where the chart is wide enough for the category names, horizontal on narrow screens.
   */
  layout?: "vertical" | "horizontal" | "auto";
  /** Height in pixels; horizontal charts grow with the number of categories. */
  height?: number;
}

/** Below this width per category, names along the bottom would overlap. */
const MIN_CATEGORY_WIDTH = 84;

export function MoneyBarChart<K extends string>({
  label,
  data,
  series,
  layout = "vertical",
  height,
}: Props<K>) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || layout !== "auto") return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? null));
    observer.observe(element);
    return () => observer.disconnect();
  }, [layout]);
  const horizontal =
    layout === "horizontal" ||
    (layout === "auto" && width !== null && width < data.length * MIN_CATEGORY_WIDTH + 80);
  const chartHeight =
    height ?? (horizontal ? Math.max(160, 44 + data.length * (series.length * 14 + 14)) : 280);
  return (
    // The outer box is always there, so its width is known before the first data arrives.
    <div ref={box} className="w-full min-w-0">
      {data.length === 0 ? (
        <ChartEmpty />
      ) : (
        <div role="img" aria-label={label} style={{ height: chartHeight }} className="w-full">
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              data={data as MoneyRow<K>[]}
              layout={horizontal ? "vertical" : "horizontal"}
              margin={{ top: 4, right: 12, bottom: 4, left: 4 }}
              barGap={2}
            >
              <CartesianGrid
                strokeDasharray="3 3"
                stroke="var(--color-slate-200)"
                horizontal={!horizontal}
                vertical={horizontal}
              />
              {horizontal ? (
                <>
                  <XAxis type="number" {...MONEY_AXIS} />
                  <YAxis
                    type="category"
                    dataKey="name"
                    width={112}
                    tick={{ fontSize: 12, fill: "var(--color-slate-700)" }}
                    tickFormatter={(v: string) => (v.length > 16 ? `${v.slice(0, 15)}…` : v)}
                  />
                </>
              ) : (
                <>
                  <XAxis
                    dataKey="name"
                    tick={{ fontSize: 12, fill: "var(--color-slate-700)" }}
                    interval={0}
                    tickFormatter={(v: string) => (v.length > 12 ? `${v.slice(0, 11)}…` : v)}
                  />
                  <YAxis width={64} {...MONEY_AXIS} />
                </>
              )}
              <Tooltip {...moneyTooltipProps(series)} />
              <Legend {...seriesLegendProps(series)} />
              {series.map((s) => (
                <Bar
                  key={s.key}
                  dataKey={s.key}
                  name={s.label}
                  fill={s.color}
                  radius={horizontal ? [0, 3, 3, 0] : [3, 3, 0, 0]}
                  maxBarSize={28}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
    </div>
  );
}

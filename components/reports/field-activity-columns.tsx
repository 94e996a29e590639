"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { formatNumber } from "@/lib/format";
import type { FieldActivityReport, FieldActivityRow } from "@/lib/query/reports";
import type { OutcomeColumn } from "./field-activity-numbers";
import { TotalLabel, summedColumn } from "./report-columns";

/**
 * Columns of the knock-to-cash leaderboard: a rep, knocks, leads, won, customers and money, then
 * their knocks by outcome (a column per pin type, in its color); the report's totals in the footer.
 */

/** A report row with its place on the leaderboard (the API's order: by money collected). */
export type LeaderboardRow = FieldActivityRow & { rank: number };

const OUTCOME_PREFIX = "outcome:";
export const outcomeColumnId = (pinTypeId: string) => `${OUTCOME_PREFIX}${pinTypeId}`;

/** A row's value in a column, for sorting (the same numbers the cells show). */
export function leaderboardValue(row: LeaderboardRow, columnId: string): number | string {
  if (columnId === "rep") return repName(row);
  if (columnId.startsWith(OUTCOME_PREFIX))
    return row.knocks_by_pin_type[columnId.slice(OUTCOME_PREFIX.length)] ?? 0;
  const value = (row as unknown as Record<string, unknown>)[columnId];
  return typeof value === "number" ? value : 0;
}

export const repName = (row: FieldActivityRow) => row.user.name || row.user.email || row.user.user_id;

/** A pin type's color beside its name: the color helps, the name says it (not color alone). */
export function OutcomeChip({ outcome, count }: { outcome: OutcomeColumn; count?: number }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span
        aria-hidden="true"
        className="size-2.5 shrink-0 rounded-full ring-1 ring-slate-900/15"
        style={{ backgroundColor: outcome.color }}
      />
      <span>{outcome.label}</span>
      {count !== undefined ? <span className="font-medium tabular-nums">{formatNumber(count)}</span> : null}
    </span>
  );
}

type Totals = FieldActivityReport["totals"] | undefined;

export function fieldActivityColumns(
  totals: Totals,
  repCount: number | undefined,
  outcomes: readonly OutcomeColumn[],
  // Each column has its own value type; `any` is how TanStack's docs type a mixed list.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): ColumnDef<LeaderboardRow, any>[] {
  const counted = (id: "knocks" | "leads" | "won" | "customers", header: string) =>
    summedColumn<LeaderboardRow>({ id, header, value: (row) => row[id], sum: totals?.[id] });
  const money = (id: "sale_value" | "collected", header: string) =>
    summedColumn<LeaderboardRow>({ id, header, value: (row) => row[id], sum: totals?.[id], money: true });
  return [
    {
      id: "rep",
      header: "Rep",
      accessorFn: (row) => repName(row),
      sortDescFirst: false,
      meta: {
        alwaysVisible: true,
        // On a phone's card: the rank, the name and the knocks by outcome under it.
        cardCell: (row) => (
          <span className="block">
            <span className="font-semibold text-slate-900">
              <span className="text-slate-500">{row.rank}.</span> {repName(row)}
            </span>
            <span className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700">
              {outcomes
                .filter((o) => (row.knocks_by_pin_type[o.pinTypeId] ?? 0) > 0)
                .map((o) => (
                  <OutcomeChip key={o.pinTypeId} outcome={o} count={row.knocks_by_pin_type[o.pinTypeId]} />
                ))}
            </span>
          </span>
        ),
      },
      // The place and the name alone, no column or email line of their own: that keeps the
      // table within a laptop's width (the CSV has the email).
      cell: (info) => (
        <span>
          <span className="text-slate-500 tabular-nums">{info.row.original.rank}.</span>{" "}
          <span data-testid="rep-name" className="font-medium text-slate-900">
            {info.getValue()}
          </span>
        </span>
      ),
      footer: () => <TotalLabel count={repCount} noun={repCount === 1 ? "rep" : "reps"} />,
    },
    counted("knocks", "Knocks"),
    counted("leads", "Leads"),
    counted("won", "Won"),
    counted("customers", "Customers"),
    money("sale_value", "Sale value"),
    money("collected", "Collected"),
    // The knocks by outcome last: detail of the Knocks column, which scrolls into view when the
    // company has many outcomes, while the funnel's numbers stay in sight.
    ...outcomes.map((outcome) =>
      summedColumn<LeaderboardRow>({
        id: outcomeColumnId(outcome.pinTypeId),
        header: () => <OutcomeChip outcome={outcome} />,
        meta: { label: outcome.label, wrapHeader: true },
        value: (row) => row.knocks_by_pin_type[outcome.pinTypeId] ?? 0,
        sum: totals ? (totals.knocks_by_pin_type[outcome.pinTypeId] ?? 0) : undefined,
      }),
    ),
  ];
}

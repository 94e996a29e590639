"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { formatMoney, formatNumber } from "@/lib/format";

/**
 * What the report tables share: the footer row holds the sums over the whole filtered set, from
 * the report endpoint (not a sum of the page), so each column builder reads the report.
 */

/** A footer cell: the report's number, marked for tests, or "…" while it loads. */
export function Sum({ name, value, money }: { name: string; value: number | undefined; money?: boolean }) {
  if (value === undefined) return <span className="text-slate-400">…</span>;
  return (
    <span data-testid={`sum-${name}`} data-value={value}>
      {money ? formatMoney(value) : formatNumber(value)}
    </span>
  );
}

/** The footer's first cell: "Total (123 jobs)"; the count once the report is there. */
export function TotalLabel({ count, noun }: { count: number | undefined; noun: string }) {
  return (
    <span className="font-semibold">
      Total
      {count !== undefined ? (
        <span className="font-normal text-slate-600">
          {" "}
          ({formatNumber(count)} {noun})
        </span>
      ) : null}
    </span>
  );
}

/**
 * A right-aligned column of amounts (`money`) or counts, each row's value formatted, the
 * report's sum in the footer (`sum-<id>` for tests).
 */
export function summedColumn<T>({
  id,
  header,
  value,
  sum,
  money = false,
  meta,
}: {
  id: string;
  /** A string, or a function for a header that is more than words (then give `meta.label`). */
  header: ColumnDef<T, number>["header"];
  value: (row: T) => number;
  sum: number | undefined;
  money?: boolean;
  meta?: ColumnDef<T, number>["meta"];
}): ColumnDef<T, number> {
  return {
    id,
    header,
    accessorFn: value,
    meta: { ...meta, align: "right" },
    cell: (info) => (money ? formatMoney(info.getValue()) : formatNumber(info.getValue())),
    footer: () => <Sum name={id} value={sum} money={money} />,
  };
}

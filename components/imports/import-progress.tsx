"use client";

import { formatNumber } from "@/lib/format";
import type { ImportResponse } from "@/lib/query/imports";
import { progressPercent } from "./import-steps";

/**
 * A running dry run's or import's progress: a bar and the rows done. Screen readers hear it in
 * steps of 10 % (a polite live region), not at every poll.
 */
export function ImportProgress({
  label,
  progress,
}: {
  /** "Checking the file", "Importing": the bar's name. */
  label: string;
  progress: ImportResponse["progress"];
}) {
  const percent = progressPercent(progress);
  const known = progress.total > 0;
  return (
    <div className="space-y-2" data-testid="import-progress">
      <div className="flex items-baseline justify-between gap-4 text-sm">
        <p className="text-slate-700 tabular-nums" data-testid="import-progress-text">
          {!known
            ? "Starting…"
            : progress.done === 0
              ? `Starting on ${formatNumber(progress.total)} rows…`
              : `${formatNumber(progress.done)} of ${formatNumber(progress.total)} rows`}
        </p>
        <p className="font-medium text-slate-900 tabular-nums" aria-hidden="true">
          {known ? `${percent}%` : null}
        </p>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={known ? percent : undefined}
        aria-valuetext={known ? `${percent}%` : "Starting"}
        className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-brand-600 transition-[width] duration-500"
          style={{ width: `${known ? percent : 0}%` }}
        />
      </div>
      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {label}: {known ? `${Math.floor(percent / 10) * 10}%` : "starting"}
      </p>
    </div>
  );
}

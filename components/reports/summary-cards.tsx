import { cn } from "@/components/ui/cn";

export interface SummaryCard {
  /** Stable key; also the card's test id (`summary-<key>`). */
  key: string;
  label: string;
  /** The number as the API gave it (kept in data-value for tests and tools). */
  value: number | null | undefined;
  /** The number formatted for people (through lib/format). */
  display: string;
  hint?: string;
  tone?: "default" | "good" | "warn";
}

/** The report's headline numbers, over the whole filtered set. */
export function SummaryCards({
  cards,
  loading,
  label,
  className = "lg:grid-cols-4",
}: {
  cards: readonly SummaryCard[];
  loading: boolean;
  /** Names the group for screen readers (e.g. "Totals"). */
  label: string;
  /** Columns from the small breakpoint up; phones show two per row (an odd last card spans both). */
  className?: string;
}) {
  return (
    <dl
      aria-label={label}
      aria-busy={loading}
      className={cn("grid grid-cols-2 gap-3 max-sm:[&>*:last-child:nth-child(odd)]:col-span-2", className)}
    >
      {cards.map((card) => (
        <div
          key={card.key}
          data-testid={`summary-${card.key}`}
          data-value={card.value ?? ""}
          className="min-w-0 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm"
        >
          <dt className="truncate text-xs font-medium tracking-wide text-slate-500 uppercase">
            {card.label}
          </dt>
          <dd
            className={cn(
              "mt-1 truncate text-xl font-semibold tabular-nums sm:text-2xl",
              card.tone === "good"
                ? "text-emerald-700"
                : card.tone === "warn"
                  ? "text-amber-700"
                  : "text-slate-900",
              loading && card.value === undefined && "animate-pulse text-slate-300",
            )}
          >
            {card.value === undefined ? "…" : card.display}
          </dd>
          {card.hint ? <dd className="mt-0.5 truncate text-xs text-slate-500">{card.hint}</dd> : null}
        </div>
      ))}
    </dl>
  );
}

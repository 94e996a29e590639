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
export function SummaryCards({ cards, loading }: { cards: readonly SummaryCard[]; loading: boolean }) {
  return (
    <dl
      className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-[repeat(auto-fit,minmax(9.5rem,1fr))]"
      aria-busy={loading}
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

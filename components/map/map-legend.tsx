"use client";

import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { useMediaQuery } from "@/components/ui/use-media-query";
import { formatNumber } from "@/lib/format";
import type { PinType } from "@/lib/query/pins";

export interface LegendEntry {
  type: PinType;
  /** Pins of this type in the loaded (filtered) set. */
  count: number;
  visible: boolean;
}

interface Props {
  entries: readonly LegendEntry[];
  onToggle: (typeId: string) => void;
  onShowAll: () => void;
  /** Pins on the map now (visible types only). */
  renderedCount: number;
}

const WIDE = "(min-width: 768px)";

/**
 * Pin types with their color and count; a click hides or shows a type. The counts are also in
 * data attributes so the end-to-end test can read what the canvas draws.
 */
export function MapLegend({ entries, onToggle, onShowAll, renderedCount }: Props) {
  // Open on a desktop; folded on a phone so the map stays usable, until the user decides.
  const wide = useMediaQuery(WIDE, true);
  const [choice, setChoice] = useState<boolean | null>(null);
  const open = choice ?? wide;
  const hiddenCount = entries.filter((e) => !e.visible).length;
  return (
    <section
      aria-label="Legend"
      data-testid="map-legend"
      data-rendered-pins={renderedCount}
      className="absolute top-2.5 right-2.5 z-[1000] w-56 max-w-[calc(100%-5rem)] max-sm:w-40 rounded-md bg-white/95 text-sm shadow-md ring-1 ring-slate-900/10"
    >
      <button
        type="button"
        className="flex w-full items-center justify-between gap-2 rounded-md px-3 py-2 text-left font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        aria-expanded={open}
        aria-controls="map-legend-items"
        onClick={() => setChoice(!open)}
      >
        <span>
          Legend <span className="font-normal text-slate-500">({formatNumber(renderedCount)} pins)</span>
        </span>
        <svg
          viewBox="0 0 20 20"
          className={cn("size-4 text-slate-500 transition-transform", open && "rotate-180")}
          aria-hidden="true"
        >
          <path d="M5 8l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      </button>
      <div id="map-legend-items" hidden={!open} className="border-t border-slate-200 px-1 py-1">
        {entries.length === 0 ? <p className="px-2 py-1.5 text-slate-500">No pin types</p> : null}
        <ul className="max-h-[45vh] overflow-y-auto">
          {entries.map(({ type, count, visible }) => (
            <li key={type.id}>
              <button
                type="button"
                role="switch"
                aria-checked={visible}
                data-pin-type-id={type.id}
                data-count={count}
                data-visible={visible}
                onClick={() => onToggle(type.id)}
                title={visible ? `Hide ${type.label}` : `Show ${type.label}`}
                className={cn(
                  "flex min-h-9 w-full items-center gap-2 rounded px-2 py-1 text-left hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600",
                  !visible && "text-slate-400",
                )}
              >
                <span
                  aria-hidden="true"
                  className="size-3.5 shrink-0 rounded-full ring-2 ring-white"
                  style={{
                    background: visible ? type.color : "transparent",
                    boxShadow: `0 0 0 1.5px ${type.color}`,
                  }}
                />
                <span className={cn("min-w-0 flex-1 truncate", !visible && "line-through")}>
                  {type.label}
                </span>
                <span className="tabular-nums text-slate-500">{formatNumber(count)}</span>
              </button>
            </li>
          ))}
        </ul>
        {hiddenCount > 0 ? (
          <button
            type="button"
            onClick={onShowAll}
            className="mt-1 w-full rounded px-2 py-1.5 text-left text-xs font-medium text-brand-700 hover:bg-slate-100"
          >
            Show all types
          </button>
        ) : null}
      </div>
    </section>
  );
}

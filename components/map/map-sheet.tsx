"use client";

import { useEffect, useRef } from "react";
import { cn } from "@/components/ui/cn";
import type { PinType } from "@/lib/query/pins";
import { textColorOn } from "./pin-colors";

/**
 * The map's sheet: a bottom sheet on a phone (the thumb reaches it; the map stays visible
 * above), a panel at the map's left on a wider screen (the legend keeps the right).
 */
export function MapSheet({
  title,
  onClose,
  children,
  testId,
  compact = false,
}: {
  title: React.ReactNode;
  onClose: () => void;
  children: React.ReactNode;
  testId: string;
  /** On a phone, a lower sheet: the map above it stays in reach (a shape being edited). */
  compact?: boolean;
}) {
  const ref = useRef<HTMLElement>(null);
  // Esc closes the sheet, as it would a dialog; an Esc in a dialog opened from the sheet (a
  // question, a confirmation) is that dialog's.
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const key = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || (e.target instanceof Element && e.target.closest("dialog[open]"))) return;
      // Handled: the browser must not also close a dialog that closing opens ("Discard changes?").
      e.preventDefault();
      onClose();
    };
    node.addEventListener("keydown", key);
    return () => node.removeEventListener("keydown", key);
  }, [onClose]);
  return (
    <section
      ref={ref}
      aria-label={typeof title === "string" ? title : undefined}
      data-testid={testId}
      data-map-sheet=""
      className={cn(
        "fixed inset-x-0 bottom-0 z-[1100] overflow-y-auto rounded-t-2xl bg-white px-4 pt-3",
        compact ? "max-h-[55dvh]" : "max-h-[72dvh]",
        "pb-[max(1rem,env(safe-area-inset-bottom))] shadow-[0_-6px_24px_rgb(0_0_0/0.2)] ring-1 ring-slate-900/10",
        "md:absolute md:inset-x-auto md:top-2.5 md:bottom-auto md:left-14 md:max-h-[calc(100%-1.25rem)] md:w-96 md:rounded-xl md:pb-4",
      )}
    >
      <div className="mx-auto mb-2 h-1.5 w-10 rounded-full bg-slate-300 md:hidden" aria-hidden="true" />
      <div className="mb-3 flex items-start justify-between gap-3">
        <h2 className="min-w-0 pt-2 text-base font-semibold text-slate-900">{title}</h2>
        <button
          type="button"
          onClick={onClose}
          className="-mr-2 inline-flex size-11 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
          aria-label="Close"
        >
          <svg viewBox="0 0 20 20" className="size-5" aria-hidden="true">
            <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" fill="none" />
          </svg>
        </button>
      </div>
      {children}
    </section>
  );
}

/**
 * The company's pin types as large colored buttons, each in its color with readable text; a tap
 * chooses (and saves) that outcome.
 */
export function OutcomeButtons({
  types,
  current,
  disabled,
  onChoose,
  label,
}: {
  types: readonly PinType[];
  /** The pin's type now (marked, and not offered again). */
  current?: string;
  disabled?: boolean;
  onChoose: (type: PinType) => void;
  label: string;
}) {
  return (
    <div
      role="group"
      aria-label={label}
      className={cn("grid gap-2", types.length > 4 ? "grid-cols-3" : "grid-cols-2")}
    >
      {types.map((type) => {
        const isCurrent = type.id === current;
        return (
          <button
            key={type.id}
            type="button"
            disabled={disabled || isCurrent}
            aria-pressed={current === undefined ? undefined : isCurrent}
            data-pin-type-id={type.id}
            onClick={() => onChoose(type)}
            className={cn(
              "flex min-h-14 items-center justify-center rounded-lg px-2 py-2 text-center text-[15px] leading-tight font-semibold shadow-sm",
              "focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-slate-900 disabled:cursor-not-allowed",
              isCurrent ? "ring-4 ring-slate-900/70 ring-offset-2" : "disabled:opacity-50",
            )}
            style={{ background: type.color, color: textColorOn(type.color) }}
          >
            {type.label}
            {isCurrent ? <span className="sr-only"> (current)</span> : null}
          </button>
        );
      })}
    </div>
  );
}

"use client";

import type { Column, Table } from "@tanstack/react-table";
import { useEffect, useId, useRef, useState } from "react";

/** Name of a column in the menu: meta.label, else a string header, else its id. */
export function columnLabel<TData>(column: Column<TData, unknown>): string {
  const header = column.columnDef.header;
  return column.columnDef.meta?.label ?? (typeof header === "string" ? header : column.id);
}

/**
 * The "Columns" button: a small panel of checkboxes (one per hideable column). Escape or a click
 * outside closes it and focus returns to the button.
 */
export function ColumnVisibilityMenu<TData>({ table }: { table: Table<TData> }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const columns = table.getAllLeafColumns().filter((c) => c.getCanHide() && !c.columnDef.meta?.alwaysVisible);
  const hiddenCount = columns.filter((c) => !c.getIsVisible()).length;

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  if (columns.length === 0) return null;

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((v) => !v)}
        className="inline-flex h-9 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-500"
      >
        Columns
        {hiddenCount > 0 ? <span className="text-xs text-slate-500">({hiddenCount} hidden)</span> : null}
      </button>
      {open ? (
        <div
          id={panelId}
          className="absolute right-0 z-30 mt-1 w-56 rounded-md border border-slate-200 bg-white p-2 shadow-lg"
        >
          <fieldset>
            <legend className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">
              Show columns
            </legend>
            {columns.map((column) => (
              <label
                key={column.id}
                className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-slate-50"
              >
                <input
                  type="checkbox"
                  checked={column.getIsVisible()}
                  onChange={(e) => column.toggleVisibility(e.target.checked)}
                  className="size-4 accent-brand-600"
                />
                {columnLabel(column)}
              </label>
            ))}
          </fieldset>
          <button
            type="button"
            onClick={() => table.toggleAllColumnsVisible(true)}
            className="mt-1 w-full rounded px-2 py-1.5 text-left text-sm text-brand-700 hover:bg-brand-50"
          >
            Show all
          </button>
        </div>
      ) : null}
    </div>
  );
}

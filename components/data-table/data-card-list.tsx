"use client";

import { type Row, type Table, flexRender } from "@tanstack/react-table";
import type { MouseEvent } from "react";
import { Label, Select } from "@/components/ui";
import { columnLabel } from "./column-visibility-menu";
import type { CardLayout } from "./types";

/**
 * The rows of a DataTable as cards, for phones: the same TanStack table (rows, cells, sorting),
 * so a card shows exactly what the row's cells show, a column's `meta.cardCell` aside.
 */

/** A row's cell by column id; hidden columns too (the Columns menu is the table's, not the cards'). */
function renderCell<TData>(row: Row<TData>, columnId: string) {
  const cell = row.getAllCells().find((c) => c.column.id === columnId);
  if (!cell) return null;
  const cardCell = cell.column.columnDef.meta?.cardCell;
  return cardCell ? cardCell(row.original) : flexRender(cell.column.columnDef.cell, cell.getContext());
}

const hasColumn = <TData,>(table: Table<TData>, id: string | undefined) =>
  id !== undefined && table.getAllLeafColumns().some((c) => c.id === id);

export function DataCardList<TData>({
  table,
  layout,
  label,
  skeletonCount,
  onCardClick,
}: {
  table: Table<TData>;
  layout: CardLayout;
  /** The list's accessible name. */
  label: string;
  /** Placeholder cards while the first page loads (0: show the rows). */
  skeletonCount: number;
  onCardClick?: (event: MouseEvent<HTMLElement>, row: Row<TData>) => void;
}) {
  const leading = hasColumn(table, layout.leading) ? layout.leading : undefined;
  const fields = table.getAllLeafColumns().filter((c) => layout.fields.includes(c.id));
  const rows = skeletonCount > 0 ? [] : table.getRowModel().rows;
  if (skeletonCount === 0 && rows.length === 0) return null;
  return (
    <ul aria-label={label} className="flex flex-col gap-2">
      {Array.from({ length: skeletonCount }, (_, i) => (
        <li key={`skeleton-${i}`} aria-hidden="true" className={CARD}>
          <div className="h-4 w-40 animate-pulse rounded bg-slate-200" />
          <div className="mt-3 grid grid-cols-2 gap-3">
            {fields.map((column) => (
              <div key={column.id} className="h-3.5 w-24 animate-pulse rounded bg-slate-200" />
            ))}
          </div>
        </li>
      ))}
      {rows.map((row) => (
        <li
          key={row.id}
          className={`${CARD} ${onCardClick ? "cursor-pointer" : ""} flex items-start gap-3 hover:bg-brand-50/60`}
          onClick={onCardClick ? (event) => onCardClick(event, row) : undefined}
        >
          {leading ? <div className="flex h-6 items-center">{renderCell(row, leading)}</div> : null}
          <div className="min-w-0 flex-1">
            <div className="min-w-0 text-base">{renderCell(row, layout.title)}</div>
            <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-2 text-sm">
              {fields.map((column) => (
                <div key={column.id} className="min-w-0">
                  <dt className="text-xs text-slate-600">{columnLabel(column)}</dt>
                  <dd className="truncate text-slate-800">{renderCell(row, column.id)}</dd>
                </div>
              ))}
            </dl>
          </div>
        </li>
      ))}
    </ul>
  );
}

const CARD = "rounded-lg border border-slate-200 bg-white p-3 shadow-sm";

/**
 * Above the cards: the leading column's header ("select all on this page") and a "Sort by"
 * select, which sets the same sorting as a click on a table header.
 */
export function DataCardControls<TData>({
  table,
  layout,
  id,
}: {
  table: Table<TData>;
  layout: CardLayout;
  id: string;
}) {
  const leadingHeader = table.getFlatHeaders().find((h) => h.column.id === layout.leading);
  const sortable = table.getAllLeafColumns().filter((c) => c.getCanSort());
  const [first] = table.getState().sorting;
  const options = sortable.flatMap((column) => [
    { value: `${column.id}:asc`, label: `${columnLabel(column)}, ascending` },
    { value: `${column.id}:desc`, label: `${columnLabel(column)}, descending` },
  ]);
  const current = first ? `${first.id}:${first.desc ? "desc" : "asc"}` : "";
  const value = options.some((o) => o.value === current) ? current : "";
  if (!leadingHeader && sortable.length === 0) return null;
  return (
    <div className="flex w-full items-end gap-3">
      {leadingHeader ? (
        // The checkbox keeps its own accessible name; the visible words are its start, so
        // speech users can say what they see.
        <label className="flex h-10 items-center gap-2 text-sm text-slate-700">
          {flexRender(leadingHeader.column.columnDef.header, leadingHeader.getContext())}
          Select all
        </label>
      ) : null}
      {sortable.length > 0 ? (
        // As wide as the row allows, so that "Created, descending" shows whole.
        <div className="ml-auto min-w-0 max-w-64 flex-1 space-y-1.5">
          <Label htmlFor={id}>Sort by</Label>
          <Select
            id={id}
            value={value}
            placeholder={value ? undefined : "Default order"}
            options={options}
            onChange={(e) => {
              const [column, direction] = e.target.value.split(":");
              table.setSorting(column ? [{ id: column, desc: direction === "desc" }] : []);
            }}
          />
        </div>
      ) : null}
    </div>
  );
}

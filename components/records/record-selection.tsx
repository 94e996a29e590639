"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { useState } from "react";

export interface BulkSelection {
  /** Ticked rows (of the current page). */
  ids: string[];
  /** Every record matching the list's filters, on every page. */
  allMatching: boolean;
}

/**
 * The ticked records of a list, for its bulk bar: the rows ticked on this page, or "every record
 * matching the filters". A change of page or filters (`viewKey`) starts a new, empty selection.
 */
export function useRecordSelection(viewKey: string) {
  const [state, setState] = useState<BulkSelection & { viewKey: string }>({
    viewKey,
    ids: [],
    allMatching: false,
  });
  const selection: BulkSelection = state.viewKey === viewKey ? state : { ids: [], allMatching: false };
  const set = (next: BulkSelection) => setState({ ...next, viewKey });
  return {
    selection,
    toggle: (id: string, on: boolean) =>
      set({
        allMatching: false,
        ids: on ? [...selection.ids.filter((x) => x !== id), id] : selection.ids.filter((x) => x !== id),
      }),
    setPage: (ids: string[]) => set({ ids, allMatching: false }),
    selectAllMatching: () => set({ ids: selection.ids, allMatching: true }),
    clear: () => set({ ids: [], allMatching: false }),
  };
}

export type RecordSelection = ReturnType<typeof useRecordSelection>;

const BOX =
  "size-4 rounded border-slate-300 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

/**
 * The checkbox column: one per row, and "select all on this page" in the header. `noun` names the
 * records ("leads"), `nameOf` a row in its box's label.
 */
export function selectionColumn<T extends { id: string }>(
  state: RecordSelection,
  pageIds: readonly string[],
  { noun, nameOf }: { noun: string; nameOf: (row: T) => string },
): ColumnDef<T> {
  const { selection } = state;
  const ticked = (id: string) => selection.allMatching || selection.ids.includes(id);
  const all = pageIds.length > 0 && pageIds.every(ticked);
  const some = pageIds.some(ticked);
  return {
    id: "select",
    enableHiding: false,
    meta: { alwaysVisible: true, label: "Select" },
    header: () => (
      <input
        type="checkbox"
        className={BOX}
        aria-label={`Select all ${noun} on this page`}
        checked={all}
        ref={(box) => {
          if (box) box.indeterminate = some && !all;
        }}
        onChange={(e) => (e.target.checked ? state.setPage([...pageIds]) : state.clear())}
      />
    ),
    cell: ({ row }) => (
      <input
        type="checkbox"
        className={BOX}
        aria-label={`Select ${nameOf(row.original)}`}
        checked={ticked(row.original.id)}
        onChange={(e) => state.toggle(row.original.id, e.target.checked)}
      />
    ),
  };
}

"use client";

import type { ColumnDef } from "@tanstack/react-table";
import { useState } from "react";
import type { Lead } from "@/lib/query/leads";
import type { BulkSelection } from "./lead-bulk-bar";

/**
 * The ticked leads of the table, for the bulk bar: the rows ticked on this page, or "every lead
 * matching the filters". A change of page or filters (`viewKey`) starts a new, empty selection.
 */
export function useLeadSelection(viewKey: string) {
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

export type LeadSelection = ReturnType<typeof useLeadSelection>;

const BOX =
  "size-4 rounded border-slate-300 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600";

/** The checkbox column: one per row, and "select all on this page" in the header. */
export function selectionColumn(state: LeadSelection, pageIds: readonly string[]): ColumnDef<Lead> {
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
        aria-label="Select all leads on this page"
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
        aria-label={`Select ${row.original.name || "lead without a name"}`}
        checked={ticked(row.original.id)}
        onChange={(e) => state.toggle(row.original.id, e.target.checked)}
      />
    ),
  };
}

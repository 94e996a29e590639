"use client";

import type { ReactNode } from "react";
import { Button, Notice } from "@/components/ui";
import { errorMessage } from "@/components/ui/error-state";

/**
 * The pieces the leads' and customers' bulk bars share: the bar over the table (the count, its
 * extra buttons, the actions) and the notice after a bulk change, whose Undo asks the server.
 * The list keeps both in view while scrolling (RecordList), so each shows as a raised panel.
 */

export function BulkActionsBar({
  selected,
  children,
  actions,
}: {
  /** "3 leads": said as "3 leads selected". */
  selected: string;
  /** Buttons beside the count (select all matching, clear the selection). */
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label="Bulk actions"
      className="flex flex-wrap items-center gap-2 rounded-lg border border-brand-200 bg-brand-50 px-3 py-2 text-sm shadow-md"
    >
      <span className="font-medium text-slate-900" aria-live="polite">
        {selected} selected
      </span>
      {children}
      <span className="ml-auto flex flex-wrap gap-2">{actions}</span>
    </div>
  );
}

export function BulkOutcome({
  what,
  changed,
  restored,
  skipped = null,
  undoable,
  undo,
  onUndo,
  onDismiss,
}: {
  /** What was done ("Archived"). */
  what: string;
  /** "2 customers" changed. */
  changed: string;
  /** "2 customers" restored, once undone; null before. */
  restored: string | null;
  /** "1 customer" the undo skipped (changed since the bulk change); null when none. */
  skipped?: string | null;
  undoable: boolean;
  undo: { isPending: boolean; error: unknown };
  onUndo: () => void;
  onDismiss: () => void;
}) {
  return (
    <Notice tone={restored === null ? "success" : "info"} className="shadow-md">
      {restored === null ? (
        <>
          {what}: {changed} changed.{" "}
          {undoable ? (
            <Button variant="secondary" size="sm" loading={undo.isPending} onClick={onUndo}>
              Undo
            </Button>
          ) : null}
          {undo.error ? <span className="ml-2 text-red-700">{errorMessage(undo.error)}</span> : null}
        </>
      ) : (
        <>
          Undone: {restored} restored.
          {skipped ? ` ${skipped} skipped (changed since the bulk change, so left as is).` : null}
        </>
      )}{" "}
      <Button variant="ghost" size="sm" onClick={onDismiss}>
        Dismiss
      </Button>
    </Notice>
  );
}

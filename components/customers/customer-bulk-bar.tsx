"use client";

import { useState } from "react";
import type { BulkSelection } from "@/components/records/record-selection";
import { Button, Dialog, Notice } from "@/components/ui";
import { errorMessage } from "@/components/ui/error-state";
import { useBulkArchiveCustomers, useUndoBulkCustomers } from "@/lib/query/customers";

/**
 * The bulk bar of the customers table: the ticked customers of the page, archived or unarchived
 * after a confirmation that says how many; then a notice with Undo (the server restores what the
 * bulk change replaced).
 */

type Action = "archive" | "unarchive";

const plural = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "customer" : "customers"}`;
const DONE: Record<Action, string> = { archive: "Archived", unarchive: "Unarchived" };

export function CustomerBulkBar({ selection, onClear }: { selection: BulkSelection; onClear: () => void }) {
  const [confirming, setConfirming] = useState<Action | null>(null);
  const [done, setDone] = useState<{ action: Action; id: string; changed: number; undone: boolean } | null>(
    null,
  );
  const bulk = useBulkArchiveCustomers();
  const undo = useUndoBulkCustomers();
  const count = selection.ids.length;

  async function apply(action: Action) {
    const result = await bulk.mutateAsync({ ids: selection.ids, action: { type: action } });
    setConfirming(null);
    setDone({ action, id: result.id, changed: result.changed, undone: false });
    onClear();
  }

  async function undoLast() {
    if (!done) return;
    await undo.mutateAsync(done.id);
    setDone({ ...done, undone: true });
  }

  const outcome = done ? (
    <Notice tone={done.undone ? "info" : "success"} className="mb-3">
      {done.undone ? (
        <>Undone: {plural(done.changed)} restored.</>
      ) : (
        <>
          {DONE[done.action]}: {plural(done.changed)} changed.{" "}
          {done.changed > 0 ? (
            <Button variant="secondary" size="sm" loading={undo.isPending} onClick={undoLast}>
              Undo
            </Button>
          ) : null}
          {undo.error ? <span className="ml-2 text-red-700">{errorMessage(undo.error)}</span> : null}
        </>
      )}{" "}
      <Button variant="ghost" size="sm" onClick={() => setDone(null)}>
        Dismiss
      </Button>
    </Notice>
  ) : null;

  if (count === 0) return outcome;

  return (
    <>
      {outcome}
      <div
        role="region"
        aria-label="Bulk actions"
        className="mb-3 flex flex-wrap items-center gap-2 rounded-lg border border-brand-200 bg-brand-50 px-3 py-2 text-sm"
      >
        <span className="font-medium text-slate-900" aria-live="polite">
          {plural(count)} selected
        </span>
        <Button variant="ghost" size="sm" onClick={onClear}>
          Clear selection
        </Button>
        <span className="ml-auto flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => setConfirming("archive")}>
            Archive…
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setConfirming("unarchive")}>
            Unarchive…
          </Button>
        </span>
      </div>
      {confirming ? (
        <Dialog
          open
          onClose={() => {
            setConfirming(null);
            bulk.reset();
          }}
          title={`${confirming === "archive" ? "Archive" : "Unarchive"} ${plural(count)}?`}
          description="You can undo this right after."
          footer={
            <>
              <Button
                variant="secondary"
                onClick={() => {
                  setConfirming(null);
                  bulk.reset();
                }}
              >
                Cancel
              </Button>
              <Button
                loading={bulk.isPending}
                variant={confirming === "archive" ? "danger" : "primary"}
                onClick={() => apply(confirming)}
              >
                {confirming === "archive" ? "Archive" : "Unarchive"} {plural(count)}
              </Button>
            </>
          }
        >
          {bulk.error ? <Notice tone="danger">{errorMessage(bulk.error)}</Notice> : null}
        </Dialog>
      ) : null}
    </>
  );
}

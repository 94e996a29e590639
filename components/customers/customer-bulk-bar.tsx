"use client";

import { useState } from "react";
import { BulkActionsBar, BulkOutcome } from "@/components/records/bulk-bar";
import type { BulkSelection } from "@/components/records/record-selection";
import { Button, Dialog, Notice } from "@/components/ui";
import { errorMessage } from "@/components/ui/error-state";
import { useBulkArchiveCustomers, useUndoBulkCustomers } from "@/lib/query/customers";

/**
 * Archives or unarchives the ticked customers after a confirmation that says how many; Undo has the
 * server restore what the bulk change replaced.
 */

type Action = "archive" | "unarchive";

const plural = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "customer" : "customers"}`;
const DONE: Record<Action, string> = { archive: "Archived", unarchive: "Unarchived" };

export function CustomerBulkBar({ selection, onClear }: { selection: BulkSelection; onClear: () => void }) {
  const [confirming, setConfirming] = useState<Action | null>(null);
  const [done, setDone] = useState<{
    action: Action;
    id: string;
    changed: number;
    restored: number | null;
    skipped: number;
  } | null>(null);
  const bulk = useBulkArchiveCustomers();
  const undo = useUndoBulkCustomers();
  const count = selection.ids.length;

  async function apply(action: Action) {
    const result = await bulk.mutateAsync({ ids: selection.ids, action: { type: action } });
    setConfirming(null);
    setDone({ action, id: result.id, changed: result.changed, restored: null, skipped: 0 });
    onClear();
  }

  async function undoLast() {
    if (!done) return;
    const { restored, skipped } = await undo.mutateAsync(done.id);
    setDone({ ...done, restored, skipped });
  }

  const outcome = done ? (
    <BulkOutcome
      what={DONE[done.action]}
      changed={plural(done.changed)}
      restored={done.restored === null ? null : plural(done.restored)}
      skipped={done.skipped > 0 ? plural(done.skipped) : null}
      undoable={done.changed > 0}
      undo={undo}
      onUndo={undoLast}
      onDismiss={() => setDone(null)}
    />
  ) : null;

  if (count === 0) return outcome;

  return (
    <>
      {outcome}
      <BulkActionsBar
        selected={plural(count)}
        actions={
          <>
            <Button variant="secondary" size="sm" onClick={() => setConfirming("archive")}>
              Archive…
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setConfirming("unarchive")}>
              Unarchive…
            </Button>
          </>
        }
      >
        <Button variant="ghost" size="sm" onClick={onClear}>
          Clear selection
        </Button>
      </BulkActionsBar>
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

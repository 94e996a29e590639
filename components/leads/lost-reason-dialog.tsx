"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Button, Dialog, LoadingBlock, Notice, errorMessage } from "@/components/ui";
import { useLostReasons } from "@/lib/query/lost-reasons";

/**
 * "Why was it lost?" before a lead moves to a lost stage: one reason from the list the admin keeps
 * in settings. Without any reasons kept, the move needs none.
 */
export function LostReasonDialog({
  open,
  leadName,
  stageLabel,
  current,
  onConfirm,
  onClose,
}: {
  open: boolean;
  leadName: string;
  stageLabel: string;
  /** The lead's reason now, chosen to start with when it is still on the list. */
  current: string | null;
  onConfirm: (reason: string | null) => Promise<void>;
  onClose: () => void;
}) {
  const reasons = useLostReasons(open);
  const [chosen, setChosen] = useState<string | null>(current);
  const [missing, setMissing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = useId();
  const list = reasons.data ?? [];
  const fieldset = useRef<HTMLFieldSetElement>(null);
  const loaded = reasons.isSuccess;
  // Reasons that arrive after the dialog opened take the focus the dialog gave its close button.
  useEffect(() => {
    if (open && loaded) fieldset.current?.querySelector<HTMLInputElement>("input")?.focus();
  }, [open, loaded]);

  async function confirm() {
    const reason = list.some((r) => r.label === chosen) ? chosen : null;
    if (list.length > 0 && !reason) return setMissing(true);
    setBusy(true);
    setError(null);
    try {
      await onConfirm(reason);
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="sm"
      title={`Mark ${leadName} as ${stageLabel.toLowerCase()}`}
      description="Why was this lead lost? The reason shows on the lead and in its activity."
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" loading={busy} disabled={reasons.isPending} onClick={() => void confirm()}>
            Move to {stageLabel}
          </Button>
        </>
      }
    >
      {error ? (
        <Notice tone="danger" className="mb-3">
          {error}
        </Notice>
      ) : null}
      {reasons.isPending ? (
        <LoadingBlock label="Loading the lost reasons" />
      ) : reasons.isError ? (
        <Notice tone="danger">Could not load the lost reasons: {errorMessage(reasons.error)}</Notice>
      ) : list.length === 0 ? (
        <p className="text-sm text-slate-600">
          No lost reasons are set up yet (an administrator adds them in Settings), so the lead moves without
          one.
        </p>
      ) : (
        <fieldset ref={fieldset} aria-describedby={missing ? `${name}-missing` : undefined}>
          <legend className="mb-2 text-sm font-medium text-slate-900">Lost reason</legend>
          <div className="space-y-1">
            {list.map((reason, index) => (
              <label
                key={reason.id}
                className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-800 hover:bg-slate-50"
              >
                <input
                  type="radio"
                  name={name}
                  value={reason.label}
                  checked={chosen === reason.label}
                  data-autofocus={index === 0 ? true : undefined}
                  onChange={() => {
                    setChosen(reason.label);
                    setMissing(false);
                  }}
                  className="size-4 accent-brand-600"
                />
                {reason.label}
              </label>
            ))}
          </div>
          {missing ? (
            <p id={`${name}-missing`} role="alert" className="mt-2 text-sm font-medium text-red-600">
              Choose why the lead was lost
            </p>
          ) : null}
        </fieldset>
      )}
    </Dialog>
  );
}

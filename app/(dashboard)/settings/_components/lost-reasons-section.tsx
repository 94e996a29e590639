"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ErrorState, errorMessage } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { LoadingBlock } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { ApiClientError } from "@/lib/query/api-client";
import { type LostReason, useLostReasonSettings, useSaveLostReasons } from "@/lib/query/lost-reasons";
import { LOST_REASON_LABEL_MAX } from "@/lib/schemas/lost-reasons";

/** A reason being edited: `reasonId` is absent for one added here (the server makes one). */
interface DraftReason {
  draftId: string;
  reasonId?: string;
  label: string;
}

let draftIds = 0;
const toDraft = (reason?: LostReason): DraftReason => ({
  draftId: `reason-${++draftIds}`,
  reasonId: reason?.id,
  label: reason?.label ?? "",
});

/** The lost reasons editor (admins), beside the pipeline: add, rename, reorder, remove, then save. */
export function LostReasonsSection() {
  const saved = useLostReasonSettings();
  return (
    <Card aria-labelledby="lost-reasons-heading">
      <CardHeader
        id="lost-reasons-heading"
        title="Lost reasons"
        description="What a user picks when a lead moves to a lost stage. Leads already lost keep their reason's words."
      />
      {saved.isPending ? (
        <LoadingBlock label="Loading the lost reasons" />
      ) : saved.isError ? (
        <ErrorState
          error={saved.error}
          title="Could not load the lost reasons"
          onRetry={() => saved.refetch()}
        />
      ) : (
        // Remounted with each saved version, so the draft starts from what is stored.
        <LostReasonsEditor key={saved.dataUpdatedAt} reasons={saved.data} />
      )}
    </Card>
  );
}

function LostReasonsEditor({ reasons }: { reasons: LostReason[] }) {
  const save = useSaveLostReasons();
  const { notify } = useToast();
  const [draft, setDraft] = useState<DraftReason[]>(() => reasons.map(toDraft));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");

  const asSaved = draft.map(({ reasonId, label }) => ({ id: reasonId, label }));
  const changed = JSON.stringify(asSaved) !== JSON.stringify(reasons);

  function move(index: number, by: -1 | 1) {
    const target = index + by;
    const next = [...draft];
    const [reason] = next.splice(index, 1);
    next.splice(target, 0, reason!);
    setDraft(next);
    setAnnouncement(`${reason!.label || "Reason"} moved to position ${target + 1} of ${next.length}`);
    const edge = target === 0 ? "down" : target === next.length - 1 ? "up" : by === -1 ? "up" : "down";
    requestAnimationFrame(() => document.getElementById(`${reason!.draftId}-${edge}`)?.focus());
  }

  function add() {
    const reason = toDraft();
    setDraft([...draft, reason]);
    requestAnimationFrame(() => document.getElementById(`${reason.draftId}-label`)?.focus());
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    setErrors({});
    // Not mutate's own callbacks: a save remounts this editor, and those of an unmounted one never run.
    save.mutateAsync({ reasons: asSaved }).then(
      () => notify({ tone: "success", title: "Lost reasons saved" }),
      (error: unknown) => {
        if (error instanceof ApiClientError && error.details.length > 0) {
          const byField: Record<string, string> = {};
          for (const d of error.details) byField[d.field] ??= d.message;
          setErrors(byField);
          setFormError(byField.reasons ? `Not saved: ${byField.reasons}.` : "Check the highlighted reasons.");
        } else setFormError(errorMessage(error));
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Lost reasons">
      <CardBody className="space-y-4">
        {formError ? <Notice tone="danger">{formError}</Notice> : null}
        {draft.length === 0 ? (
          <p className="text-sm text-slate-600">No reasons yet: a lead then moves to Lost without one.</p>
        ) : null}
        <ol className="space-y-3">
          {draft.map((reason, index) => {
            const name = reason.label || `Reason ${index + 1}`;
            const err = errors[`reasons.${index}.label`] ?? errors[`reasons.${index}.id`];
            return (
              <li
                key={reason.draftId}
                aria-label={name}
                className="flex flex-wrap items-start gap-2 rounded-lg border border-slate-200 p-3"
              >
                <span className="w-6 pt-2 text-right text-sm text-slate-500 tabular-nums" aria-hidden="true">
                  {index + 1}.
                </span>
                <div className="min-w-40 flex-1">
                  <Input
                    id={`${reason.draftId}-label`}
                    value={reason.label}
                    onChange={(e) =>
                      setDraft((current) =>
                        current.map((r) =>
                          r.draftId === reason.draftId ? { ...r, label: e.target.value } : r,
                        ),
                      )
                    }
                    aria-label={`Lost reason ${index + 1}`}
                    maxLength={LOST_REASON_LABEL_MAX}
                    invalid={Boolean(err)}
                    aria-describedby={err ? `${reason.draftId}-error` : undefined}
                  />
                  {err ? (
                    <p id={`${reason.draftId}-error`} className="mt-1 text-xs font-medium text-red-600">
                      {err}
                    </p>
                  ) : null}
                </div>
                <div className="flex items-center gap-1">
                  <Button
                    id={`${reason.draftId}-up`}
                    variant="ghost"
                    size="sm"
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    Up<span className="sr-only">: move {name} up</span>
                  </Button>
                  <Button
                    id={`${reason.draftId}-down`}
                    variant="ghost"
                    size="sm"
                    disabled={index === draft.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    Down<span className="sr-only">: move {name} down</span>
                  </Button>
                  <Button
                    variant="danger-ghost"
                    size="sm"
                    onClick={() => {
                      setDraft(draft.filter((r) => r.draftId !== reason.draftId));
                      setAnnouncement(`${name} removed; save to apply`);
                    }}
                  >
                    Remove<span className="sr-only"> {name}</span>
                  </Button>
                </div>
              </li>
            );
          })}
        </ol>
        <p aria-live="polite" className="sr-only">
          {announcement}
        </p>
        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-between">
          <Button variant="secondary" onClick={add}>
            Add reason
          </Button>
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            <Button
              variant="ghost"
              disabled={!changed || save.isPending}
              onClick={() => {
                setDraft(reasons.map(toDraft));
                setErrors({});
                setFormError(null);
              }}
            >
              Discard changes
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!changed}>
              Save lost reasons
            </Button>
          </div>
        </div>
      </CardBody>
    </form>
  );
}

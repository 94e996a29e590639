"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ErrorState, errorMessage } from "@/components/ui/error-state";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { Select } from "@/components/ui/select";
import { LoadingBlock } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { formatNumber } from "@/lib/format";
import { ApiClientError } from "@/lib/query/api-client";
import { useLeadStageTotals } from "@/lib/query/leads";
import { usePipelineSettings, useSavePipeline, type Stage } from "@/lib/query/pipeline";
import { findStage, STAGE_LABEL_MAX } from "@/lib/schemas/pipeline";
import { STAGE_KINDS, type StageKind } from "@/lib/values/enums";

/** A stage being edited: `key` is absent for a stage added here (the server makes one). */
interface DraftStage {
  id: string;
  key?: string;
  label: string;
  color: string;
  kind: StageKind;
}

const KIND_OPTIONS = STAGE_KINDS.map((kind) => ({
  value: kind,
  label: kind === "open" ? "Open" : kind === "won" ? "Won" : "Lost",
}));

/** Colors offered to a new stage in turn (each readable on white). */
const NEW_STAGE_COLORS = ["#0e7490", "#4d7c0f", "#be185d", "#4338ca", "#a16207", "#475569"];

let draftIds = 0;
const toDraft = (stage: Omit<DraftStage, "id">): DraftStage => ({ ...stage, id: `stage-${++draftIds}` });

/** The pipeline editor (admins): add, rename, reorder, recolor, change kind, remove, then save. */
export function PipelineSection() {
  const saved = usePipelineSettings();
  return (
    <Card aria-labelledby="pipeline-heading">
      <CardHeader
        id="pipeline-heading"
        title="Pipeline"
        description="The stages a lead moves through, in order. Renaming or moving a stage keeps its leads."
      />
      {saved.isPending ? (
        <LoadingBlock label="Loading the pipeline" />
      ) : saved.isError ? (
        <ErrorState error={saved.error} title="Could not load the pipeline" onRetry={() => saved.refetch()} />
      ) : (
        // Remounted with each saved version, so the draft starts from what is stored.
        <PipelineEditor key={saved.dataUpdatedAt} stages={saved.data} />
      )}
    </Card>
  );
}

function PipelineEditor({ stages }: { stages: Stage[] }) {
  const save = useSavePipeline();
  const { notify } = useToast();
  const [draft, setDraft] = useState<DraftStage[]>(() => stages.map(toDraft));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  // Leads per stored stage (archived too): a stage in use cannot be removed.
  const totals = useLeadStageTotals({ archived: true });
  const inUse = new Map<string, number>();
  for (const row of totals.data?.data ?? []) {
    const stage = row.stage === null ? undefined : findStage(stages, row.stage);
    if (stage) inUse.set(stage.key, (inUse.get(stage.key) ?? 0) + row.count);
  }

  const update = (id: string, patch: Partial<DraftStage>) =>
    setDraft((current) => current.map((s) => (s.id === id ? { ...s, ...patch } : s)));

  function move(index: number, by: -1 | 1) {
    const target = index + by;
    const next = [...draft];
    const [stage] = next.splice(index, 1);
    next.splice(target, 0, stage!);
    setDraft(next);
    setAnnouncement(`${stage!.label || "Stage"} moved to position ${target + 1} of ${next.length}`);
    // Keep the keyboard where it was: on the same button, or the other one at either end.
    const edge = target === 0 ? "down" : target === next.length - 1 ? "up" : by === -1 ? "up" : "down";
    requestAnimationFrame(() => document.getElementById(`${stage!.id}-${edge}`)?.focus());
  }

  function add() {
    const stage = toDraft({
      label: "",
      color: NEW_STAGE_COLORS[draft.length % NEW_STAGE_COLORS.length]!,
      kind: "open",
    });
    // An open stage belongs with the open ones: before the first won or lost stage, else last.
    const closed = draft.findIndex((s) => s.kind !== "open");
    const at = closed === -1 ? draft.length : closed;
    setDraft([...draft.slice(0, at), stage, ...draft.slice(at)]);
    requestAnimationFrame(() => document.getElementById(`${stage.id}-label`)?.focus());
  }

  function remove(stage: DraftStage) {
    setDraft(draft.filter((s) => s.id !== stage.id));
    setAnnouncement(`${stage.label || "Stage"} removed; save to apply`);
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    setErrors({});
    // Not mutate's own callbacks: a save remounts this editor with the saved list, and the
    // callbacks of a mutate whose component unmounted never run.
    save.mutateAsync({ stages: asSaved }).then(
      () => notify({ tone: "success", title: "Pipeline saved" }),
      (error: unknown) => {
        if (error instanceof ApiClientError && error.details.length > 0) {
          const byField: Record<string, string> = {};
          for (const d of error.details) byField[d.field] ??= d.message;
          setErrors(byField);
          const general = byField.stages;
          setFormError(general ? `The pipeline was not saved: ${general}.` : "Check the highlighted stages.");
        } else setFormError(errorMessage(error));
      },
    );
  }

  const asSaved = draft.map(({ key, label, color, kind }) => ({ key, label, color, kind }));
  const changed = JSON.stringify(asSaved) !== JSON.stringify(stages);

  return (
    <form onSubmit={submit} noValidate aria-label="Pipeline stages">
      <CardBody className="space-y-4">
        {formError ? <Notice tone="danger">{formError}</Notice> : null}
        <ol className="space-y-3">
          {draft.map((stage, index) => {
            const count = stage.key ? (inUse.get(stage.key) ?? 0) : 0;
            const name = stage.label || `Stage ${index + 1}`;
            const err = (field: string) => errors[`stages.${index}.${field}`];
            return (
              <li
                key={stage.id}
                aria-label={name}
                className="flex flex-wrap items-start gap-2 rounded-lg border border-slate-200 p-3"
              >
                <span className="w-6 pt-2 text-right text-sm text-slate-500 tabular-nums" aria-hidden="true">
                  {index + 1}.
                </span>
                <input
                  type="color"
                  value={stage.color}
                  onChange={(e) => update(stage.id, { color: e.target.value })}
                  aria-label={`Color of ${name}`}
                  className="mt-0.5 h-9 w-10 shrink-0 cursor-pointer rounded border border-slate-300 bg-white p-0.5"
                />
                <div className="min-w-40 flex-1">
                  <Input
                    id={`${stage.id}-label`}
                    value={stage.label}
                    onChange={(e) => update(stage.id, { label: e.target.value })}
                    aria-label={`Name of stage ${index + 1}`}
                    maxLength={STAGE_LABEL_MAX}
                    invalid={Boolean(err("label") || err("key"))}
                    aria-describedby={err("label") || err("key") ? `${stage.id}-error` : undefined}
                  />
                  {err("label") || err("key") ? (
                    <p id={`${stage.id}-error`} className="mt-1 text-xs font-medium text-red-600">
                      {err("label") ?? err("key")}
                    </p>
                  ) : null}
                </div>
                <Select
                  value={stage.kind}
                  onChange={(e) => update(stage.id, { kind: e.target.value as StageKind })}
                  aria-label={`Kind of ${name}`}
                  options={KIND_OPTIONS}
                  className="w-28"
                />
                <div className="flex items-center gap-1">
                  <Button
                    id={`${stage.id}-up`}
                    variant="ghost"
                    size="sm"
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    {/* The visible word first in the name (WCAG 2.5.3), then which stage. */}
                    Up<span className="sr-only">: move {name} up</span>
                  </Button>
                  <Button
                    id={`${stage.id}-down`}
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
                    disabled={count > 0}
                    onClick={() => remove(stage)}
                    aria-describedby={count > 0 ? `${stage.id}-in-use` : undefined}
                  >
                    Remove<span className="sr-only"> {name}</span>
                  </Button>
                </div>
                {count > 0 ? (
                  <p id={`${stage.id}-in-use`} className="basis-full pl-8 text-xs text-slate-500">
                    In use by {formatNumber(count)} lead{count === 1 ? "" : "s"}: move them to another stage
                    before removing it.
                  </p>
                ) : null}
              </li>
            );
          })}
        </ol>
        <p aria-live="polite" className="sr-only">
          {announcement}
        </p>
        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:justify-between">
          <Button variant="secondary" onClick={add}>
            Add stage
          </Button>
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            <Button
              variant="ghost"
              disabled={!changed || save.isPending}
              onClick={() => {
                setDraft(stages.map(toDraft));
                setErrors({});
                setFormError(null);
              }}
            >
              Discard changes
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!changed}>
              Save pipeline
            </Button>
          </div>
        </div>
      </CardBody>
    </form>
  );
}

"use client";

import { useState } from "react";
import { Notice, cn, errorMessage, useToast } from "@/components/ui";
import { type Lead, useSaveLead } from "@/lib/query/leads";
import { useLostReasons } from "@/lib/query/lost-reasons";
import { usePipeline } from "@/lib/query/pipeline";
import { DEFAULT_PIPELINE, findStage, type Stage } from "@/lib/schemas/pipeline";
import { LostReasonDialog } from "./lost-reason-dialog";
import { StageDot } from "./stage-badge";

/**
 * The lead's pipeline as a row of buttons: one click moves the lead (POST /api/leads {id, stage},
 * as the board does); a lost stage first asks why. Read-only without leads:write.
 */
export function StageBar({ lead, canWrite }: { lead: Lead; canWrite: boolean }) {
  const pipeline = usePipeline().data ?? DEFAULT_PIPELINE;
  const save = useSaveLead();
  // Loaded with the page, so the Lost dialog opens with its reasons (and its focus) in place.
  useLostReasons(canWrite);
  const { notify } = useToast();
  const [asking, setAsking] = useState<Stage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = lead.stage ? findStage(pipeline, lead.stage) : undefined;
  const leadName = lead.name || "this lead";

  async function move(stage: Stage, lostReason?: string | null) {
    setError(null);
    await save.mutateAsync({
      id: lead.id,
      stage: stage.key,
      ...(lostReason !== undefined ? { lost_reason: lostReason } : {}),
    });
    notify({ tone: "success", title: `${leadName} moved to ${stage.label}` });
  }

  function choose(stage: Stage) {
    if (stage.kind === "lost") return setAsking(stage);
    if (stage.key === current?.key) return;
    move(stage).catch((e: unknown) => setError(`Not moved: ${errorMessage(e)}`));
  }

  return (
    // Named apart from the form's "Stage" field, so "Stage" names one control on the page.
    <section className="mb-4">
      <h2 className="sr-only">Pipeline</h2>
      <div
        role="group"
        aria-label="Move this lead to"
        className="flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1"
      >
        {pipeline.map((stage) => {
          const here = stage.key === current?.key;
          return (
            <button
              key={stage.key}
              type="button"
              aria-pressed={here}
              disabled={!canWrite || save.isPending}
              onClick={() => choose(stage)}
              className={cn(
                "flex min-h-10 min-w-max flex-1 basis-24 items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium",
                "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
                here
                  ? "bg-white text-slate-900 shadow-sm ring-1 ring-slate-300"
                  : "text-slate-700 enabled:hover:bg-white/70 disabled:cursor-default",
              )}
            >
              <StageDot color={stage.color} />
              {stage.label}
            </button>
          );
        })}
      </div>
      {lead.stage && !current ? (
        <p className="mt-1 text-xs text-slate-600">
          Now “{lead.stage}”, which is not a stage of the pipeline: choose one to move the lead into it.
        </p>
      ) : null}
      {current?.kind === "lost" ? (
        <p className="mt-2 text-sm text-slate-700" data-testid="lead-lost-reason">
          <span className="font-medium text-slate-900">Lost reason:</span> {lead.lost_reason ?? "none given"}
        </p>
      ) : null}
      {error ? (
        <Notice tone="danger" className="mt-2">
          {error}
        </Notice>
      ) : null}
      {asking ? (
        <LostReasonDialog
          open
          leadName={leadName}
          stageLabel={asking.label}
          current={lead.lost_reason}
          onConfirm={(reason) => move(asking, reason)}
          onClose={() => setAsking(null)}
        />
      ) : null}
    </section>
  );
}

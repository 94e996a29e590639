"use client";

import { Badge, type SelectOption } from "@/components/ui";
import { useLeadStageTotals } from "@/lib/query/leads";
import { usePipeline } from "@/lib/query/pipeline";
import { findStage, type Stage } from "@/lib/schemas/pipeline";

/** A stage value as shown: its pipeline stage (label and color), or the value itself if outside. */
export function useStageDisplay(): (value: string) => { label: string; color?: string; stage?: Stage } {
  const pipeline = usePipeline().data ?? [];
  return (value) => {
    const stage = findStage(pipeline, value);
    return stage ? { label: stage.label, color: stage.color, stage } : { label: value };
  };
}

/** A color swatch of a stage (decorative: the label says the stage). */
export function StageDot({ color }: { color?: string }) {
  return (
    <span
      aria-hidden="true"
      className="inline-block size-2.5 shrink-0 rounded-full ring-1 ring-black/10"
      style={{ backgroundColor: color ?? "#94a3b8" }}
    />
  );
}

/** A lead's stage: the pipeline's label and color; a value outside the pipeline shown as stored. */
export function StageBadge({ stage }: { stage: string }) {
  const display = useStageDisplay()(stage);
  return (
    // A long label is cut to the space it has (a phone's card), whole in the title.
    <Badge
      className="max-w-full gap-1.5"
      title={display.stage ? display.label : `${display.label}: not a stage of the pipeline`}
    >
      <StageDot color={display.color} />
      <span className="truncate">{display.label}</span>
    </Badge>
  );
}

/** A stage value that is not a key of the pipeline, as a choice: "<value> (not in pipeline)". */
export const offPipelineLabel = (value: string) => `${value} (not in pipeline)`;

/**
 * The stage filter's choices: the pipeline's stages (labels, in order), then any other value
 * leads hold (archived too), then the filter's own value from a shared link if neither.
 */
export function useStageFilterOptions(current: string): SelectOption[] {
  const pipeline = usePipeline().data ?? [];
  const inUse = useLeadStageTotals({ archived: true }).data?.data ?? [];
  const options: SelectOption[] = pipeline.map((s) => ({ value: s.key, label: s.label }));
  const others = inUse.flatMap((row) => (row.stage === null ? [] : [row.stage]));
  for (const value of current ? [...others, current] : others) {
    if (!options.some((o) => o.value === value)) options.push({ value, label: offPipelineLabel(value) });
  }
  return options;
}

import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { listCounts, pipelineStages } from "@/lib/db/schema";
import type { DomainContext } from "@/lib/domain/context";
import { adminSettingsChange } from "@/lib/domain/settings-change";
import { changesBetween, recordAuditIfChanged } from "@/lib/domain/audit/audit";
import { StageInUseError, ValidationError, type FieldProblem } from "@/lib/domain/errors";
import {
  DEFAULT_PIPELINE,
  findStage,
  stageKeyFromLabel,
  type PipelineResponse,
  type PutPipelineBody,
  type Stage,
} from "@/lib/schemas/pipeline";

/** The company's stages in order: the stored ones, or the default pipeline when none are stored. */
export async function loadPipeline(db: DbOrTx, companyId: string): Promise<Stage[]> {
  const rows = await db
    .select({
      key: pipelineStages.key,
      label: pipelineStages.label,
      color: pipelineStages.color,
      kind: pipelineStages.kind,
    })
    .from(pipelineStages)
    .where(eq(pipelineStages.companyId, companyId))
    .orderBy(asc(pipelineStages.position));
  return rows.length > 0 ? rows : DEFAULT_PIPELINE.map((stage) => ({ ...stage }));
}

/** GET /pipeline and GET /settings/pipeline. */
export async function getPipeline({ ctx }: { ctx: Pick<DomainContext, "db" | "companyId"> }) {
  return { status: "success", data: await loadPipeline(ctx.db, ctx.companyId) } satisfies PipelineResponse;
}

/**
 * PUT /settings/pipeline: replaces the pipeline whole, under a lock on the company row so two
 * saves serialize. Given keys are kept; removing a stage any lead uses refuses all.
 */
export async function replacePipeline({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: PutPipelineBody;
}): Promise<PipelineResponse> {
  return adminSettingsChange(ctx, "pipeline:manage", async (tx) => {
    const current = await loadPipeline(tx, ctx.companyId);
    const next = withKeys(input.stages, current);
    checkStages(next);
    const kept = new Set(next.map((s) => s.key));
    const removed = current.filter((s) => !kept.has(s.key));
    if (removed.length > 0) await refuseRemovingUsedStages(tx, ctx.companyId, current, removed);
    await tx.delete(pipelineStages).where(eq(pipelineStages.companyId, ctx.companyId));
    await tx
      .insert(pipelineStages)
      .values(next.map((stage, position) => ({ ...stage, companyId: ctx.companyId, position })));
    await recordAuditIfChanged(tx, ctx, {
      kind: "pipeline.changed",
      target: { type: "pipeline", id: null },
      changes: changesBetween({ stages: current }, { stages: next }, ["stages"]),
    });
    return { status: "success", data: next };
  });
}

/** The stages with a key each: the given one, else one made from the label, new to the pipeline. */
function withKeys(stages: PutPipelineBody["stages"], current: readonly Stage[]): Stage[] {
  const taken = new Set([...current.map((s) => s.key), ...stages.flatMap((s) => (s.key ? [s.key] : []))]);
  return stages.map(({ key, label, color, kind }) => {
    const stageKey = key ?? stageKeyFromLabel(label, taken);
    taken.add(stageKey);
    return { key: stageKey, label, color, kind };
  });
}

/** Keys and labels unique ignoring case (a label may not be another stage's key), one open stage. */
function checkStages(stages: readonly Stage[]): void {
  const problems: FieldProblem[] = [];
  const fold = (text: string) => text.toLowerCase();
  stages.forEach((stage, i) => {
    const earlier = stages.slice(0, i);
    if (earlier.some((s) => s.key === stage.key)) {
      problems.push({
        field: `stages.${i}.key`,
        message: `another stage already has the key "${stage.key}"`,
      });
    }
    if (earlier.some((s) => fold(s.label) === fold(stage.label))) {
      problems.push({
        field: `stages.${i}.label`,
        message: `another stage is already named "${stage.label}"`,
      });
    } else if (stages.some((s, j) => j !== i && fold(s.key) === fold(stage.label))) {
      problems.push({ field: `stages.${i}.label`, message: `"${stage.label}" is another stage's key` });
    }
  });
  if (!stages.some((s) => s.kind === "open")) {
    problems.push({ field: "stages", message: "keep at least one open stage" });
  }
  if (problems.length > 0) throw new ValidationError(problems);
}

/**
 * 409 naming every removed stage a lead still holds, read from the kept counters: a few rows per
 * stage, whatever the number of leads.
 */
async function refuseRemovingUsedStages(
  tx: DbOrTx,
  companyId: string,
  current: readonly Stage[],
  removed: readonly Stage[],
): Promise<void> {
  const rows = await tx
    .select({ stage: listCounts.key1, count: sql<number>`sum(${listCounts.n})::int` })
    .from(listCounts)
    .where(and(eq(listCounts.companyId, companyId), eq(listCounts.entity, "leads")))
    .groupBy(listCounts.key1)
    .having(sql`sum(${listCounts.n}) <> 0`);
  const used = removed.flatMap((stage) => {
    const count = rows
      .filter((row) => row.stage !== null && findStage(current, row.stage)?.key === stage.key)
      .reduce((sum, row) => sum + Number(row.count), 0);
    return count > 0 ? [{ stage, count }] : [];
  });
  if (used.length > 0) throw new StageInUseError(used);
}

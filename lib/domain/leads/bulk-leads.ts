import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { textArrayParam } from "@/lib/domain/lists/sql-fragments";
import { emitRecordEvents } from "@/lib/domain/webhooks/emit";
import { leadBulkChanges, leadBulkOperations, leads, recordActivity } from "@/lib/db/schema";
import { actorOf, actorValues, type ActivityActor } from "@/lib/domain/activity/activity";
import type { DomainContext } from "@/lib/domain/context";
import {
  lockOperationToUndo,
  markUndone,
  operationTime,
  SKIPPED_IDS_LISTED,
} from "@/lib/domain/bulk/bulk-undo";
import { DeadlineExceededError, ValidationError } from "@/lib/domain/errors";
import { uniqueTags } from "@/lib/values/normalize";
import { mergedTags } from "@/lib/domain/normalize";
import { loadPipeline } from "@/lib/domain/pipeline/pipeline";
import { ID_PREFIX, newId } from "@/lib/ids";
import type {
  BulkLeadAction,
  BulkLeadsBody,
  BulkLeadsResponse,
  UndoBulkLeadsResponse,
} from "@/lib/schemas/lead-bulk";
import { findStage, storedStage } from "@/lib/schemas/pipeline";
import { TAGS_MAX } from "@/lib/schemas/upsert-fields";
import { leadFilter, withTerritoryResolved } from "./list-leads";
import { checkAssignee, resolveOwnerFilter } from "./owners";

/** Unknown ids listed in a 400, at most (the rest summed up in one more entry). */
const UNKNOWN_IDS_LISTED = 100;

/**
 * POST /leads/bulk: one action on the selected leads, all or nothing. Previous values are saved
 * for undo, then set-based updates in chunks keep the counters' triggers firing as for any update.
 */
export async function bulkChangeLeads({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: BulkLeadsBody;
}): Promise<BulkLeadsResponse> {
  const { action, lost } = await storedAction(ctx, input.action);
  if (action.type === "assign") {
    await checkAssignee(ctx.db, ctx.companyId, action.assigned_to, "action.assigned_to");
  }
  const selection = input.ids
    ? sql`${leads.companyId} = ${ctx.companyId} and ${leads.id} = any(${textArrayParam(uniqueTags(input.ids))})`
    : leadFilter(ctx.companyId, {
        ...(await withTerritoryResolved(ctx, input.filter!)),
        assigned_to: resolveOwnerFilter(ctx.principal, input.filter!.assigned_to, "filter.assigned_to"),
      });
  const id = newId(ID_PREFIX.leadBulk);
  const actor = actorOf(ctx.principal);
  return ctx.db.transaction(async (tx) => {
    if (input.ids) await refuseUnknownIds(tx, ctx.companyId, input.ids);
    await tx.insert(leadBulkOperations).values({
      companyId: ctx.companyId,
      id,
      action,
      changed: 0,
      actorKind: actor.kind,
      actorId: actor.id,
    });
    const { matched, changed } = await saveChanged(tx, ctx.companyId, id, selection, action, lost);
    if (action.type === "add_tags") await refuseTooManyTags(tx, ctx.companyId, id, action.tags);
    if (changed > 0) {
      await updateSaved(tx, ctx.companyId, id, actionSet(action, lost), actor);
      await tx.execute(sql`update ${leadBulkOperations} set "changed" = ${changed}
        where "company_id" = ${ctx.companyId} and "id" = ${id}`);
    }
    return {
      status: "success" as const,
      id,
      matched,
      changed,
      undo: { method: "POST" as const, path: `/leads/bulk/${id}/undo` },
    };
  });
}

/**
 * The action as it is stored: a pipeline stage named by its key or label becomes its key (E2).
 * `lost`: the action moves leads to a lost stage, which alone keeps their lost reason.
 */
async function storedAction(
  ctx: DomainContext,
  action: BulkLeadAction,
): Promise<{ action: BulkLeadAction; lost: boolean }> {
  if (action.type !== "set_stage" || !action.stage) return { action, lost: false };
  const pipeline = await loadPipeline(ctx.db, ctx.companyId);
  const stage = storedStage(pipeline, action.stage);
  return { action: { ...action, stage }, lost: findStage(pipeline, stage)?.kind === "lost" };
}

/** 400 listing the ids that are no lead of the company (another company's are unknown too). */
async function refuseUnknownIds(tx: DbOrTx, companyId: string, ids: readonly string[]) {
  const unknown = (
    await tx.execute<{ id: string }>(sql`select u.id from unnest(${textArrayParam(uniqueTags(ids))}) as u(id)
      where not exists (select 1 from ${leads} where ${leads.companyId} = ${companyId} and ${leads.id} = u.id)`)
  ).rows.map((row) => row.id);
  if (unknown.length === 0) return;
  const problems = unknown.slice(0, UNKNOWN_IDS_LISTED).map((unknownId) => ({
    field: `ids[${ids.indexOf(unknownId)}]`,
    message: `${unknownId} is not a lead of the company`,
  }));
  if (unknown.length > UNKNOWN_IDS_LISTED) {
    problems.push({ field: "ids", message: `${unknown.length - UNKNOWN_IDS_LISTED} more unknown ids` });
  }
  throw new ValidationError(problems);
}

/**
 * Locks the selected leads and saves the previous values of those the action changes (a lead that
 * already has the value is left alone): how many were selected, and how many will change.
 */
async function saveChanged(
  tx: DbOrTx,
  companyId: string,
  operationId: string,
  selection: SQL,
  action: BulkLeadAction,
  lost: boolean,
): Promise<{ matched: number; changed: number }> {
  const [row] = (
    await tx.execute<{ matched: number | string; changed: number | string }>(sql`
    with selected as (
      select ${leads.id} as id, ${leads.assignedTo} as assigned_to, ${leads.stage} as stage,
        ${leads.lostReason} as lost_reason, ${leads.tags} as tags, ${leads.archived} as archived,
        ${leads.archivedAt} as archived_at, ${actionChanges(action, lost)} as changes
      from ${leads} where ${selection}
      -- In id order: two bulk changes of the same leads lock them in one order, never deadlock.
      order by ${leads.id}
      for update
    ), saved as (
      insert into ${leadBulkChanges}
        ("company_id", "operation_id", "lead_id", "assigned_to", "stage", "lost_reason", "tags", "archived",
          "archived_at")
      select ${companyId}, ${operationId}, id, assigned_to, stage, lost_reason, tags, archived, archived_at
      from selected where changes
      returning 1
    )
    select (select count(*) from selected)::int as matched, (select count(*) from saved)::int as changed`)
  ).rows;
  return { matched: Number(row?.matched ?? 0), changed: Number(row?.changed ?? 0) };
}

/** The most leads one statement updates: each statement of a large change stays within the statement timeout. */
export const BULK_UPDATE_CHUNK = 2000;

/**
 * How long a bulk change or its undo may update chunks: a change still working then is rolled
 * back (503). Its routes' deadline is longer, so no answer is sent while it could still commit.
 */
export const BULK_WORK_MS = 20_000;

/**
 * Updates an operation's saved leads a chunk at a time in id order, each with its activity entry
 * in the same statement (the leads are locked, so `o` still holds the values before). `only`, on
 * `o` and the saved values `c`, leaves out the leads it does not hold for.
 */
async function updateSaved(
  tx: DbOrTx,
  companyId: string,
  operationId: string,
  set: SQL,
  actor: ActivityActor,
  only: SQL = sql`true`,
): Promise<number> {
  const stopAt = performance.now() + BULK_WORK_MS;
  const by = actorValues(actor);
  const change = (field: string) =>
    sql`case when d.${sql.identifier(`old_${field}`)} is distinct from d.${sql.identifier(`new_${field}`)}
      then jsonb_build_object('field', ${field}::text, 'from', to_jsonb(d.${sql.identifier(`old_${field}`)}),
        'to', to_jsonb(d.${sql.identifier(`new_${field}`)})) end`;
  let updated = 0;
  let after = "";
  for (;;) {
    if (performance.now() > stopAt) throw new DeadlineExceededError("The bulk change took too long");
    const [row] = (
      await tx.execute<{ n: number | string; last: string | null; changed_ids: string[] | null }>(sql`
        with c as (
          select * from ${leadBulkChanges}
          where "company_id" = ${companyId} and "operation_id" = ${operationId} and "lead_id" > ${after}
          order by "lead_id" limit ${BULK_UPDATE_CHUNK}
        ), done as (
          update ${leads} set ${set}, "updated_at" = now()
          from c join ${leads} o on o."company_id" = c."company_id" and o."id" = c."lead_id"
          where ${leads.companyId} = c."company_id" and ${leads.id} = c."lead_id" and ${only}
          returning ${leads.id} as id,
            o."stage" as old_stage, ${leads.stage} as new_stage,
            o."lost_reason" as old_lost_reason, ${leads.lostReason} as new_lost_reason,
            o."tags" as old_tags, ${leads.tags} as new_tags,
            o."assigned_to" as old_assigned_to, ${leads.assignedTo} as new_assigned_to,
            o."archived" as old_archived, ${leads.archived} as new_archived
        ), logged as (
          insert into ${recordActivity}
            ("company_id", "record_type", "record_id", "type", "actor_kind", "actor_id", "changes")
          select ${companyId}, 'lead', d.id,
            case when d.old_archived = d.new_archived then 'updated'
              when d.new_archived then 'archived' else 'unarchived' end,
            ${by.kind}, ${by.id},
            case when d.old_archived <> d.new_archived then '[]'::jsonb
              else (select jsonb_agg(v.x order by v.n) from (values
                (1, ${change("stage")}), (2, ${change("lost_reason")}), (3, ${change("tags")}),
                (4, ${change("assigned_to")})
              ) as v(n, x) where v.x is not null) end
          from done d
          where d.old_archived <> d.new_archived
            or (d.old_stage, d.old_lost_reason, d.old_tags, d.old_assigned_to)
              is distinct from (d.new_stage, d.new_lost_reason, d.new_tags, d.new_assigned_to)
          returning "record_id"
        )
        select (select count(*) from done)::int as n, (select max("lead_id") from c) as last,
          (select array_agg("record_id") from logged) as changed_ids`)
    ).rows;
    updated += Number(row?.n ?? 0);
    // The chunk's events: one set-based write per chunk, like its activity.
    await emitRecordEvents(tx, companyId, "lead", { updated: row?.changed_ids ?? [] });
    if (!row?.last) return updated;
    after = row.last;
  }
}

/** 400 naming the tags when adding them would give a changed lead more than TAGS_MAX tags. */
async function refuseTooManyTags(tx: DbOrTx, companyId: string, operationId: string, tags: string[]) {
  const merged = mergedTags(sql`c."tags"`, textArrayParam(uniqueTags(tags)));
  const [row] = (
    await tx.execute<{ n: number | string; most: number | string | null }>(sql`
      select count(*)::int as n, max(cardinality(${merged})) as most from ${leadBulkChanges} c
      where c."company_id" = ${companyId} and c."operation_id" = ${operationId}
        and cardinality(${merged}) > ${TAGS_MAX}`)
  ).rows;
  const over = Number(row?.n ?? 0);
  if (over === 0) return;
  throw new ValidationError([
    {
      field: "action.tags",
      message: `a lead can have at most ${TAGS_MAX} tags: ${over} selected leads would have more (up to ${row?.most})`,
    },
  ]);
}

/**
 * Whether the action changes a lead (the row's values as selected, `leads` unaliased). A move to a
 * stage that is not lost changes a lead already there that still has a lost reason.
 */
function actionChanges(action: BulkLeadAction, lost: boolean): SQL {
  switch (action.type) {
    case "assign":
      return sql`${leads.assignedTo} is distinct from ${action.assigned_to ?? null}::text`;
    case "set_stage":
      return lost
        ? sql`${leads.stage} is distinct from ${action.stage ?? null}::text`
        : sql`(${leads.stage} is distinct from ${action.stage ?? null}::text or ${leads.lostReason} is not null)`;
    case "add_tags":
      return sql`not (${leads.tags} @> ${textArrayParam(uniqueTags(action.tags))})`;
    case "archive":
      return sql`not ${leads.archived}`;
    case "unarchive":
      return sql`${leads.archived}`;
  }
}

/**
 * The SET list of the action's update. A stage that is not lost clears the lost reason, as a
 * single stage change does, so a reopened lead does not keep a stale reason.
 */
function actionSet(action: BulkLeadAction, lost: boolean): SQL {
  switch (action.type) {
    case "assign":
      return sql`"assigned_to" = ${action.assigned_to ?? null}::text`;
    case "set_stage":
      return lost
        ? sql`"stage" = ${action.stage ?? null}::text`
        : sql`"stage" = ${action.stage ?? null}::text, "lost_reason" = null`;
    case "add_tags":
      return sql`"tags" = ${mergedTags(leads.tags, textArrayParam(uniqueTags(action.tags)))}`;
    case "archive":
      return sql`"archived" = true, "archived_at" = now()`;
    case "unarchive":
      return sql`"archived" = false, "archived_at" = null`;
  }
}

/** The SET list restoring what the action changed, from the saved values (`c`). */
function undoSet(action: BulkLeadAction): SQL {
  switch (action.type) {
    case "assign":
      return sql`"assigned_to" = c."assigned_to"`;
    case "set_stage":
      // The reason the change cleared; a reason given since is kept.
      return sql`"stage" = c."stage", "lost_reason" = coalesce(o."lost_reason", c."lost_reason")`;
    case "add_tags":
      return sql`"tags" = c."tags"`;
    case "archive":
    case "unarchive":
      return sql`"archived" = c."archived", "archived_at" = c."archived_at"`;
  }
}

/**
 * Whether a lead (`o`) still holds what the operation set, from its saved values (`c`): only then
 * does undo restore it, so a later write (a convert's stage, another tag) is never reverted.
 */
function stillHolds(action: BulkLeadAction, when: SQL): SQL {
  switch (action.type) {
    case "assign":
      return sql`o."assigned_to" is not distinct from ${action.assigned_to ?? null}::text`;
    case "set_stage":
      return sql`o."stage" is not distinct from ${action.stage ?? null}::text`;
    case "add_tags":
      return sql`o."tags" = ${mergedTags(sql`c."tags"`, textArrayParam(uniqueTags(action.tags)))}`;
    case "archive":
      // Archived by this operation, not archived again since: archived_at is its transaction's time.
      return sql`o."archived" and o."archived_at" = ${when}`;
    case "unarchive":
      return sql`not o."archived"`;
  }
}

/**
 * POST /leads/bulk/{id}/undo: restores the fields the action set on the leads that still hold
 * its values, in one transaction; the others are skipped and reported. Once only, by its author,
 * an admin or a manager, within BULK_UNDO_HOURS (lockOperationToUndo).
 */
export async function undoBulkChange({
  ctx,
  id,
}: {
  ctx: DomainContext;
  id: string;
}): Promise<UndoBulkLeadsResponse> {
  return ctx.db.transaction(async (tx) => {
    const { action } = await lockOperationToUndo<BulkLeadAction>(tx, ctx, id, "lead");
    // Locked in id order first, as a bulk change locks them: the two never deadlock, and what
    // is read below stays true until the undo commits.
    await tx.execute(sql`select 1 from ${leads} join ${leadBulkChanges} c
      on c."company_id" = ${leads.companyId} and c."lead_id" = ${leads.id}
      where c."company_id" = ${ctx.companyId} and c."operation_id" = ${id}
      order by ${leads.id} for update of ${leads}`);
    const holds = stillHolds(action, operationTime(ctx.companyId, id));
    const [skipped] = (
      await tx.execute<{ n: number | string; ids: string[] | null }>(sql`
        with s as (
          select c."lead_id" as id from ${leadBulkChanges} c
          join ${leads} o on o."company_id" = c."company_id" and o."id" = c."lead_id"
          where c."company_id" = ${ctx.companyId} and c."operation_id" = ${id} and not (${holds})
        )
        select (select count(*) from s)::int as n,
          (select array_agg(id order by id) from (select id from s order by id limit ${SKIPPED_IDS_LISTED}) f) as ids`)
    ).rows;
    const restored = await updateSaved(tx, ctx.companyId, id, undoSet(action), actorOf(ctx.principal), holds);
    await markUndone(tx, ctx.companyId, id);
    return {
      status: "success" as const,
      id,
      restored,
      skipped: Number(skipped?.n ?? 0),
      skipped_ids: skipped?.ids ?? [],
    };
  });
}

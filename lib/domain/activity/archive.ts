import "server-only";
import { sql } from "drizzle-orm";
import { recordActivity, type ActivityRecordType } from "@/lib/db/schema";
import type { DbOrTx } from "@/lib/db/client";
import type { DomainContext } from "@/lib/domain/context";
import { ValidationError } from "@/lib/domain/errors";
import { textArrayParam } from "@/lib/domain/lists/sql-fragments";
import { emitRecordEvents } from "@/lib/domain/webhooks/emit";
import { actorOf, actorValues, RECORD_TABLES, recordNotFound } from "./activity";

/** Unknown ids listed in a bulk request's 400, at most (the rest summed up in one more entry). */
const UNKNOWN_IDS_LISTED = 100;

export interface ArchiveInput {
  ctx: Pick<DomainContext, "db" | "companyId" | "principal">;
  recordType: ActivityRecordType;
  archived: boolean;
}

/**
 * Sets `archived` and logs an entry per record changed, in one statement; records already so get no entry,
 * so calling twice is harmless. Answers how many of the ids exist and which changed.
 */
export async function archiveIn(
  db: DbOrTx,
  { ctx, recordType, archived }: ArchiveInput,
  ids: readonly string[],
): Promise<{ found: number; changedIds: string[] }> {
  const table = RECORD_TABLES[recordType];
  const actor = actorValues(actorOf(ctx.principal));
  const { rows } = await db.execute<{ found: number | string; changed_ids: string[] | null }>(sql`
    with target as (
      -- Locked in id order, so two bulk requests over the same records cannot deadlock.
      select ${table.id} as id, ${table.archived} as archived from ${table}
      where ${table.companyId} = ${ctx.companyId} and ${table.id} = any(${textArrayParam(ids)})
      order by ${table.id} for update
    ), changed as (
      update ${table} set "archived" = ${archived},
        "archived_at" = ${archived ? sql`now()` : sql`null`}, "updated_at" = now()
      from target
      where ${table.companyId} = ${ctx.companyId} and ${table.id} = target.id
        and target.archived <> ${archived}
      returning target.id
    ), logged as (
      insert into ${recordActivity} ("company_id", "record_type", "record_id", "type", "actor_kind", "actor_id")
      select ${ctx.companyId}, ${recordType}, changed.id, ${archived ? "archived" : "unarchived"},
        ${actor.kind}, ${actor.id}
      from changed
    )
    select (select count(*)::int from target) as found,
      (select array_agg(id order by id) from changed) as changed_ids`);
  const changedIds = rows[0]?.changed_ids ?? [];
  await emitRecordEvents(db, ctx.companyId, recordType, { updated: changedIds });
  return { found: Number(rows[0]?.found ?? 0), changedIds };
}

/**
 * POST /leads/{id}/archive and /unarchive (customers alike). An unknown record is a 404. The
 * caller then reads the record as GET answers it.
 */
export async function setArchived(input: ArchiveInput & { id: string }): Promise<void> {
  // The change and its event commit together.
  const { found } = await input.ctx.db.transaction((tx) => archiveIn(tx, input, [input.id]));
  if (found === 0) throw recordNotFound(input.recordType);
}

/** 400 listing the ids that are no record of that kind in the company (another company's too). */
export async function refuseUnknownIds(
  tx: DbOrTx,
  { ctx, recordType }: ArchiveInput,
  ids: readonly string[],
) {
  const table = RECORD_TABLES[recordType];
  const unknown = (
    await tx.execute<{ id: string }>(sql`select u.id from unnest(${textArrayParam(ids)}) as u(id)
      where not exists (select 1 from ${table} where ${table.companyId} = ${ctx.companyId} and ${table.id} = u.id)`)
  ).rows.map((row) => row.id);
  const problems = unknown.slice(0, UNKNOWN_IDS_LISTED).map((unknownId) => ({
    field: `ids[${ids.indexOf(unknownId)}]`,
    message: `${unknownId} is not a ${recordType} of the company`,
  }));
  if (unknown.length > UNKNOWN_IDS_LISTED) {
    problems.push({ field: "ids", message: `${unknown.length - UNKNOWN_IDS_LISTED} more unknown ids` });
  }
  throw new ValidationError(problems);
}

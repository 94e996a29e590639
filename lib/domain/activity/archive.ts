import { sql } from "drizzle-orm";
import { recordActivity, type ActivityRecordType } from "@/lib/db/schema";
import type { DomainContext } from "@/lib/domain/context";
import { actorOf, actorValues, RECORD_TABLES, recordNotFound } from "./activity";

/**
 * POST /leads/{id}/archive and /unarchive (customers alike): sets the record's `archived` (and
 * `archived_at`) and records an `archived` or `unarchived` entry, in one statement. A record that
 * already is so is left as it is, with no entry: calling twice is harmless. An unknown record is a
 * 404. The caller then reads the record as GET answers it.
 */
export async function setArchived({
  ctx,
  recordType,
  id,
  archived,
}: {
  ctx: Pick<DomainContext, "db" | "companyId" | "principal">;
  recordType: ActivityRecordType;
  id: string;
  archived: boolean;
}): Promise<void> {
  const table = RECORD_TABLES[recordType];
  const actor = actorValues(actorOf(ctx.principal));
  const { rows } = await ctx.db.execute<{ found: number | string }>(sql`
    with target as (
      select ${table.id} as id, ${table.archived} as archived from ${table}
      where ${table.companyId} = ${ctx.companyId} and ${table.id} = ${id} for update
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
    select count(*)::int as found from target`);
  if (Number(rows[0]?.found ?? 0) === 0) throw recordNotFound(recordType);
}

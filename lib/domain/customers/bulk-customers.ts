import "server-only";
import { sql } from "drizzle-orm";
import { textArrayParam } from "@/lib/domain/lists/sql-fragments";
import { emitRecordEvents } from "@/lib/domain/webhooks/emit";
import { customers, leadBulkChanges, leadBulkOperations, recordActivity } from "@/lib/db/schema";
import { actorOf, actorValues } from "@/lib/domain/activity/activity";
import { archiveIn, refuseUnknownIds } from "@/lib/domain/activity/archive";
import type { DomainContext } from "@/lib/domain/context";
import {
  lockOperationToUndo,
  markUndone,
  operationTime,
  SKIPPED_IDS_LISTED,
} from "@/lib/domain/bulk/bulk-undo";
import { uniqueTags } from "@/lib/values/normalize";
import { customerFilter } from "./list-customers";
import { ID_PREFIX, newId } from "@/lib/ids";
import type {
  BulkCustomersBody,
  BulkCustomersResponse,
  UndoBulkCustomersResponse,
} from "@/lib/schemas/customer-bulk";

/**
 * POST /customers/bulk: archive or unarchive the customers named by ids or matching the list's
 * filter, all or nothing, keeping the values replaced (record_type 'customer') as a leads' bulk
 * change does, so its undo restores them.
 */
export async function bulkChangeCustomers({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: BulkCustomersBody;
}): Promise<BulkCustomersResponse> {
  const archived = input.action.type === "archive";
  const id = newId(ID_PREFIX.leadBulk);
  const actor = actorOf(ctx.principal);
  return ctx.db.transaction(async (tx) => {
    // A filter's customers, locked in id order as below, so they still match when changed.
    const ids = input.ids
      ? uniqueTags(input.ids)
      : (
          await tx.execute<{ id: string }>(sql`select ${customers.id} as id from ${customers}
            where ${customerFilter(ctx.companyId, input.filter!)} order by ${customers.id} for update`)
        ).rows.map((row) => row.id);
    await tx.insert(leadBulkOperations).values({
      companyId: ctx.companyId,
      id,
      recordType: "customer",
      action: input.action,
      changed: 0,
      actorKind: actor.kind,
      actorId: actor.id,
    });
    // Locks the named customers in id order (as archiveIn does: no deadlock between two bulk
    // changes) and saves the values of those the action changes.
    const [saved] = (
      await tx.execute<{ matched: number | string }>(sql`
        with selected as (
          select "id", "archived", "archived_at" from ${customers}
          where "company_id" = ${ctx.companyId} and "id" = any(${textArrayParam(ids)})
          order by "id" for update
        ), saved as (
          insert into ${leadBulkChanges} ("company_id", "operation_id", "lead_id", "archived", "archived_at")
          select ${ctx.companyId}, ${id}, s."id", s."archived", s."archived_at"
          from selected s where s."archived" <> ${archived}
          returning 1
        )
        select (select count(*) from selected)::int as matched, (select count(*) from saved)::int as changed`)
    ).rows;
    const matched = Number(saved?.matched ?? 0);
    const target = { ctx, recordType: "customer" as const, archived };
    if (input.ids && matched < ids.length) await refuseUnknownIds(tx, target, input.ids);
    const { changedIds } = await archiveIn(tx, target, ids);
    await tx.execute(sql`update ${leadBulkOperations} set "changed" = ${changedIds.length}
      where "company_id" = ${ctx.companyId} and "id" = ${id}`);
    return {
      status: "success" as const,
      id,
      matched,
      changed: changedIds.length,
      changed_ids: changedIds,
      undo: { method: "POST" as const, path: `/customers/bulk/${id}/undo` },
    };
  });
}

/**
 * POST /customers/bulk/{id}/undo: restores the archived and archived_at the operation replaced on
 * the customers that still hold what it set (the others are skipped and reported), once, by its
 * author, an admin or a manager, within BULK_UNDO_HOURS; another company's or a leads' operation
 * is a 404.
 */
export async function undoBulkChangeCustomers({
  ctx,
  id,
}: {
  ctx: DomainContext;
  id: string;
}): Promise<UndoBulkCustomersResponse> {
  const by = actorValues(actorOf(ctx.principal));
  return ctx.db.transaction(async (tx) => {
    const { action } = await lockOperationToUndo<BulkCustomersBody["action"]>(tx, ctx, id, "customer");
    // Archived by this operation and not archived again since (archived_at is its transaction's
    // time), or still active after its unarchive: only then is the customer restored.
    const holds =
      action.type === "archive"
        ? sql`cu."archived" and cu."archived_at" = ${operationTime(ctx.companyId, id)}`
        : sql`not cu."archived"`;
    // A customer bulk change names at most CUSTOMER_BULK_IDS_MAX customers: one statement restores them.
    const [row] = (
      await tx.execute<{
        n: number | string;
        skipped: number | string;
        skipped_ids: string[] | null;
        changed_ids: string[] | null;
      }>(sql`
        with c as (
          select "lead_id" as id, "archived", "archived_at" from ${leadBulkChanges}
          where "company_id" = ${ctx.companyId} and "operation_id" = ${id}
        ), target as (
          select cu."id", cu."archived", ${holds} as holds from ${customers} cu join c on c.id = cu."id"
          where cu."company_id" = ${ctx.companyId}
          order by cu."id" for update of cu
        ), done as (
          update ${customers} set "archived" = c."archived", "archived_at" = c."archived_at", "updated_at" = now()
          from c join target on target."id" = c.id
          where ${customers.companyId} = ${ctx.companyId} and ${customers.id} = c.id and target.holds
          returning ${customers.id} as id, target."archived" as old_archived, ${customers.archived} as new_archived
        ), logged as (
          insert into ${recordActivity} ("company_id", "record_type", "record_id", "type", "actor_kind", "actor_id")
          select ${ctx.companyId}, 'customer', d.id,
            case when d.new_archived then 'archived' else 'unarchived' end, ${by.kind}, ${by.id}
          from done d where d.old_archived <> d.new_archived
          returning "record_id"
        )
        select (select count(*) from done)::int as n,
          (select array_agg("record_id") from logged) as changed_ids,
          (select count(*) from target where not target.holds)::int as skipped,
          (select array_agg(id order by id) from (select id from target where not target.holds
            order by id limit ${SKIPPED_IDS_LISTED}) s) as skipped_ids`)
    ).rows;
    await emitRecordEvents(tx, ctx.companyId, "customer", { updated: row?.changed_ids ?? [] });
    await markUndone(tx, ctx.companyId, id);
    return {
      status: "success" as const,
      id,
      restored: Number(row?.n ?? 0),
      skipped: Number(row?.skipped ?? 0),
      skipped_ids: row?.skipped_ids ?? [],
    };
  });
}

import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { can } from "@/lib/auth/permissions";
import type { DbOrTx } from "@/lib/db/client";
import { leadBulkOperations, type BulkRecordType } from "@/lib/db/schema";
import { actorOf } from "@/lib/domain/activity/activity";
import type { DomainContext } from "@/lib/domain/context";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/domain/errors";

/*
 * The rules every bulk undo follows, leads' and customers' alike (extensions.md E2): who may undo,
 * until when, and once only.
 */

/** How long after a bulk change its undo is allowed. */
export const BULK_UNDO_HOURS = 24;

export { UNDO_SKIPPED_IDS_LISTED as SKIPPED_IDS_LISTED } from "@/lib/schemas/lead-bulk";

/**
 * Locks the operation (a concurrent undo waits here, then finds it undone) and checks that the
 * caller may undo it now: 404 unknown, 403 neither its author nor an admin or manager, 409
 * already undone or older than BULK_UNDO_HOURS.
 */
export async function lockOperationToUndo<A>(
  tx: DbOrTx,
  ctx: DomainContext,
  id: string,
  recordType: BulkRecordType,
): Promise<{ action: A }> {
  const [operation] = (
    await tx.execute<{
      action: unknown;
      actor_kind: string;
      actor_id: string;
      undone_at: unknown;
      expired: boolean;
    }>(sql`
      select "action", "actor_kind", "actor_id", "undone_at",
        "created_at" < now() - make_interval(hours => ${BULK_UNDO_HOURS}) as expired
      from ${leadBulkOperations}
      where "company_id" = ${ctx.companyId} and "id" = ${id} and "record_type" = ${recordType}
      for update`)
  ).rows;
  if (!operation) throw new NotFoundError("Bulk operation");
  const actor = actorOf(ctx.principal);
  const isAuthor = operation.actor_kind === actor.kind && operation.actor_id === actor.id;
  if (!isAuthor && !can(ctx.principal, "bulk_changes:undo_any")) {
    throw new ForbiddenError("Only the author of a bulk change, an admin or a manager may undo it");
  }
  if (operation.undone_at !== null) throw new ConflictError("This bulk operation has already been undone");
  if (operation.expired) {
    throw new ConflictError(
      `This bulk operation can no longer be undone: an undo is allowed within ${BULK_UNDO_HOURS} hours of the change`,
    );
  }
  const action = typeof operation.action === "string" ? JSON.parse(operation.action) : operation.action;
  return { action: action as A };
}

/**
 * When the operation ran: its transaction's time, so what `archived_at` got from its archive.
 * Read in SQL, where the timestamp keeps its microseconds.
 */
export function operationTime(companyId: string, id: string): SQL {
  return sql`(select "created_at" from ${leadBulkOperations}
    where "company_id" = ${companyId} and "id" = ${id})`;
}

/** Marks the operation undone (in the undo's transaction). */
export async function markUndone(tx: DbOrTx, companyId: string, id: string): Promise<void> {
  await tx.execute(sql`update ${leadBulkOperations} set "undone_at" = now()
    where "company_id" = ${companyId} and "id" = ${id}`);
}

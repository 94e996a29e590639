import "server-only";
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Principal } from "@/lib/auth/principal";
import type { DbOrTx } from "@/lib/db/client";
import { leads, users } from "@/lib/db/schema";
import { ValidationError } from "@/lib/domain/errors";
import { OWNER_ME, OWNER_NONE } from "@/lib/schemas/lead-owners";

/**
 * A lead's owner must be a user of the company, active or not, so a lead written back unchanged
 * keeps an owner who has since been deactivated.
 */
export async function checkAssignee(
  db: DbOrTx,
  companyId: string,
  userId: string | null | undefined,
  field = "assigned_to",
): Promise<void> {
  if (userId == null) return;
  const [found] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)))
    .limit(1);
  if (!found) throw new ValidationError([{ field, message: "must be a user id of the company or null" }]);
}

/**
 * The owner filter with `me` made the signed-in user's id (`none` and user ids as given). An API
 * key is tied to no user, so `me` from a key is a 400 naming the field.
 */
export function resolveOwnerFilter(
  principal: Principal,
  value: string | undefined,
  field = "assigned_to",
): string | undefined {
  if (value !== OWNER_ME) return value;
  if (principal.kind === "session") return principal.userId;
  throw new ValidationError([
    { field, message: "me means the signed-in user: an API key is tied to no user, give a user id" },
  ]);
}

/** A request's query with its owner filter resolved (resolveOwnerFilter). */
export function withOwnerResolved<Q extends { assigned_to?: string }>(
  ctx: { principal: Principal },
  query: Q,
): Q {
  if (query.assigned_to === undefined) return query;
  return { ...query, assigned_to: resolveOwnerFilter(ctx.principal, query.assigned_to) };
}

/**
 * The WHERE condition of a resolved owner filter: `none` the unassigned leads, else the leads of
 * that user id (an id no user has matches nothing). Served by the owner indexes of leads.
 */
export function ownerCondition(assignedTo: string | undefined): SQL | undefined {
  if (assignedTo === undefined) return undefined;
  if (assignedTo === OWNER_NONE) return isNull(leads.assignedTo);
  return sql`${leads.assignedTo} = ${assignedTo}`;
}

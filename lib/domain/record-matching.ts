import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { escapeLike } from "./normalize";

/**
 * Helpers shared by the lead and customer rules: the identity locks of create-or-update and the
 * search pattern of the lists. The normalization rules themselves live in ./normalize.ts.
 */

/**
 * Serializes create-or-update calls that could match or create the same record: one
 * transaction-scoped advisory lock per normalized identity (phone, then email: a fixed order, so
 * two calls never wait on each other in a cycle), taken before matching. Two concurrent calls
 * with the same new phone or email therefore run one after the other, and the second finds the
 * record the first created. Row locks are only taken after these, never before.
 */
export async function lockIdentities(
  tx: DbOrTx,
  kind: "leads" | "customers",
  companyId: string,
  identities: { phone: string | null; email: string | null },
): Promise<void> {
  const keys: SQL[] = [];
  if (identities.phone) keys.push(lockKey(`${kind}:phone:${companyId}:${identities.phone}`));
  if (identities.email) keys.push(lockKey(`${kind}:email:${companyId}:${identities.email}`));
  if (keys.length === 0) return;
  // The target list is evaluated left to right: phone before email.
  await tx.execute(sql`select ${sql.join(keys, sql`, `)}`);
}

const lockKey = (key: string) => sql`pg_advisory_xact_lock(hashtextextended(${key}, 0))`;

/** `%term%` for `lower(column) like …`: lower-cased, LIKE wildcards escaped (matched literally). */
export function containsPattern(term: string): string {
  return `%${escapeLike(term.toLowerCase())}%`;
}

/** `text[]` literal of the values, for the `tags && array[...]` filter. */
export function textArray(values: readonly string[]): SQL {
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
}

/** `[latitude, longitude]` when both are known. */
export function toLocation(latitude: number | null, longitude: number | null): [number, number] | null {
  return latitude == null || longitude == null ? null : [latitude, longitude];
}

/**
 * `created_at desc, id desc` spelled as the indexes are built (`desc nulls last`; drizzle's
 * `.desc()` in an index definition). A bare `desc` means `nulls first` in PostgreSQL, which the
 * planner cannot serve from those indexes, so it would sort the whole tenant instead. Both
 * columns are NOT NULL, so the order is the same.
 */
export function newestFirst(createdAt: AnyColumn, id: AnyColumn): SQL[] {
  return [sql`${createdAt} desc nulls last`, sql`${id} desc nulls last`];
}

import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { type DbOrTx } from "@/lib/db/client";

// SQL helpers for the plan, job and pin queries. The database formats timestamps so pg and PGlite
// return the same strings, whatever their timestamptz parsers do.

/** A timestamptz as ISO 8601 in UTC with milliseconds (`2026-03-31T09:30:00.000Z`); null stays null. */
export function isoUtc(expression: SQL): SQL {
  return sql`to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** A timestamptz with microseconds: an exact keyset cursor (JavaScript dates stop at milliseconds). */
export function cursorUtc(expression: SQL): SQL {
  return sql`to_char(${expression} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** A timestamp parameter (ISO text cast by the database: no driver-specific Date handling). */
export function timestampParam(date: Date | string): SQL {
  return sql`${typeof date === "string" ? date : pgTimestampText(date)}::timestamptz`;
}

/**
 * A date as timestamptz text. A day's bound next to years 1 or 9999 falls outside them, where
 * JavaScript writes `+010000-…`/`0000-…`, which PostgreSQL reads as `10000-…`/`0001-… BC`.
 */
function pgTimestampText(date: Date): string {
  const iso = date.toISOString();
  const year = date.getUTCFullYear();
  if (year >= 1 && year <= 9999) return iso;
  const monthOn = iso.slice(iso.indexOf("-", 1));
  return year > 9999 ? `${year}${monthOn}` : `${String(1 - year).padStart(4, "0")}${monthOn} BC`;
}

/** An identifier or alias written by our own code (never user input). */
export const ident = (name: string): SQL => sql.raw(name);

/** Keyset position in a `created_at desc, id desc` order. */
export interface CreatedCursor {
  createdAt: string;
  id: string;
}

/**
 * `created_at desc, id desc` as the indexes are built (`desc nulls last`): PostgreSQL only walks
 * an index whose null placement matches, else it sorts the whole tenant for 50 rows.
 */
export function newestFirst(alias: string): SQL {
  return sql.raw(`${alias}.created_at desc nulls last, ${alias}.id desc nulls last`);
}

/** Rows strictly after the cursor in `created_at desc, id desc` order. */
export function afterCreatedCursor(alias: string, cursor: CreatedCursor | undefined): SQL {
  if (!cursor) return sql`true`;
  return sql`(${ident(alias)}.created_at, ${ident(alias)}.id) < (${timestampParam(cursor.createdAt)}, ${cursor.id})`;
}

/** `where` conditions joined by `and` (an empty list is `true`). */
export function allOf(conditions: (SQL | undefined | false)[]): SQL {
  const present = conditions.filter((c): c is SQL => Boolean(c));
  return present.length === 0 ? sql`true` : sql.join(present, sql` and `);
}

/** A count or sum handed back as text or bigint by one driver and as a number by the other. */
export function toNumber(value: unknown): number {
  if (value === null || value === undefined) return 0;
  return typeof value === "number" ? value : Number(value);
}

/**
 * Runs a report statement in its own transaction with enough work_mem for its sorts and hashes to
 * stay off disk (SET LOCAL ends with it). `parallel: false` disables parallel workers.
 */
export async function queryReportRows<T extends Record<string, unknown>>(
  db: DbOrTx,
  query: SQL,
  options: { parallel?: boolean } = {},
): Promise<T[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '64MB'`);
    if (options.parallel === false) await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
    return tx.execute<T>(query).then((result) => result.rows);
  });
}

import { sql } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/db/client";
import type { ApiKeyPrincipal } from "@/lib/auth/principal";
import { isScope } from "@/lib/auth/scopes";
import { hashApiKey } from "@/lib/auth/secrets";

export interface KeyCheck {
  principal: ApiKeyPrincipal;
  dailyLimit: number;
  /** Requests used today including this one; null when the limit was already used up. */
  used: number | null;
}

/**
 * The key check's statement (checkApiKeyAndCountRequest), built by Drizzle's query builder on `qb`
 * (a database, or a QueryBuilder for its text alone) with the key's hash as the placeholder
 * `keyHash`.
 */
function keyCheckQuery(qb: Pick<Db, "$with" | "with">) {
  const keyHash = sql.placeholder("keyHash");
  const asyncCommit = qb
    .$with("async_commit", { setting: sql<string>`setting`.as("setting") })
    .as(sql`select set_config('synchronous_commit', 'off', true) as setting`);
  const k = qb
    .$with("k", {
      company_id: sql<string>`company_id`.as("company_id"),
      id: sql<string>`id`.as("id"),
      scopes: sql<string[]>`scopes`.as("scopes"),
      daily_limit: sql<number>`daily_limit`.as("daily_limit"),
    })
    .as(
      sql`select company_id, id, scopes, daily_limit from api_keys
        where key_hash = ${keyHash} and revoked_at is null and (expires_at is null or expires_at > now())`,
    );
  const usage = qb.$with("usage", { count: sql<number>`count`.as("count") }).as(
    sql`insert into api_key_usage (company_id, key_id, day, count)
      select company_id, id, (now() at time zone 'utc')::date, 1 from k where daily_limit > 0
      on conflict (company_id, key_id, day) do update
        set count = api_key_usage.count + 1
        where api_key_usage.count < (select daily_limit from k)
      returning count`,
  );
  const touched = qb.$with("touched", { touched: sql<number>`touched`.as("touched") }).as(
    sql`update api_keys set last_used_at = now()
      where (company_id, id) = (select company_id, id from k)
        and (last_used_at is null or last_used_at < now() - interval '1 minute')
      returning 1 as touched`,
  );
  return qb
    .with(asyncCommit, k, usage, touched)
    .select({
      company_id: k.company_id,
      id: k.id,
      scopes: k.scopes,
      daily_limit: k.daily_limit,
      used: sql<number | string | null>`(select count from usage)`.as("used"),
    })
    .from(k)
    .crossJoin(asyncCommit);
}

/** The key check's name and text, for bench/floor.ts, whose least-work get by id sends the same statement. */
export const KEY_CHECK = {
  name: "fcrm_api_key_check_v1",
  // A QueryBuilder builds the same statement as a database does; only its types do not say so.
  text: keyCheckQuery(new QueryBuilder() as unknown as Db).toSQL().sql,
};

const keyChecks = new WeakMap<Db, ReturnType<ReturnType<typeof keyCheckQuery>["prepare"]>>();

/**
 * Finds a key by the hash of its secret and, in the same statement, counts this request against
 * the key's limit for the current UTC day. The counter only moves while it is under the limit,
 * and the row lock of the upsert makes concurrent requests (from any number of processes) take
 * the remaining units exactly once. Returns null for an unknown, revoked or expired key.
 *
 * The statement commits asynchronously (`synchronous_commit = off` for its own implicit
 * transaction only, through `set_config(…, true)`): every request of a key updates the same
 * usage row, and waiting for the WAL flush while holding that row's lock would cap a key's
 * requests per second. The count stays exact while the database runs; a crash
 * of the database server can forget the last fraction of a second of increments, never a data
 * write (those commit synchronously in their own transactions). So call it outside a transaction.
 * It is a named prepared statement (Drizzle's, per database): planning these CTEs costs more than
 * running them.
 */
export async function checkApiKeyAndCountRequest(db: Db, key: string): Promise<KeyCheck | null> {
  const keyHash = hashApiKey(key);
  let keyCheck = keyChecks.get(db);
  if (!keyCheck) {
    keyCheck = keyCheckQuery(db).prepare(KEY_CHECK.name);
    keyChecks.set(db, keyCheck);
  }
  const [row] = await keyCheck.execute({ keyHash });
  if (!row) return null;
  return {
    principal: {
      kind: "api_key",
      companyId: row.company_id,
      keyId: row.id,
      scopes: row.scopes.filter(isScope),
    },
    dailyLimit: Number(row.daily_limit),
    used: row.used == null ? null : Number(row.used),
  };
}

/** Seconds until the next 00:00 UTC, when every key's count starts again. */
export function quotaResetInfo(now = new Date()): { resetAt: number; secondsLeft: number } {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return {
    resetAt: Math.floor(next / 1000),
    secondsLeft: Math.max(1, Math.ceil((next - now.getTime()) / 1000)),
  };
}

/** The rate-limit headers of contract section 3, in the IETF draft form and the X- form. */
export function rateLimitHeaders(limit: number, used: number, now = new Date()): Record<string, string> {
  const remaining = Math.max(0, limit - used);
  const { resetAt, secondsLeft } = quotaResetInfo(now);
  return {
    "RateLimit-Policy": `"daily";q=${limit};w=86400`,
    RateLimit: `"daily";r=${remaining};t=${secondsLeft}`,
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": String(remaining),
    "X-RateLimit-Reset": String(resetAt),
  };
}

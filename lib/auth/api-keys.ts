import "server-only";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import type { Db } from "@/lib/db/client";
import type { ApiKeyPrincipal } from "./principal";
import { isScope } from "@/lib/values/scopes";
import { hashApiKey } from "./secrets";

export interface KeyCheck {
  principal: ApiKeyPrincipal;
  dailyLimit: number;
  /** Requests used today including this one; null when the limit was already used up. */
  used: number | null;
}

/** The prepared statement's name: each connection parses and plans it once, then only binds. */
const KEY_CHECK_NAME = "fcrm_api_key_check_v1";

/**
 * Key lookup and today's (UTC) count in one upsert whose row lock spends each unit once across processes.
 * Commits async, outside any transaction (no WAL wait under the row lock): a crash may lose counts, not data.
 */
function keyCheckQuery(db: Db) {
  const keyHash = sql.placeholder("keyHash");
  const asyncCommit = db
    .$with("async_commit", { setting: sql<string>`setting` })
    .as(sql`select set_config('synchronous_commit', 'off', true) as setting`);
  const key = db.$with("k", { id: sql<string>`id` }).as(
    sql`select company_id, id, scopes, daily_limit
        from api_keys
        where key_hash = ${keyHash} and revoked_at is null and (expires_at is null or expires_at > now())`,
  );
  const usage = db.$with("usage", { count: sql<number>`count` }).as(
    sql`insert into api_key_usage (company_id, key_id, day, count)
        select company_id, id, (now() at time zone 'utc')::date, 1 from k where daily_limit > 0
        on conflict (company_id, key_id, day) do update
          set count = api_key_usage.count + 1
          where api_key_usage.count < (select daily_limit from k)
        returning count`,
  );
  // Written at most once a minute per key: the dashboard shows the day, not the second.
  const touched = db.$with("touched", { one: sql<number>`one` }).as(
    sql`update api_keys set last_used_at = now()
        where (company_id, id) in (select company_id, id from k)
          and (last_used_at is null or last_used_at < now() - interval '1 minute')
        returning 1 as one`,
  );
  return (
    db
      .with(asyncCommit, key, usage, touched)
      // Named columns: bench/floor.ts and the bench's baseline read the rows by these names.
      .select({
        companyId: sql<string>`k.company_id`.as("company_id"),
        id: sql<string>`k.id`.as("id"),
        scopes: sql<string[]>`k.scopes`.as("scopes"),
        dailyLimit: sql<number>`k.daily_limit`.as("daily_limit"),
        used: sql<number | null>`(select count from usage)`.as("used"),
      })
      .from(key)
      .crossJoin(asyncCommit)
  );
}

/**
 * The statement's name and text, for bench/floor.ts, whose least-work get by id sends the same
 * (rendered by a Drizzle instance without a connection).
 */
export const KEY_CHECK = {
  name: KEY_CHECK_NAME,
  text: keyCheckQuery(drizzle.mock() as unknown as Db).toSQL().sql,
};

type PreparedKeyCheck = ReturnType<ReturnType<typeof keyCheckQuery>["prepare"]>;
const preparedByDb = new WeakMap<Db, PreparedKeyCheck>();

/**
 * Finds a key by its secret and counts this request against the key's daily limit (see
 * keyCheckQuery). Returns null for an unknown, revoked or expired key.
 */
export async function checkApiKeyAndCountRequest(db: Db, key: string): Promise<KeyCheck | null> {
  let prepared = preparedByDb.get(db);
  if (!prepared) {
    prepared = keyCheckQuery(db).prepare(KEY_CHECK_NAME);
    preparedByDb.set(db, prepared);
  }
  const [row] = await prepared.execute({ keyHash: hashApiKey(key) });
  if (!row) return null;
  return {
    principal: {
      kind: "api_key",
      companyId: row.companyId,
      keyId: row.id,
      scopes: row.scopes.filter(isScope),
    },
    dailyLimit: Number(row.dailyLimit),
    used: row.used == null ? null : Number(row.used),
  };
}

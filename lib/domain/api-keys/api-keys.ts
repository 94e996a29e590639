import { and, eq, sql } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { isScope } from "@/lib/auth/scopes";
import { type DbOrTx } from "@/lib/db/client";
import { apiKeys } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/domain/errors";
import { requireSettingsAdmin } from "@/lib/domain/users/settings-access";
import type { ApiKeyList, ApiKeyRecord } from "@/lib/schemas/settings";

interface KeyRow extends Record<string, unknown> {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  daily_limit: number;
  used_today: number | string | null;
  last_used_at: Date | string | null;
  created_at: Date | string;
  created_by: string | null;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
}

const isoOrNull = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

function toRecord(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes.filter(isScope),
    daily_limit: Number(row.daily_limit),
    used_today: Number(row.used_today ?? 0),
    last_used_at: isoOrNull(row.last_used_at),
    created_at: new Date(row.created_at).toISOString(),
    created_by: row.created_by,
    expires_at: isoOrNull(row.expires_at),
    revoked_at: isoOrNull(row.revoked_at),
  };
}

/** The company's keys with today's (UTC) use; one key when `id` is given. Never the hash. */
async function selectKeys(db: DbOrTx, companyId: string, id?: string): Promise<ApiKeyRecord[]> {
  const rows = (
    await db.execute<KeyRow>(sql`select k.id, k.name, k.prefix, k.scopes, k.daily_limit, coalesce(u.count, 0) as used_today,
               k.last_used_at, k.created_at, k.created_by, k.expires_at, k.revoked_at
        from api_keys k
        left join api_key_usage u
          on u.company_id = k.company_id and u.key_id = k.id and u.day = (now() at time zone 'utc')::date
        where k.company_id = ${companyId} ${id === undefined ? sql`` : sql`and k.id = ${id}`}
        order by k.created_at desc, k.id desc`)
  ).rows;
  return rows.map(toRecord);
}

/** GET /settings/api-keys: every key of the company, newest first, revoked ones included. */
export async function listApiKeys({ ctx }: { ctx: DomainContext }): Promise<ApiKeyList> {
  requireSettingsAdmin(ctx);
  return { data: await selectKeys(ctx.db, ctx.companyId) };
}

/** One key of the company as the settings page shows it (404 for another company's id). */
export async function getApiKeyOrThrow(db: DbOrTx, companyId: string, id: string): Promise<ApiKeyRecord> {
  const [record] = await selectKeys(db, companyId, id);
  if (!record) throw new NotFoundError("API key");
  return record;
}

/** Revokes a key: it stops working at once (idempotent: a revoked key keeps its first revocation time). */
export async function revokeApiKey({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { id: string };
}): Promise<ApiKeyRecord> {
  requireSettingsAdmin(ctx);
  await ctx.db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.companyId, ctx.companyId), eq(apiKeys.id, input.id)));
  return getApiKeyOrThrow(ctx.db, ctx.companyId, input.id);
}

import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { isScope } from "@/lib/values/scopes";
import type { DbOrTx } from "@/lib/db/client";
import { apiKeys, apiKeyUsage } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/domain/errors";
import { recordAudit } from "@/lib/domain/audit/audit";
import { requireSettingsAdmin } from "@/lib/domain/users/settings-access";
import type { ApiKeyList, ApiKeyRecord } from "@/lib/schemas/settings";

const isoOrNull = (value: Date | null): string | null => (value === null ? null : value.toISOString());

/** The company's keys with today's (UTC) use; one key when `id` is given. Never the hash. */
async function selectKeys(db: DbOrTx, companyId: string, id?: string): Promise<ApiKeyRecord[]> {
  const rows = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      scopes: apiKeys.scopes,
      dailyLimit: apiKeys.dailyLimit,
      usedToday: apiKeyUsage.count,
      lastUsedAt: apiKeys.lastUsedAt,
      createdAt: apiKeys.createdAt,
      createdBy: apiKeys.createdBy,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .leftJoin(
      apiKeyUsage,
      and(
        eq(apiKeyUsage.companyId, apiKeys.companyId),
        eq(apiKeyUsage.keyId, apiKeys.id),
        eq(apiKeyUsage.day, sql`(now() at time zone 'utc')::date`),
      ),
    )
    .where(and(eq(apiKeys.companyId, companyId), id === undefined ? undefined : eq(apiKeys.id, id)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes.filter(isScope),
    daily_limit: row.dailyLimit,
    used_today: row.usedToday ?? 0,
    last_used_at: isoOrNull(row.lastUsedAt),
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy,
    expires_at: isoOrNull(row.expiresAt),
    revoked_at: isoOrNull(row.revokedAt),
  }));
}

/** GET /settings/api-keys: every key of the company, newest first, revoked ones included. */
export async function listApiKeys({ ctx }: { ctx: DomainContext }): Promise<ApiKeyList> {
  requireSettingsAdmin(ctx, "api_keys:manage");
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
  requireSettingsAdmin(ctx, "api_keys:manage");
  return ctx.db.transaction(async (tx) => {
    const before = await getApiKeyOrThrow(tx, ctx.companyId, input.id);
    await tx
      .update(apiKeys)
      .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
      .where(and(eq(apiKeys.companyId, ctx.companyId), eq(apiKeys.id, input.id)));
    const after = await getApiKeyOrThrow(tx, ctx.companyId, input.id);
    if (before.revoked_at === null) {
      await recordAudit(tx, ctx, {
        kind: "api_key.revoked",
        target: { type: "api_key", id: input.id },
        changes: [{ field: "revoked_at", from: null, to: after.revoked_at }],
      });
    }
    return after;
  });
}

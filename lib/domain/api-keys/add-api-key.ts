import "server-only";
import type { DomainContext } from "@/lib/domain/context";
import { requireSettingsAdmin } from "@/lib/domain/users/settings-access";
import type { CreateApiKeyBody, CreatedApiKey } from "@/lib/schemas/settings";
import { recordAudit } from "@/lib/domain/audit/audit";
import { getApiKeyOrThrow } from "./api-keys";
import { createApiKey } from "./create-api-key";

/**
 * POST /settings/api-keys: a new key for the admin's company (the same maker as
 * `npm run apikey:create`). The answer carries the secret this one time; only its hash is stored.
 */
export async function addApiKey({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: CreateApiKeyBody;
}): Promise<CreatedApiKey> {
  const admin = requireSettingsAdmin(ctx, "api_keys:manage");
  return ctx.db.transaction(async (tx) => {
    const { key, apiKey } = await createApiKey({
      db: tx,
      companyId: ctx.companyId,
      name: input.name,
      scopes: input.scopes,
      dailyLimit: input.daily_limit,
      createdBy: admin.userId,
    });
    // What the key is and may do; never the key, its hash or its prefix.
    await recordAudit(tx, ctx, {
      kind: "api_key.created",
      target: { type: "api_key", id: apiKey.id },
      changes: [
        { field: "name", from: null, to: apiKey.name },
        { field: "scopes", from: null, to: apiKey.scopes },
        { field: "daily_limit", from: null, to: apiKey.dailyLimit },
      ],
    });
    return { ...(await getApiKeyOrThrow(tx, ctx.companyId, apiKey.id)), key };
  });
}

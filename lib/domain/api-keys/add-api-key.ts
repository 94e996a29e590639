import "server-only";
import type { DomainContext } from "@/lib/domain/context";
import { requireSettingsAdmin } from "@/lib/domain/users/settings-access";
import type { CreateApiKeyBody, CreatedApiKey } from "@/lib/schemas/settings";
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
  const { key, apiKey } = await createApiKey({
    db: ctx.db,
    companyId: ctx.companyId,
    name: input.name,
    scopes: input.scopes,
    dailyLimit: input.daily_limit,
    createdBy: admin.userId,
  });
  return { ...(await getApiKeyOrThrow(ctx.db, ctx.companyId, apiKey.id)), key };
}

import type { RequestContext } from "@/lib/api/handler";
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from "@/lib/auth/secrets";
import { apiKeys } from "@/lib/db/schema";
import { requireSettingsAdmin } from "@/lib/domain/users/settings-access";
import { ID_PREFIX, newId } from "@/lib/ids";
import type { CreateApiKeyBody, CreatedApiKey } from "@/lib/schemas/settings";
import { getApiKeyOrThrow } from "./api-keys";

/**
 * POST /settings/api-keys: a new key for the admin's company. The answer carries the secret this
 * one time; only its hash is stored.
 */
export async function addApiKey({
  ctx,
  input,
}: {
  ctx: RequestContext;
  input: CreateApiKeyBody;
}): Promise<CreatedApiKey> {
  const admin = requireSettingsAdmin(ctx);
  const key = generateApiKey();
  const id = newId(ID_PREFIX.apiKey);
  await ctx.db.insert(apiKeys).values({
    companyId: ctx.companyId,
    id,
    name: input.name,
    prefix: apiKeyDisplayPrefix(key),
    keyHash: hashApiKey(key),
    scopes: input.scopes,
    dailyLimit: input.daily_limit,
    createdBy: admin.userId,
  });
  return { ...(await getApiKeyOrThrow(ctx.db, ctx.companyId, id)), key };
}

import "server-only";
import { eq } from "drizzle-orm";
import { isScope, type Scope } from "@/lib/values/scopes";
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from "@/lib/auth/secrets";
import type { DbOrTx } from "@/lib/db/client";
import { apiKeys, companies } from "@/lib/db/schema";
import { NotFoundError, ValidationError, type FieldProblem } from "@/lib/domain/errors";
import { ID_PREFIX, newId } from "@/lib/ids";
import { API_KEY_DAILY_LIMIT_MAX, DEFAULT_DAILY_LIMIT } from "@/lib/values/limits";
import { charLength } from "@/lib/values/text";

export interface CreateApiKeyInput {
  db: DbOrTx;
  companyId: string;
  name: string;
  /** Scope names; unknown ones are refused (lib/values/scopes.ts). */
  scopes: readonly string[];
  /** Requests per UTC day; 1000 when not given. */
  dailyLimit?: number;
  /** The user who made the key (dashboard); none for the CLI. */
  createdBy?: string | null;
}

export interface CreatedApiKey {
  /** The secret: shown once, never stored. */
  key: string;
  apiKey: { id: string; name: string; prefix: string; scopes: Scope[]; dailyLimit: number; createdAt: Date };
}

/**
 * A new API key: `fcrm_live_` plus 32 random bytes in base62. Only its SHA-256 and first
 * characters (to tell keys apart) are stored.
 */
export async function createApiKey(input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const name = input.name.trim();
  const dailyLimit = input.dailyLimit ?? DEFAULT_DAILY_LIMIT;
  const problems: FieldProblem[] = [];
  if (!name) problems.push({ field: "name", message: "Give the key a name" });
  else if (charLength(name) > 100) problems.push({ field: "name", message: "At most 100 characters" });
  const unknown = input.scopes.filter((s) => !isScope(s));
  if (unknown.length > 0)
    problems.push({
      field: "scopes",
      message: `Unknown scope${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}`,
    });
  else if (input.scopes.length === 0) problems.push({ field: "scopes", message: "Pick at least one scope" });
  if (!Number.isInteger(dailyLimit) || dailyLimit < 1 || dailyLimit > API_KEY_DAILY_LIMIT_MAX)
    problems.push({
      field: "daily_limit",
      message: `Must be a whole number from 1 to ${API_KEY_DAILY_LIMIT_MAX}`,
    });
  if (problems.length > 0) throw new ValidationError(problems);

  const [company] = await input.db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.id, input.companyId));
  if (!company) throw new NotFoundError("Company");

  const key = generateApiKey();
  const scopes = [...new Set(input.scopes.filter(isScope))];
  const [row] = await input.db
    .insert(apiKeys)
    .values({
      companyId: input.companyId,
      id: newId(ID_PREFIX.apiKey),
      name,
      prefix: apiKeyDisplayPrefix(key),
      keyHash: hashApiKey(key),
      scopes,
      dailyLimit,
      createdBy: input.createdBy ?? null,
    })
    .returning({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      dailyLimit: apiKeys.dailyLimit,
      createdAt: apiKeys.createdAt,
    });
  return { key, apiKey: { ...row!, scopes } };
}

import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkApiKeyAndCountRequest } from "@/lib/auth/api-keys";
import { hashApiKey, sha256Hex } from "@/lib/auth/secrets";
import { apiKeys } from "@/lib/db/schema";
import { NotFoundError, ValidationError } from "@/lib/domain/errors";
import { createCompany } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { createApiKey } from "./create-api-key";

const database = setupTestDatabase();

describe(`createApiKey on ${testEngine()}`, () => {
  it("returns the key once and stores only its SHA-256 and display prefix", async () => {
    const company = await createCompany(database.db);
    const { key, apiKey } = await createApiKey({
      db: database.db,
      companyId: company.id,
      name: " Website form ",
      scopes: ["leads:write", "leads:read", "leads:write"],
      dailyLimit: 250,
    });
    expect(key).toMatch(/^fcrm_live_[0-9A-Za-z]{43}$/);
    expect(apiKey).toMatchObject({
      name: "Website form",
      prefix: key.slice(0, 16),
      scopes: ["leads:write", "leads:read"],
      dailyLimit: 250,
    });
    expect(apiKey.createdAt).toBeInstanceOf(Date);

    const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row!.keyHash).toBe(sha256Hex(key));
    expect(row!.keyHash).toBe(hashApiKey(key));
    // Nowhere in the row (nor anywhere in the table) is the secret itself.
    const dump = await database.db.select({ t: sql<string>`row_to_json(k)::text` }).from(sql`api_keys k`);
    expect(dump.map((d) => d.t).join("\n")).not.toContain(key.slice(16));

    const check = await checkApiKeyAndCountRequest(database.db, key);
    expect(check?.principal).toMatchObject({ companyId: company.id, keyId: apiKey.id });
    expect(check?.dailyLimit).toBe(250);
  });

  it("makes a different key each time, with the default daily limit of 1000", async () => {
    const company = await createCompany(database.db);
    const a = await createApiKey({
      db: database.db,
      companyId: company.id,
      name: "a",
      scopes: ["pins:read"],
    });
    const b = await createApiKey({
      db: database.db,
      companyId: company.id,
      name: "b",
      scopes: ["pins:read"],
    });
    expect(a.key).not.toBe(b.key);
    expect(a.apiKey.dailyLimit).toBe(1000);
  });

  it("refuses unknown scopes, an empty name, a bad limit and an unknown company", async () => {
    const company = await createCompany(database.db);
    const attempt = (over: Partial<Parameters<typeof createApiKey>[0]>) =>
      createApiKey({ db: database.db, companyId: company.id, name: "k", scopes: ["leads:read"], ...over });
    await expect(attempt({ scopes: ["leads:read", "leads:delete"] })).rejects.toThrow(
      new ValidationError([{ field: "scopes", message: "Unknown scope leads:delete" }]),
    );
    await expect(attempt({ scopes: [] })).rejects.toBeInstanceOf(ValidationError);
    await expect(attempt({ name: "  " })).rejects.toThrow(/name: Give the key a name/);
    await expect(attempt({ dailyLimit: 0 })).rejects.toThrow(/daily_limit/);
    await expect(attempt({ dailyLimit: 1.5 })).rejects.toThrow(/daily_limit/);
    await expect(attempt({ companyId: "co_does_not_exist" })).rejects.toBeInstanceOf(NotFoundError);
    const rows = await database.db.select().from(apiKeys).where(eq(apiKeys.companyId, company.id));
    expect(rows).toHaveLength(0);
  });
});

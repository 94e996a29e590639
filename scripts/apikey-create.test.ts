import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/auth/secrets";
import { apiKeys } from "@/lib/db/schema";
import { createCompany } from "@/lib/testing/factories";
import { testEngine } from "@/lib/testing/test-database";
import { createCliDatabase, runScript } from "./cli-testing";

let cli: Awaited<ReturnType<typeof createCliDatabase>>;
let companyId: string;

beforeAll(async () => {
  cli = await createCliDatabase();
  companyId = await cli.withDatabase(async (database) => (await createCompany(database.db)).id);
});
afterAll(async () => {
  await cli?.close();
});

// Each case starts a process (tsx, the database): slow on a busy machine.
describe(`npm run apikey:create on ${testEngine()}`, { timeout: 180_000 }, () => {
  it("prints a new key once and stores only its SHA-256", async () => {
    const result = await runScript(
      "apikey-create",
      [
        "--",
        "--company",
        companyId,
        "--scopes",
        "leads:read,pins:read",
        "--name",
        "Zapier",
        "--daily-limit",
        "500",
      ],
      cli.url,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const keys = result.stdout.match(/fcrm_live_[0-9A-Za-z]{43}/g) ?? [];
    expect(keys).toHaveLength(1);
    const key = keys[0]!;
    const rows = await cli.withDatabase((database) =>
      database.db.select().from(apiKeys).where(eq(apiKeys.companyId, companyId)),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: "Zapier",
      keyHash: sha256Hex(key),
      scopes: ["leads:read", "pins:read"],
      dailyLimit: 500,
      prefix: key.slice(0, 16),
    });
    expect(JSON.stringify(rows[0])).not.toContain(key);
  });

  it.each([
    [[], /--company is required/],
    [["--company", "x"], /--scopes is required/],
    [["--company", "x", "--scopes", "leads:read,leads:delete"], /Unknown scope: leads:delete/],
    [
      ["--company", "x", "--scopes", "leads:read", "--daily-limit", "ten"],
      /--daily-limit must be a whole number/,
    ],
    [["--company", "x", "--scopes", "leads:read", "--colour", "red"], /Unknown option '--colour'/],
    [["--company", "co_missing", "--scopes", "leads:read"], /Unknown company "co_missing"/],
  ])("refuses %j with a clear error and exit status 1", async (args, message) => {
    const result = await runScript("apikey-create", args, cli.url);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(result.stdout).not.toMatch(/fcrm_live_/);
  });
});

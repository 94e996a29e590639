import { and, eq, sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as authTest } from "@/app/api/auth/test/route";
import { GET as listLeads } from "@/app/api/leads/route";
import { openDatabase, type Database } from "@/lib/db/client";
import { apiKeyUsage } from "@/lib/db/schema";
import {
  apiRequest,
  call,
  createApiKey,
  createCompany,
  createSessionCookie,
  createUser,
} from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { checkApiKeyAndCountRequest } from "@/lib/auth/api-keys";

const database = setupTestDatabase();

// Both drivers answer db.execute with { rows }; the engine-neutral Db type cannot say so.
const rowsOf = async <T>(db: Database["db"], query: SQL) => ((await db.execute(query)) as { rows: T[] }).rows;

const utcDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** Next 00:00 UTC in Unix seconds, and the seconds left until then, as of `at`. */
function nextReset(at: number) {
  const d = new Date(at);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  return { resetAt: Math.floor(next / 1000), secondsLeft: Math.ceil((next - at) / 1000) };
}

/** A key with `left` requests left today out of `limit` (the rest already used today). */
async function keyWithRequestsLeft(limit: number, left: number) {
  const company = await createCompany(database.db);
  const key = await createApiKey(database.db, company.id, { dailyLimit: limit, scopes: ["leads:read"] });
  if (limit > left) {
    await database.db
      .insert(apiKeyUsage)
      .values({ companyId: company.id, keyId: key.id, day: utcDay(), count: limit - left });
  }
  return { companyId: company.id, ...key };
}

async function usedToday(companyId: string, keyId: string) {
  const [row] = await database.db
    .select({ count: apiKeyUsage.count })
    .from(apiKeyUsage)
    .where(
      and(eq(apiKeyUsage.companyId, companyId), eq(apiKeyUsage.keyId, keyId), eq(apiKeyUsage.day, utcDay())),
    );
  return row?.count ?? 0;
}

describe(`daily quota (${testEngine()})`, () => {
  it("gives exactly 5 successes to 20 parallel requests on a key with 5 left; the rest get 429", async () => {
    const { key, id, companyId } = await keyWithRequestsLeft(12, 5);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call(listLeads, apiRequest("/leads", { key }))),
    );
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(5);
    expect(limited).toHaveLength(15);
    for (const res of limited) {
      expect(res.body).toEqual({
        status: "error",
        error_code: "RATE_LIMIT_EXCEEDED",
        message: expect.stringContaining("Daily limit of 12 requests exceeded"),
      });
      expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(res.headers.get("X-RateLimit-Remaining")).toBe("0");
    }
    // Each success saw a different remaining count: 4, 3, 2, 1, 0.
    expect(ok.map((r) => Number(r.headers.get("X-RateLimit-Remaining"))).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(await usedToday(companyId, id)).toBe(12);
  });

  it("is exact across separate connection pools (several server processes)", async () => {
    const { key, id, companyId } = await keyWithRequestsLeft(30, 7);
    // On PostgreSQL a second pool stands for a second server process; PGlite has one connection.
    const second =
      database.target.kind === "postgres" ? await openDatabase(database.target, { poolSize: 5 }) : database;
    try {
      const checks = await Promise.all(
        Array.from({ length: 24 }, (_, i) => checkApiKeyAndCountRequest((i % 2 ? second : database).db, key)),
      );
      expect(checks.filter((c) => c?.used != null)).toHaveLength(7);
      expect(checks.filter((c) => c && c.used === null)).toHaveLength(17);
      expect(await usedToday(companyId, id)).toBe(30);
    } finally {
      if (second !== database) await second.close();
    }
  });

  it("commits the count asynchronously, as a prepared statement, without leaving synchronous_commit off", async () => {
    const { key, id, companyId } = await keyWithRequestsLeft(10, 10);
    // One connection, so the next statement runs where the check ran.
    const single =
      database.target.kind === "postgres" ? await openDatabase(database.target, { poolSize: 1 }) : database;
    try {
      const check = await checkApiKeyAndCountRequest(single.db, key);
      expect(check?.used).toBe(1);
      const [setting] = await rowsOf<{ synchronous_commit: string }>(single.db, sql`show synchronous_commit`);
      expect(setting?.synchronous_commit).toBe("on");
      expect(await usedToday(companyId, id)).toBe(1);
      if (single.engine === "postgres") {
        // Sent as a named statement, prepared once per connection and then only executed.
        expect((await checkApiKeyAndCountRequest(single.db, key))?.used).toBe(2);
        const prepared = await rowsOf<{ name: string }>(
          single.db,
          sql`select name from pg_prepared_statements`,
        );
        expect(prepared.map((p) => p.name)).toContain("fcrm_api_key_check_v1");
      }
    } finally {
      if (single !== database) await single.close();
    }
  });

  it("sends the rate-limit headers with the limit, remaining count and the next 00:00 UTC", async () => {
    const { key } = await keyWithRequestsLeft(1000, 1000);
    const before = Date.now();
    const res = await call(authTest, apiRequest("/auth/test", { key }));
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.headers.get("RateLimit-Policy")).toBe('"daily";q=1000;w=86400');
    expect(res.headers.get("X-RateLimit-Limit")).toBe("1000");
    expect(res.headers.get("X-RateLimit-Remaining")).toBe("999");
    const reset = Number(res.headers.get("X-RateLimit-Reset"));
    expect([nextReset(before).resetAt, nextReset(after).resetAt]).toContain(reset);
    const match = /^"daily";r=999;t=(\d+)$/.exec(res.headers.get("RateLimit") ?? "");
    expect(match).not.toBeNull();
    const t = Number(match?.[1]);
    expect(t).toBeLessThanOrEqual(nextReset(before).secondsLeft);
    expect(t).toBeGreaterThanOrEqual(nextReset(after).secondsLeft - 1);
    expect(t).toBeLessThanOrEqual(86_400);

    const second = await call(authTest, apiRequest("/auth/test", { key }));
    expect(second.headers.get("X-RateLimit-Remaining")).toBe("998");
    expect(second.headers.get("RateLimit")).toMatch(/^"daily";r=998;t=\d+$/);
  });

  it("answers 429 with Retry-After until 00:00 UTC once the limit is used up", async () => {
    const { key } = await keyWithRequestsLeft(3, 0);
    const before = Date.now();
    const res = await call(authTest, apiRequest("/auth/test", { key }));
    expect(res.status).toBe(429);
    expect(res.body.message).toContain("Daily limit of 3 requests exceeded");
    const retryAfter = Number(res.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(nextReset(before).secondsLeft);
    expect(retryAfter).toBeGreaterThanOrEqual(nextReset(Date.now()).secondsLeft - 1);
    expect(res.headers.get("X-RateLimit-Limit")).toBe("3");
    expect(res.headers.get("X-RateLimit-Remaining")).toBe("0");
    expect(res.headers.get("RateLimit")).toMatch(/^"daily";r=0;t=\d+$/);
  });

  it("counts every request that passes the key check, whatever its outcome", async () => {
    const { key, id, companyId } = await keyWithRequestsLeft(10, 10);
    const badVersion = await call(listLeads, apiRequest("/leads", { key, version: "0.9" }));
    expect(badVersion.status).toBe(400);
    const badQuery = await call(listLeads, apiRequest("/leads?limit=0", { key }));
    expect(badQuery.status).toBe(400);
    expect(badQuery.headers.get("X-RateLimit-Remaining")).toBe("8");
    await call(listLeads, apiRequest("/leads", { key: "fcrm_not_a_key" }));
    expect(await usedToday(companyId, id)).toBe(2);
  });

  it("counts per UTC day: yesterday's requests do not count today", async () => {
    const { key, id, companyId } = await keyWithRequestsLeft(5, 5);
    await database.db.insert(apiKeyUsage).values({ companyId, keyId: id, day: utcDay(-1), count: 5 });
    const res = await call(authTest, apiRequest("/auth/test", { key }));
    expect(res.status).toBe(200);
    expect(res.headers.get("X-RateLimit-Remaining")).toBe("4");
    expect(await usedToday(companyId, id)).toBe(1);
  });

  it("does not use a key's quota for dashboard sessions", async () => {
    const company = await createCompany(database.db);
    const key = await createApiKey(database.db, company.id, { dailyLimit: 2 });
    const user = await createUser(database.db, company.id, { role: "admin" });
    const cookie = await createSessionCookie(database.db, user);
    for (let i = 0; i < 5; i++) {
      const res = await call(listLeads, apiRequest("/leads", { cookie }));
      expect(res.status).toBe(200);
      expect(res.headers.get("X-RateLimit-Limit")).toBeNull();
      expect(res.headers.get("RateLimit")).toBeNull();
    }
    const rows = await database.db.select().from(apiKeyUsage).where(eq(apiKeyUsage.companyId, company.id));
    expect(rows).toEqual([]);
    const viaKey = await call(authTest, apiRequest("/auth/test", { key: key.key }));
    expect(viaKey.headers.get("X-RateLimit-Remaining")).toBe("1");
  });
});

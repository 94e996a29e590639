import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, createCompany } from "@/lib/testing/factories";
import {
  engine,
  freshDatabase,
  startServer,
  stopServer,
  VERSION,
  type FreshDatabase,
  type ServerProcess,
} from "./harness";

// Two server processes on one database (issue #7.3): on PostgreSQL a key's quota holds exactly
// across both; the embedded engine refuses the second server with a clear "in use" error.

let db: FreshDatabase;
let companyId: string;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  const database = await db.open();
  try {
    ({ id: companyId } = await createCompany(database.db));
  } finally {
    await database.close();
  }
});
afterAll(async () => {
  for (const server of servers) await stopServer(server);
  await db?.drop();
});

async function keyWithLimit(dailyLimit: number): Promise<string> {
  if (engine !== "postgres") throw new Error("PostgreSQL only: the embedded database is held by the server");
  const database = await db.open();
  try {
    return (await createApiKey(database.db, companyId, { dailyLimit })).key;
  } finally {
    await database.close();
  }
}

describe(`two server processes on one database (${engine})`, () => {
  if (engine === "postgres") {
    it("share a key's daily limit exactly: N left, N + 20 parallel requests over both, N succeed", async () => {
      servers.push(await startServer({ databaseUrl: db.url }), await startServer({ databaseUrl: db.url }));
      const [first, second] = servers as [ServerProcess, ServerProcess];
      const limit = 40;
      const used = 10;
      const left = limit - used;
      const key = await keyWithLimit(limit);
      const get = (server: ServerProcess) =>
        fetch(`${server.url}/api/auth/test`, { headers: { ...VERSION, "x-api-key": key } });
      for (let i = 0; i < used; i++) expect((await get(servers[i % 2]!)).status).toBe(200);

      const responses = await Promise.all(
        Array.from({ length: left + 20 }, (_, i) => get(i % 2 === 0 ? first : second)),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(left);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20);
      // Both processes answered part of the load.
      expect(new Set(responses.map((r) => new URL(r.url).port)).size).toBe(2);
      const refused = responses.find((r) => r.status === 429)!;
      expect(await refused.json()).toMatchObject({ error_code: "RATE_LIMIT_EXCEEDED" });
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    });
  } else {
    it("refuses a second server on the same embedded database with a clear 'in use' error", async () => {
      const first = await startServer({ databaseUrl: db.url });
      servers.push(first);
      const second = await startServer({ databaseUrl: db.url, waitUntilUp: false });
      servers.push(second);
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`is in use by process ${first.child.pid}`);
      expect(second.output()).toMatch(/Stop the server \(or the other command\) first/);
      expect(second.output()).not.toMatch(/\n\s+at /); // a message, not a stack trace
      // The first one is unaffected.
      const res = await fetch(`${first.url}/api/openapi.json`);
      expect(res.status).toBe(200);
      expect(await stopServer(first)).toBe(0);
    });
  }
});

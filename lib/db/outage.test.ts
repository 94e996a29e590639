import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as authTest } from "@/app/api/auth/test/route";
import { openDatabase, useDatabaseForTests, type Database } from "@/lib/db/client";
import { apiRequest, call, createTenant } from "@/lib/testing/factories";
import { TcpProxy } from "@/lib/testing/tcp-proxy";
import { createTestDatabase, testEngine } from "@/lib/testing/test-database";

// Contract section 2: a database that is unreachable or not answering gives 503
// SERVICE_UNAVAILABLE within 5 s, no hang, and the service recovers by itself.

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  useDatabaseForTests(undefined);
  await database?.close();
});

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  const result = await run();
  return [result, Date.now() - started];
}

if (testEngine() === "postgres") {
  describe("PostgreSQL outage", () => {
    let proxy: TcpProxy;
    let proxied: Database;
    let key: string;

    beforeAll(async () => {
      ({ key } = await createTenant(database.db));
      if (database.target.kind !== "postgres") throw new Error("expected PostgreSQL");
      const url = new URL(database.target.url);
      proxy = new TcpProxy(url.hostname, Number(url.port || 5432));
      await proxy.up();
      url.host = `127.0.0.1:${proxy.port}`;
      proxied = await openDatabase({ kind: "postgres", url: url.toString() }, { statementTimeoutMs: 2000 });
      useDatabaseForTests(proxied);
    });
    afterAll(async () => {
      await proxy?.down();
      await proxied?.close().catch(() => {});
    });

    it("answers normally through the proxy", async () => {
      expect((await call(authTest, apiRequest("/auth/test", { key }))).status).toBe(200);
    });

    it("answers 503 quickly when the server refuses connections, and recovers", async () => {
      await proxy.down();
      const [res, ms] = await timed(() => call(authTest, apiRequest("/auth/test", { key })));
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: "error",
        message: expect.stringContaining("temporarily unavailable"),
        error_code: "SERVICE_UNAVAILABLE",
      });
      expect(ms).toBeLessThan(5000);
      await proxy.up();
      expect((await call(authTest, apiRequest("/auth/test", { key }))).status).toBe(200);
    });

    it("answers 503 within 5 s when the server stops answering, and recovers", async () => {
      await proxy.blackhole();
      const [results, ms] = await timed(() =>
        Promise.all(Array.from({ length: 3 }, () => call(authTest, apiRequest("/auth/test", { key })))),
      );
      expect(results.map((r) => r.status)).toEqual([503, 503, 503]);
      expect(results[0]?.body.error_code).toBe("SERVICE_UNAVAILABLE");
      expect(ms).toBeLessThan(5000);
      await proxy.up();
      // Connections stuck in the black hole are released by their timeouts; the pool then reconnects.
      let status = 0;
      for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
        status = (await call(authTest, apiRequest("/auth/test", { key }))).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 250));
      }
      expect(status).toBe(200);
    });
  });
} else {
  describe("embedded database unavailable", () => {
    it("answers 503 when the embedded database is closed, and recovers once it is open again", async () => {
      const { key } = await createTenant(database.db);
      const other = await openDatabase({ kind: "pglite-memory" });
      await other.migrate();
      useDatabaseForTests(other);
      await other.close();
      const res = await call(authTest, apiRequest("/auth/test", { key }));
      expect(res.status).toBe(503);
      expect(res.body.error_code).toBe("SERVICE_UNAVAILABLE");
      useDatabaseForTests(database);
      expect((await call(authTest, apiRequest("/auth/test", { key }))).status).toBe(200);
    });
  });
}

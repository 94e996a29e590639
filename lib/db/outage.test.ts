import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as authTest } from "@/app/api/auth/test/route";
import { GET as unavailablePage } from "@/app/unavailable/route";
import { openDatabase, useDatabaseForTests, type Database } from "@/lib/db/client";
import { apiRequest, call, createTenant } from "@/lib/testing/factories";
import { renameDatabase } from "@/lib/testing/rename-database";
import { TcpProxy } from "@/lib/testing/tcp-proxy";
import { createTestDatabase, setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { proxy as pageProxy } from "@/proxy";

// Contract section 2: an unreachable database gives 503 within 5 s and the service recovers;
// dashboard pages answer the outage page instead of a 500.

const database = setupTestDatabase();

/** What the proxy answers for a signed-in dashboard page (the cookie need not be valid). */
async function dashboardPage(path = "/leads?status=new") {
  const response = await pageProxy(
    new NextRequest(`http://localhost${path}`, { headers: { cookie: "fcrm_session=some-token" } }),
  );
  return { response, text: await response.text() };
}

async function expectOutagePage(path = "/leads?status=new") {
  const { response, text } = await dashboardPage(path);
  expect(response.status).toBe(503);
  expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  expect(response.headers.get("retry-after")).toBe("5");
  expect(text).toContain("FieldCRM is temporarily unavailable");
  expect(text).toContain(`href="${path.replace("&", "&amp;")}"`);
}

async function expectPagePassesOn() {
  const { response } = await dashboardPage();
  expect(response.status).toBe(200);
  expect(response.headers.get("x-middleware-next")).toBe("1");
}

describe("the outage page", () => {
  it("answers 503 with a link back to a page of this site only", async () => {
    for (const [next, link] of [
      ["/leads/ld_1?tab=notes", "/leads/ld_1?tab=notes"],
      ["//other.example/x", "/"],
      ["https://other.example/", "/"],
    ] as const) {
      const response = unavailablePage(
        new Request(`http://localhost/unavailable?next=${encodeURIComponent(next)}`),
      );
      expect(response.status).toBe(503);
      expect(await response.text()).toContain(`href="${link}"`);
    }
  });

  it("is reached without a session and without the database", async () => {
    const response = await pageProxy(new NextRequest("http://localhost/unavailable?next=/leads"));
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });
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

    it("answers the 503 page for dashboard pages while the server refuses connections, and recovers", async () => {
      await expectPagePassesOn();
      await proxy.down();
      await expectOutagePage();
      await proxy.up();
      await expectPagePassesOn();
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

  describe("PostgreSQL without our database", () => {
    const rename = (from: string, to: string) => renameDatabase(process.env.TEST_DATABASE_URL!, from, to);

    it("answers 503 while the database does not exist (renamed), and recovers on the same pool", async () => {
      const missing = await createTestDatabase();
      if (missing.target.kind !== "postgres") throw new Error("expected PostgreSQL");
      const name = new URL(missing.target.url).pathname.slice(1);
      try {
        const { key } = await createTenant(missing.db);
        useDatabaseForTests(missing);
        expect((await call(authTest, apiRequest("/auth/test", { key }))).status).toBe(200);
        await expectPagePassesOn();

        await rename(name, `${name}_away`);
        try {
          const res = await call(authTest, apiRequest("/auth/test", { key }));
          expect(res.status).toBe(503);
          expect(res.body.error_code).toBe("SERVICE_UNAVAILABLE");
          await expectOutagePage();
        } finally {
          await rename(`${name}_away`, name);
        }
        // The pool that met the missing database serves again, without a restart.
        expect((await call(authTest, apiRequest("/auth/test", { key }))).status).toBe(200);
        await expectPagePassesOn();
      } finally {
        useDatabaseForTests(database);
        await missing.close();
      }
    });

    it("answers 503 while the server refuses our role", async () => {
      const { key } = await createTenant(database.db);
      if (database.target.kind !== "postgres") throw new Error("expected PostgreSQL");
      const url = new URL(database.target.url);
      url.username = `fcrm_no_such_role_${process.pid}`;
      const refused = await openDatabase({ kind: "postgres", url: url.toString() });
      try {
        useDatabaseForTests(refused);
        const res = await call(authTest, apiRequest("/auth/test", { key }));
        expect(res.status).toBe(503);
        expect(res.body.error_code).toBe("SERVICE_UNAVAILABLE");
        await expectOutagePage();
      } finally {
        useDatabaseForTests(database);
        await refused.close();
      }
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

    it("answers the 503 page for dashboard pages while the embedded database is closed", async () => {
      useDatabaseForTests(database);
      await expectPagePassesOn();
      const other = await openDatabase({ kind: "pglite-memory" });
      useDatabaseForTests(other);
      await other.close();
      try {
        await expectOutagePage();
        await expectOutagePage("/");
      } finally {
        useDatabaseForTests(database);
      }
      await expectPagePassesOn();
    });
  });
}

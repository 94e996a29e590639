import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, postgresConnection, POSTGRES_SESSION_OPTIONS } from "@/lib/db/client";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

// No API statement is JIT-compiled (costs more than it saves): PostgreSQL sessions start with
// `jit = off` (lib/db/client.ts); the embedded engine has no JIT compiler.
describe(`the API's sessions (${testEngine()})`, () => {
  it("compile no plan, on every session of the pool, even past every JIT threshold", async () => {
    // More sessions than one: the setting comes with each session, not with the first.
    const sessions = await Promise.all(
      [1, 2, 3].map(() =>
        database.db.transaction(async (tx) => {
          const [shown] = (
            await tx.execute<{ jit: string; pid: number }>(
              sql`select current_setting('jit') as jit, pg_backend_pid() as pid, pg_sleep(0.05) is null`,
            )
          ).rows;
          await tx.execute(sql`set local jit_above_cost = 0`);
          const [plan] = (
            await tx.execute<{ "QUERY PLAN": unknown }>(
              sql`explain (analyze, format json) select sum(i * 2) from generate_series(1, 1000) as g(i)`,
            )
          ).rows;
          return { ...shown!, plan: JSON.stringify(plan!["QUERY PLAN"]) };
        }),
      ),
    );
    for (const session of sessions) {
      expect(session.plan).toContain('"Execution Time"');
      expect(session.plan).not.toContain('"JIT"');
    }
    if (testEngine() === "postgres") {
      expect(new Set(sessions.map((s) => s.pid)).size).toBe(3);
      for (const session of sessions) expect(session.jit).toBe("off");
    }
  });
});

if (testEngine() === "postgres") {
  describe("a DATABASE_URL with startup options of its own", () => {
    // node-postgres lets a URL's `options` replace the pool's whole: without the merge these
    // sessions would start with `jit` on.
    async function sessionSettings(options: string) {
      if (database.target.kind !== "postgres") throw new Error("expected PostgreSQL");
      const url = new URL(database.target.url);
      url.searchParams.set("options", options);
      const opened = await openDatabase({ kind: "postgres", url: url.href }, { poolSize: 2 });
      try {
        const [row] = (
          await opened.db.execute<{ jit: string; work_mem: string }>(
            sql`select current_setting('jit') as jit, current_setting('work_mem') as work_mem`,
          )
        ).rows;
        return row!;
      } finally {
        await opened.close();
      }
    }

    it("keeps the API's settings beside the URL's", async () => {
      expect(await sessionSettings("-c work_mem=5MB")).toEqual({ jit: "off", work_mem: "5MB" });
    });

    it("lets the URL's setting win where it names the same parameter", async () => {
      expect((await sessionSettings("-c jit=on")).jit).toBe("on");
    });
  });
}

describe("postgresConnection", () => {
  it("passes a URL without startup options as it is, with the API's options beside it", () => {
    const url = "postgres://app:p%40ss@db.internal:6432/crm?sslmode=disable";
    expect(postgresConnection(url)).toEqual({ connectionString: url, options: POSTGRES_SESSION_OPTIONS });
  });

  it("puts the API's options before the URL's own, in the URL, and keeps the rest of it", () => {
    const { connectionString, options } = postgresConnection(
      "postgres://app:p%40ss@db.internal:6432/crm?options=-c%20search_path%3Dcrm&sslmode=disable",
    );
    const parsed = new URL(connectionString);
    expect(parsed.searchParams.get("options")).toBe(`${POSTGRES_SESSION_OPTIONS} -c search_path=crm`);
    expect(options).toBe(`${POSTGRES_SESSION_OPTIONS} -c search_path=crm`);
    expect(parsed.searchParams.get("sslmode")).toBe("disable");
    expect([parsed.username, decodeURIComponent(parsed.password), parsed.host, parsed.pathname]).toEqual([
      "app",
      "p@ss",
      "db.internal:6432",
      "/crm",
    ]);
  });

  it("names no part of a URL it cannot read, its password least", () => {
    const bad = "postgres://app:s3cret@db.internal:bad-port/crm?options=-c%20work_mem%3D8MB";
    const error = (() => {
      try {
        postgresConnection(bad);
      } catch (thrown) {
        return thrown as Error;
      }
    })();
    expect(error?.message).toBe("DATABASE_URL is not a valid postgres:// URL");
    expect(JSON.stringify(error, Object.getOwnPropertyNames(error))).not.toContain("s3cret");
  });
});

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, type Database } from "@/lib/db/client";
import { createTestDatabase, testEngine } from "@/lib/testing/test-database";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

// No statement of the API is JIT-compiled: JIT would compile, at every request, each plan whose
// cost passes jit_above_cost (a report over a larger tenant's plans), which costs more than it
// saves (bench/RESULTS.md, finding 42). PostgreSQL's sessions start with `jit = off`
// (lib/db/client.ts); the embedded engine is built without a JIT compiler.
describe(`the API's sessions (${testEngine()})`, () => {
  it("compile no plan, on every session of the pool, even past every JIT threshold", async () => {
    // More sessions than one: the setting comes with each session, not with the first.
    const sessions = await Promise.all(
      [1, 2, 3].map(() =>
        database.db.transaction(async (tx) => {
          const [shown] = await queryRows<{ jit: string; pid: number }>(
            tx,
            sql`select current_setting('jit') as jit, pg_backend_pid() as pid, pg_sleep(0.05) is null`,
          );
          await tx.execute(sql`set local jit_above_cost = 0`);
          const [plan] = await queryRows<{ "QUERY PLAN": unknown }>(
            tx,
            sql`explain (analyze, format json) select sum(i * 2) from generate_series(1, 1000) as g(i)`,
          );
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

import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { closeDatabase, getDatabase } from "@/lib/db/client";
import { resetEnvCache } from "@/lib/env";

const saved = process.env.DATABASE_URL;
afterEach(async () => {
  await closeDatabase();
  process.env.DATABASE_URL = saved;
  resetEnvCache();
});

describe("the process's database on the embedded engine", () => {
  it("is migrated and has the list counters vacuumed when it opens (PGlite runs no autovacuum)", async () => {
    process.env.DATABASE_URL = "memory:";
    resetEnvCache();
    const database = await getDatabase();
    expect(database.engine).toBe("pglite");
    const [stats] = (
      await database.db.execute<{ vacuum_count: number | string }>(
        sql`select vacuum_count from pg_stat_user_tables where relname = 'list_counts'`,
      )
    ).rows;
    expect(Number(stats?.vacuum_count)).toBe(1);
    // The same database on the next call; a second open would vacuum again.
    expect(await getDatabase()).toBe(database);
  });
});

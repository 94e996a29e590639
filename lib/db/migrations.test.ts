import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import journal from "@/drizzle/meta/_journal.json";

const database = setupTestDatabase();

describe(`migrations on ${testEngine()}`, () => {
  it("create every table with (company_id, id) in its primary key", async () => {
    const rows = (
      await database.db.execute<{ table_name: string; columns: string }>(sql`
      select tc.table_name, string_agg(kcu.column_name, ',' order by kcu.ordinal_position) as columns
      from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu
        on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
      where tc.constraint_type = 'PRIMARY KEY' and tc.table_schema = 'public'
      group by tc.table_name order by tc.table_name`)
    ).rows;
    const keys = Object.fromEntries(rows.map((r) => [r.table_name, r.columns]));
    for (const table of [
      "leads",
      "customers",
      "service_plans",
      "jobs",
      "job_visits",
      "pins",
      "pin_types",
      "users",
      "api_keys",
      "list_counts",
      "job_report_totals",
    ]) {
      expect(keys[table], table).toBe("company_id,id");
    }
    expect(keys.companies).toBe("id");
  });

  it("are idempotent", async () => {
    await database.migrate();
    const rows = (await database.db.execute<{ n: number }>(sql`select count(*)::int as n from leads`)).rows;
    expect(rows[0]?.n).toBe(0);
  });

  it("load pg_trgm, btree_gin and btree_gist", async () => {
    const rows = (
      await database.db.execute<{ extname: string }>(sql`select extname from pg_extension order by extname`)
    ).rows;
    const names = rows.map((r) => r.extname);
    expect(names).toContain("pg_trgm");
    expect(names).toContain("btree_gin");
    expect(names).toContain("btree_gist");
  });
});

if (testEngine() === "postgres") {
  describe("migrations on PostgreSQL", () => {
    it("run without the API's statement timeout (a large backfill takes longer than a request may)", async () => {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      const name = `fcrm_test_migrate_${process.pid}_${Date.now()}`;
      const { default: pg } = await import("pg");
      const run = async (target: string, statement: string) => {
        const client = new pg.Client({ connectionString: target });
        await client.connect();
        try {
          return (await client.query<{ n: number }>(statement)).rows;
        } finally {
          await client.end();
        }
      };
      await run(url.toString(), `create database "${name}"`);
      const server = url.toString();
      url.pathname = `/${name}`;
      // A timeout that would cancel every migration statement: the API's queries still are.
      const tight = await openDatabase({ kind: "postgres", url: url.toString() }, { statementTimeoutMs: 1 });
      try {
        await tight.migrate();
        const applied = await run(
          url.toString(),
          "select count(*)::int as n from drizzle.__drizzle_migrations",
        );
        expect(applied[0]?.n).toBe(journal.entries.length);
        await expect(
          tight.db.execute(sql`select pg_sleep(0.05)`).then((result) => result.rows),
        ).rejects.toThrow();
      } finally {
        await tight.close();
        await run(server, `drop database if exists "${name}" with (force)`);
      }
    });
  });
}

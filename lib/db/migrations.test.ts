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

describe(`migrations on ${testEngine()}`, () => {
  it("create every table with (company_id, id) in its primary key", async () => {
    const rows = await queryRows<{ table_name: string; columns: string }>(
      database.db,
      sql`
      select tc.table_name, string_agg(kcu.column_name, ',' order by kcu.ordinal_position) as columns
      from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu
        on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
      where tc.constraint_type = 'PRIMARY KEY' and tc.table_schema = 'public'
      group by tc.table_name order by tc.table_name`,
    );
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
    ]) {
      expect(keys[table], table).toBe("company_id,id");
    }
    expect(keys.companies).toBe("id");
  });

  it("are idempotent", async () => {
    await database.migrate();
    const rows = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from leads`);
    expect(rows[0]?.n).toBe(0);
  });

  it("load pg_trgm and btree_gin", async () => {
    const rows = await queryRows<{ extname: string }>(
      database.db,
      sql`select extname from pg_extension order by extname`,
    );
    const names = rows.map((r) => r.extname);
    expect(names).toContain("pg_trgm");
    expect(names).toContain("btree_gin");
  });
});

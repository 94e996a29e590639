import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { PgDialect, pgSchema, text } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows, type Database, type DbOrTx } from "@/lib/db/client";
import { customers, leads } from "@/lib/db/schema";
import { customerListQueries } from "@/lib/domain/customers/list-customers";
import { leadListQueries } from "@/lib/domain/leads/list-leads";
import { listCountTotal } from "@/lib/domain/list-counts";
import type { ListQueries } from "@/lib/domain/record-matching";
import { planFilterSql } from "@/lib/domain/service-plans/filters";
import { plansWithNumbersSql } from "@/lib/domain/service-plans/list";
import { jobFilterSql } from "@/lib/domain/serviced-jobs/filters";
import { dateRangeTotalSql, jobsWithDetailsSql } from "@/lib/domain/serviced-jobs/list";
import { getCustomersQuerySchema } from "@/lib/schemas/customers";
import { getLeadsQuerySchema } from "@/lib/schemas/leads";
import { getServicePlansQuerySchema } from "@/lib/schemas/service-plans";
import { getServicedJobsQuerySchema } from "@/lib/schemas/serviced-jobs";
import { createTestDatabase, testEngine } from "@/lib/testing/test-database";
import { renderStatement } from "./render";

const dialect = new PgDialect();
const drizzleRendered = (statement: SQL) => {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return { sql: text, params };
};

/** Every statement of a lead or customer list request: its page and total, or its matches. */
function statementsOf(queries: ListQueries<object>): SQL[] {
  if ("matches" in queries) return [queries.matches.getSQL()];
  const total = "kept" in queries.total ? queries.total.kept : queries.total.counted;
  return [queries.page.getSQL(), (total as SQLWrapper).getSQL()];
}

/** Query strings of the lead and customer lists: each filter, the search's kinds, a deep page. */
const LIST_QUERIES: Record<string, string>[] = [
  {},
  { archived: "true" },
  { tags: "vip,high-value" },
  { tags: "vip", archived: "true" },
  { search: "jo" },
  { search: "john" },
  { search: 'O\'Brien "quoted" 100%_x\\' },
  { search: "555-37" },
  { search: "5551234" },
  { search: "(555) 123-4567" },
  { search: "mart", tags: "vip" },
  { page: "3", limit: "10" },
  { page: "100", limit: "50" },
  { page: "41", limit: "50", search: "smith" },
];

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe("renderStatement", () => {
  it("renders every lead and customer list statement as Drizzle does, text and values", () => {
    // The database only builds the counted totals' statements here; nothing runs.
    const ctx = { db: database.db, companyId: "co_render'test" };
    let count = 0;
    for (const query of LIST_QUERIES) {
      const leadQueries = leadListQueries(ctx, getLeadsQuerySchema.parse({ ...query, stage: "won" }));
      const customerQueries = customerListQueries(
        ctx,
        getCustomersQuerySchema.parse({ ...query, status: "inactive" }),
      );
      const plain = [
        leadListQueries(ctx, getLeadsQuerySchema.parse(query)),
        customerListQueries(ctx, getCustomersQuerySchema.parse(query)),
      ];
      for (const queries of [leadQueries, customerQueries, ...plain]) {
        for (const statement of statementsOf(queries as ListQueries<object>)) {
          expect(renderStatement(statement)).toEqual(drizzleRendered(statement));
          count++;
        }
      }
    }
    expect(count).toBeGreaterThan(LIST_QUERIES.length * 4);
  });

  it("renders the plan and job lists' statements as Drizzle does", () => {
    const statements: SQL[] = [];
    for (const query of [
      {},
      { status: "inactive", frequency: "Monthly" },
      { service_type: "Termite", sold_by_user_id: "usr_1" },
      { created_at_range_start: "2026-01-01", created_at_range_end: "2026-03-31T12:00:00Z" },
    ]) {
      const filters = getServicePlansQuerySchema.parse(query);
      statements.push(planFilterSql("co_1", filters));
      statements.push(plansWithNumbersSql("co_1", filters, { limit: 50, offset: 100n }));
    }
    for (const query of [
      {},
      { only_completed: "false" },
      { service_date_range_start: "2026-05-01", service_date_range_end: "2026-05-31" },
    ]) {
      const filters = getServicedJobsQuerySchema.parse(query);
      statements.push(jobFilterSql("co_1", filters));
      statements.push(jobsWithDetailsSql("co_1", filters, { limit: 50, offset: 0n }));
      statements.push(dateRangeTotalSql("co_1", filters));
    }
    for (const statement of statements) {
      expect(renderStatement(statement)).toEqual(drizzleRendered(statement));
    }
  });

  it("renders each kind of chunk it knows as Drizzle does", () => {
    const at = new Date("2026-11-27T10:11:12.345Z");
    const statement = sql`select ${customers.id}, ${sql.identifier('odd"name')} from ${leads}
      where ${leads.createdAt} < ${sql.param(at, leads.createdAt)} and ${leads.tags} && ${sql.param(["a", "b"], leads.tags)}
      and ${leads.name} = ${"x"} and ${1} = ${1.5} and ${true} and ${null} is null and ${at} > ${10n}
      ${undefined} and ${sql`nested ${sql`deeper ${"y"}`}`} ${sql.raw("raw text")}`;
    const rendered = renderStatement(statement);
    expect(rendered).toEqual(drizzleRendered(statement));
    expect(rendered?.params).toHaveLength(10);
  });

  it("leaves to Drizzle what it does not know: placeholders, aliases, inlined values, lists, named schemas, another copy's chunks", () => {
    // Like an SQL of another copy of drizzle-orm: not this copy's class, and its getSQL() is itself.
    const foreignSql: { getSQL(): unknown } = { getSQL: () => foreignSql };
    const other = pgSchema("other").table("things", { name: text("name") });
    const unknown: SQL[] = [
      sql`select ${sql.placeholder("id")}`,
      sql`select ${sql`1`.as("one")}`,
      sql`select ${sql`${"x"}`.inlineParams()}`,
      sql`select 1 where 2 in ${[1, 2]}`,
      sql`select ${other.name} from ${other}`,
      sql`select ${() => 1}`,
      sql`select ${{ plain: "object" }}`,
      // A chunk of another copy of drizzle-orm: its getSQL() is no SQL of this copy.
      sql`select ${foreignSql}`,
      sql`select ${{ getSQL: () => foreignSql }}`,
    ];
    for (const statement of unknown) expect(renderStatement(statement)).toBeUndefined();
  });
});

describe(`queryRows (${testEngine()})`, () => {
  it("sends a statement it renders to the driver, and reads it as Drizzle does", async () => {
    const at = "2026-11-27T10:11:12.345678Z";
    const statement = sql`select ${at}::timestamptz as at, ${at}::date as day, array[${at}::timestamptz] as ats,
      '1 day'::interval as span, 12.50::numeric as amount, ${sql.param(["a", "b"])}::text[] as tags, ${7}::int as count,
      ${true} as flag, ${null}::text as nothing,
      (${listCountTotal(database.db, { companyId: "co_none", entity: "leads", flag: false })}) as kept`;
    const execute = vi.spyOn(database.db, "execute");
    let direct: Record<string, unknown>[];
    try {
      direct = await queryRows(database.db, statement);
      expect(execute).not.toHaveBeenCalled();
    } finally {
      execute.mockRestore();
    }
    // Both drivers answer Drizzle's execute with `{ rows }`; the common Db type cannot say so.
    const viaDrizzle = ((await database.db.execute(statement)) as unknown as { rows: unknown[] }).rows;
    expect(direct).toEqual(viaDrizzle);
    expect(direct[0]).toMatchObject({ at: expect.any(String), tags: ["a", "b"], count: 7, kept: 0 });
  });

  it("inside a transaction sends it to the transaction's own client: it sees the transaction's writes, which a rollback undoes", async () => {
    const id = `co_render_test_${Date.now()}`;
    const count = async (db: DbOrTx) =>
      (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from companies where id = ${id}`))[0]
        ?.n;
    await expect(
      database.db.transaction(async (tx) => {
        const execute = vi.spyOn(tx, "execute");
        await queryRows(tx, sql`insert into companies (id, name) values (${id}, ${"Rolled back"})`);
        expect(await count(tx)).toBe(1);
        expect(execute).not.toHaveBeenCalled();
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await count(database.db)).toBe(0);
  });

  it("lets Drizzle run a statement it does not render", async () => {
    const execute = vi.spyOn(database.db, "execute");
    try {
      const rows = await queryRows(database.db, sql`select ${"it's"}::text as x`.inlineParams());
      expect(execute).toHaveBeenCalledTimes(1);
      expect(rows).toEqual([{ x: "it's" }]);
    } finally {
      execute.mockRestore();
    }
  });
});

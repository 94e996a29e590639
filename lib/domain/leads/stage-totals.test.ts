import fc from "fast-check";
import { sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type DbOrTx } from "@/lib/db/client";
import { importDocument } from "@/lib/import";
import { ID_PREFIX, newId } from "@/lib/ids";
import { getLeadStageTotalsQuerySchema, upsertLeadBodySchema } from "@/lib/schemas/leads";
import { createCompany, testKeyPrincipal } from "@/lib/testing/factories";
import { migrateUpTo } from "@/lib/testing/migrations";
import {
  connectWithLockTimeout,
  createEmptyTestDatabase,
  setupTestDatabase,
  testEngine,
} from "@/lib/testing/test-database";
import { leadFilter, leadStageTotals, stageTotalsFromCounters, upsertLead } from ".";

// The board's per-stage counts and sums must equal a GROUP BY over the leads after any writes,
// whether read from the kept sums (drizzle/0019) or counted.

const database = setupTestDatabase();

const STAGES = ["new", "won", "lost", "Custom stage"];
const TAGS = ["vip", "hot", "a,b", 'q"u', "NULL"];

type Totals = { stage: string | null; count: number; projected_value: number };
type Answer = { data: Totals[]; totals: { count: number; projected_value: number } };

/** Query strings of the board: every combination of archived, stage and tags, and a search. */
const QUERIES: Record<string, string>[] = ["false", "true"].flatMap((archived) =>
  [undefined, "new", "Custom stage", "absent"].flatMap((stage) =>
    [undefined, "vip", "hot,NULL", 'a,b,q"u'].flatMap((tags) =>
      [undefined, "raw"].map((search) => {
        const query: Record<string, string> = { archived };
        if (stage) query.stage = stage;
        if (tags) query.tags = tags;
        if (search) query.search = search;
        return query;
      }),
    ),
  ),
);

async function board(db: DbOrTx, companyId: string, query: Record<string, string>): Promise<Answer> {
  const input = getLeadStageTotalsQuerySchema.parse(query);
  return leadStageTotals({
    ctx: { db: db as never, companyId, principal: testKeyPrincipal(companyId) },
    input,
  });
}

/**
 * The same totals by brute force: a GROUP BY over the leads matching the list's WHERE clause,
 * summed in cents (integers), independent of the statements under test.
 */
async function bruteForce(db: DbOrTx, companyId: string, query: Record<string, string>): Promise<Answer> {
  const where = leadFilter(companyId, getLeadStageTotalsQuerySchema.parse(query));
  const rows = (
    await db.execute<{ stage: string | null; count: number; cents: string | number }>(
      sql`select stage, count(*)::int as count, coalesce(sum(projected_value * 100), 0)::bigint::text as cents
        from leads where ${where} group by stage`,
    )
  ).rows;
  const data = rows
    .map((r) => ({ stage: r.stage, count: r.count, projected_value: Number(r.cents) / 100 }))
    .sort((a, b) =>
      a.stage === b.stage ? 0 : a.stage === null ? 1 : b.stage === null ? -1 : a.stage < b.stage ? -1 : 1,
    );
  const cents = rows.reduce((sum, r) => sum + BigInt(r.cents), 0n);
  return {
    data,
    totals: { count: data.reduce((sum, r) => sum + r.count, 0), projected_value: Number(cents) / 100 },
  };
}

async function expectExact(db: DbOrTx, companyId: string) {
  for (const query of QUERIES) {
    const got = await board(db, companyId, query);
    expect({ data: got.data, totals: got.totals }, JSON.stringify(query)).toEqual(
      await bruteForce(db, companyId, query),
    );
  }
}

type LeadRow = { stage: string | null; archived: boolean; tags: string[]; projected_value: number | null };

/** Leads of values up to `maxCents` cents, or none. */
const leadsOf = (maxCents: number): fc.Arbitrary<LeadRow> =>
  fc.record({
    stage: fc.constantFrom<string | null>(...STAGES, null),
    archived: fc.boolean(),
    tags: fc.subarray(TAGS, { maxLength: 3 }),
    projected_value: fc.option(
      fc.integer({ min: 0, max: maxCents }).map((c) => c / 100),
      { nil: null },
    ),
  });
// Up to numeric(12,2)'s largest amount.
const leadArbitrary = leadsOf(999_999_999_999);

async function insertLeads(db: DbOrTx, companyId: string, rows: LeadRow[]) {
  await db.execute(sql`insert into leads (company_id, id, name, stage, archived, tags, projected_value)
    select ${companyId}, r.id, 'Raw lead', r.stage, r.archived, r.tags, r.projected_value
    from json_to_recordset(${JSON.stringify(rows.map((r) => ({ ...r, id: newId(ID_PREFIX.lead) })))}::json)
      as r(id text, stage text, archived boolean, tags text[], projected_value numeric)`);
}

/** Up to `limit` of the tenant's leads, from `offset` in id order. */
const someLeads = (companyId: string, offset: number, limit: number): SQL =>
  sql`company_id = ${companyId} and id in (
    select id from leads where company_id = ${companyId} order by id limit ${limit} offset ${offset})`;

type Op =
  | { kind: "insert"; rows: LeadRow[] }
  | { kind: "update"; offset: number; limit: number; set: Partial<LeadRow> }
  | { kind: "delete"; offset: number; limit: number }
  | { kind: "domain"; lead: LeadRow; update: number | null }
  | { kind: "compact"; entity: "leads" | "lead_tags" };

const window = { offset: fc.nat(8), limit: fc.integer({ min: 1, max: 6 }) };
const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("insert" as const),
    rows: fc.array(leadArbitrary, { minLength: 1, maxLength: 8 }),
  }),
  fc.record({
    kind: fc.constant("update" as const),
    ...window,
    // Any non-empty part of a lead: a stage change, a value change, an archive, several at once.
    set: leadArbitrary.chain((lead) =>
      fc
        .subarray(Object.keys(lead) as (keyof LeadRow)[], { minLength: 1 })
        .map((keys) => Object.fromEntries(keys.map((k) => [k, lead[k]])) as Partial<LeadRow>),
    ),
  }),
  fc.record({ kind: fc.constant("delete" as const), ...window }),
  fc.record({
    kind: fc.constant("domain" as const),
    lead: leadArbitrary,
    update: fc.option(fc.nat(8), { nil: null }),
  }),
  fc.record({
    kind: fc.constant("compact" as const),
    entity: fc.constantFrom("leads" as const, "lead_tags" as const),
  }),
);

async function apply(db: DbOrTx, companyId: string, op: Op) {
  switch (op.kind) {
    case "insert":
      return insertLeads(db, companyId, op.rows);
    case "update": {
      const set = sql.join(
        Object.entries(op.set).map(([column, value]) =>
          column === "tags"
            ? sql`tags = array(select jsonb_array_elements_text(${JSON.stringify(value)}::jsonb))`
            : sql`${sql.identifier(column)} = ${value}`,
        ),
        sql`, `,
      );
      await db.execute(sql`update leads set ${set} where ${someLeads(companyId, op.offset, op.limit)}`);
      return;
    }
    case "delete":
      await db.execute(sql`delete from leads where ${someLeads(companyId, op.offset, op.limit)}`);
      return;
    case "domain": {
      let id: string | undefined;
      if (op.update !== null) {
        const [row] = (
          await db.execute<{ id: string }>(
            sql`select id from leads where company_id = ${companyId} order by id offset ${op.update} limit 1`,
          )
        ).rows;
        id = row?.id;
      }
      const fields = {
        stage: op.lead.stage,
        projected_value: op.lead.projected_value,
        tags: op.lead.tags.filter((t) => t.trim() !== ""),
      };
      await upsertLead({
        ctx: { db: db as never, companyId, principal: testKeyPrincipal(companyId) },
        input: upsertLeadBodySchema.parse(id ? { id, ...fields } : { name: "Domain lead", ...fields }),
      });
      return;
    }
    case "compact":
      await db.execute(sql`select list_counts_compact(${companyId}, ${op.entity})`);
      return;
  }
}

describe(`lead stage totals (${testEngine()})`, () => {
  it("equal a GROUP BY over the leads after random writes (raw SQL, domain, compaction)", async () => {
    const db = database.db;
    await fc.assert(
      fc.asyncProperty(fc.array(opArbitrary, { minLength: 1, maxLength: 10 }), async (ops) => {
        const { id: companyId } = await createCompany(db);
        for (const op of ops) await apply(db, companyId, op);
        await expectExact(db, companyId);
      }),
      { numRuns: 12 },
    );
  });

  it("a value-only change moves the sum, not the count; archive and stage move both", async () => {
    const db = database.db;
    const { id: companyId } = await createCompany(db);
    await insertLeads(db, companyId, [
      { stage: "new", archived: false, tags: ["vip"], projected_value: 100.1 },
      { stage: "new", archived: false, tags: [], projected_value: 0.2 },
      { stage: null, archived: false, tags: ["vip"], projected_value: null },
    ]);
    const expectBoard = async (
      query: Record<string, string>,
      data: Totals[],
      count: number,
      value: number,
    ) => {
      const got = await board(db, companyId, query);
      expect(got.data, JSON.stringify(query)).toEqual(data);
      expect(got.totals).toEqual({ count, projected_value: value });
      expect(got).toEqual({ status: "success", ...(await bruteForce(db, companyId, query)) });
    };
    await expectBoard(
      {},
      [
        { stage: "new", count: 2, projected_value: 100.3 },
        { stage: null, count: 1, projected_value: 0 },
      ],
      3,
      100.3,
    );
    await db.execute(
      sql`update leads set projected_value = 50.05 where company_id = ${companyId} and projected_value = 100.1`,
    );
    await expectBoard(
      { tags: "vip" },
      [
        { stage: "new", count: 1, projected_value: 50.05 },
        { stage: null, count: 1, projected_value: 0 },
      ],
      2,
      50.05,
    );
    await db.execute(sql`update leads set stage = 'won' where company_id = ${companyId} and stage is null`);
    await db.execute(
      sql`update leads set archived = true where company_id = ${companyId} and projected_value = 0.2`,
    );
    await expectBoard(
      {},
      [
        { stage: "new", count: 1, projected_value: 50.05 },
        { stage: "won", count: 1, projected_value: 0 },
      ],
      2,
      50.05,
    );
    await expectBoard(
      { archived: "true" },
      [
        { stage: "new", count: 2, projected_value: 50.25 },
        { stage: "won", count: 1, projected_value: 0 },
      ],
      3,
      50.25,
    );
    await db.execute(sql`delete from leads where company_id = ${companyId}`);
    await expectBoard({ archived: "true" }, [], 0, 0);
    // Every tuple folded to zero leaves no counter row.
    await db.execute(sql`select list_counts_compact(${companyId}, 'leads')`);
    const [left] = (
      await db.execute<{ n: number }>(sql`select count(*)::int as n from list_counts
        where company_id = ${companyId} and entity in ('leads', 'lead_tags')`)
    ).rows;
    expect(left?.n).toBe(0);
  });

  it("reads the counters when every filter is archived, stage or tags, and counts otherwise", async () => {
    const db = database.db;
    const { id: companyId } = await createCompany(db);
    // Amounts whose sums, 1001 times over, stay exact to the cent in a double.
    await insertLeads(db, companyId, fc.sample(leadsOf(10_000_000), { numRuns: 60, seed: 5 }));
    // Counters and sums 1001 times too high: an answer read from them is 1001 times the truth.
    await db.execute(
      sql`update list_counts set n = n * 1001, amount = amount * 1001 where company_id = ${companyId}`,
    );
    let fromCounters = 0;
    for (const query of QUERIES) {
      const kept = !("search" in query);
      expect(stageTotalsFromCounters(getLeadStageTotalsQuerySchema.parse(query))).toBe(kept);
      const truth = await bruteForce(db, companyId, query);
      const factor = kept ? 1001 : 1;
      const got = await board(db, companyId, query);
      expect(got.totals, JSON.stringify(query)).toEqual({
        count: truth.totals.count * factor,
        projected_value: Math.round(truth.totals.projected_value * 100 * factor) / 100,
      });
      if (kept && truth.totals.count > 0) fromCounters++;
    }
    expect(fromCounters).toBeGreaterThan(0);
    // An empty search is no filter (as in the list).
    expect(stageTotalsFromCounters(getLeadStageTotalsQuerySchema.parse({ search: " " }))).toBe(true);
  });

  it("stay exact through the import (new leads, then the same ids updated)", async () => {
    const db = database.db;
    const { id: companyId } = await createCompany(db);
    const lead = (i: number, stage: string | null, value: number | null, archived = false) => ({
      id: `lead_stage_totals_${companyId}_${i}`,
      company_id: companyId,
      name: `Imported ${i}`,
      stage,
      projected_value: value,
      archived,
      tags: i % 2 ? ["vip"] : [],
    });
    await importDocument(db as never, {
      leads: [lead(1, "new", 10.5), lead(2, "new", 20.25), lead(3, null, null), lead(4, "won", 1)],
    });
    await expectExact(db, companyId);
    expect((await board(db, companyId, {})).totals).toEqual({ count: 4, projected_value: 31.75 });
    await importDocument(db as never, {
      leads: [lead(1, "won", 11), lead(2, "new", 20.25), lead(3, "lost", 7.77, true), lead(5, null, 3)],
    });
    await expectExact(db, companyId);
    expect((await board(db, companyId, {})).totals).toEqual({ count: 4, projected_value: 35.25 });
  });
});

describe(`lead stage totals under concurrent writers (${testEngine()})`, () => {
  it("parallel creates and value updates through the domain keep the sums exact", async () => {
    const db = database.db;
    const { id: companyId } = await createCompany(db);
    const ctx = { db, companyId, principal: testKeyPrincipal(companyId) };
    const created = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        upsertLead({
          ctx,
          input: upsertLeadBodySchema.parse({
            phone: `555-02${String(i).padStart(2, "0")}`,
            stage: STAGES[i % 3],
            projected_value: i + 0.01,
            tags: i % 2 ? ["vip"] : [],
          }),
        }),
      ),
    );
    await Promise.all(
      created.map(({ lead }, i) =>
        upsertLead({
          ctx,
          input: upsertLeadBodySchema.parse({ id: lead.id, projected_value: i % 4 ? i * 2 : null }),
        }),
      ),
    );
    await expectExact(db, companyId);
  });

  if (testEngine() === "postgres") {
    it("six connections changing values, stages and archives, and compacting, keep every sum exact", async () => {
      const db = database.db;
      const { id: companyId } = await createCompany(db);
      const clients = await Promise.all(Array.from({ length: 6 }, () => connectWithLockTimeout(database)));
      const random = fc.sample(fc.nat(1_000_000), { numRuns: 6 * 25 * 6, seed: 9 });
      let next = 0;
      const pick = <T>(values: readonly T[]) => values[random[next++ % random.length]! % values.length]!;
      try {
        await Promise.all(
          clients.map(async (client, w) => {
            const name = `worker ${w}`;
            const own = `company_id = $1 and id in (
              select id from leads where company_id = $1 and name = '${name}' order by random() limit 2)`;
            for (let t = 0; t < 25; t++) {
              await client.query("begin");
              switch (pick(["insert", "value", "stage", "archive", "delete"] as const)) {
                case "insert":
                  await client.query(
                    `insert into leads (company_id, id, name, stage, projected_value, tags)
                     select $1, 'lead_' || gen_random_uuid(), $2, $3, $4, $5::text[] from generate_series(1, 2)`,
                    [
                      companyId,
                      name,
                      pick(STAGES),
                      pick([null, 1.5, 99.99, 12345.67]),
                      pick([[], ["vip"], ["hot"]]),
                    ],
                  );
                  break;
                case "value":
                  await client.query(`update leads set projected_value = $2 where ${own}`, [
                    companyId,
                    pick([null, 0, 0.01, 250.5]),
                  ]);
                  break;
                case "stage":
                  await client.query(`update leads set stage = $2 where ${own}`, [companyId, pick(STAGES)]);
                  break;
                case "archive":
                  await client.query(`update leads set archived = not archived where ${own}`, [companyId]);
                  break;
                case "delete":
                  await client.query(`delete from leads where ${own}`, [companyId]);
                  break;
              }
              if (pick([true, false, false])) {
                await client.query("select list_counts_compact($1, $2)", [
                  companyId,
                  pick(["leads", "lead_tags"]),
                ]);
              }
              await client.query(pick(["commit", "commit", "commit", "rollback"]));
            }
          }),
        );
        await expectExact(db, companyId);
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
    });
  }
});

describe(`migration 0019 on ${testEngine()}`, () => {
  it("sums the leads that exist before it, and writes after it keep the sums exact", async () => {
    const own = await createEmptyTestDatabase();
    try {
      await migrateUpTo(own, "0019_lead_stage_sums");
      const db = own.db;
      const companies: string[] = [];
      for (let i = 0; i < 2; i++) {
        const { id } = await createCompany(db);
        await insertLeads(db, id, fc.sample(leadArbitrary, { numRuns: 40, seed: i }));
        await db.execute(
          sql`update leads set projected_value = 5, stage = 'won' where ${someLeads(id, 2, 4)}`,
        );
        await db.execute(sql`delete from leads where ${someLeads(id, 3, 5)}`);
        companies.push(id);
      }
      await own.migrate();
      for (const companyId of companies) {
        await expectExact(db, companyId);
        await apply(db, companyId, { kind: "update", offset: 0, limit: 6, set: { projected_value: 1.23 } });
        await apply(db, companyId, { kind: "delete", offset: 1, limit: 2 });
        await apply(db, companyId, {
          kind: "insert",
          rows: fc.sample(leadArbitrary, { numRuns: 5, seed: 3 }),
        });
        await expectExact(db, companyId);
      }
    } finally {
      await own.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PGlite } from "@electric-sql/pglite";
import { setupTestDatabase } from "@/lib/testing/test-database";
import { createBaseline, openDriver, type Driver, type QueryFn } from "./baseline-server";
import { buildBook, captureCases, dataStatements, type CaseCapture } from "./book";
import { StatementRecorder, capturingDatabase } from "./capture";
import { buildCases, type BenchCase, type Fixtures } from "./cases";
import { generate, largeTenant } from "./data/generate";
import { RARE_ROWS } from "./data/vocabulary";
import { rawDbOf, type RawDb } from "./db";
import { explainCase } from "./explain";
import { createBenchKey, readFixtures } from "./fixtures";
import { headersFor } from "./load";
import { firstDifference } from "./run";
import { SCALES } from "./scales";

// The bench harness on tiny data, in-process: consistent data, every case right through our
// routes, and the baseline's replay answering the same JSON, which keeps the baseline honest.

const database = setupTestDatabase();
let raw: RawDb;
let key: string;
let fixtures: Fixtures;
let cases: BenchCase[];
const companyId = largeTenant("tiny").companyId;

beforeAll(async () => {
  process.env.LOG_LEVEL = "silent";
  raw = await rawDbOf(database);
  await generate(raw, "tiny", { quiet: true });
  key = await createBenchKey(raw, companyId);
  fixtures = await readFixtures(raw, companyId, "42");
  cases = buildCases(fixtures);
}, 300_000);

afterAll(async () => {
  await raw?.close();
});

const count = async (text: string) => Number((await raw.query<{ n: number }>(text))[0]?.n);

describe("generated data", () => {
  it("has the scale's row counts for the large tenant", async () => {
    const size = SCALES.tiny.large;
    const where = `where company_id = '${companyId}'`;
    expect(await count(`select count(*)::int as n from leads ${where}`)).toBe(size.leads);
    expect(await count(`select count(*)::int as n from customers ${where}`)).toBe(size.customers);
    expect(await count(`select count(*)::int as n from service_plans ${where}`)).toBe(size.servicePlans);
    expect(await count(`select count(*)::int as n from jobs ${where}`)).toBe(size.jobs);
    expect(await count(`select count(*)::int as n from pins ${where}`)).toBe(size.pins);
    expect(await count(`select count(*)::int as n from companies`)).toBe(1 + SCALES.tiny.smallTenants);
  });

  it("keeps every reference inside its tenant (the load ran without foreign-key triggers)", async () => {
    const orphans = [
      `select count(*)::int as n from leads l where assigned_to is not null
         and not exists (select 1 from users u where u.company_id = l.company_id and u.id = l.assigned_to)`,
      `select count(*)::int as n from service_plans p
         where not exists (select 1 from customers c where c.company_id = p.company_id and c.id = p.customer_id)`,
      `select count(*)::int as n from jobs j
         where not exists (select 1 from customers c where c.company_id = j.company_id and c.id = j.customer_id)`,
      `select count(*)::int as n from jobs j join service_plans p on p.company_id = j.company_id and p.id = j.service_plan_id
         where p.customer_id <> j.customer_id`,
      `select count(*)::int as n from jobs j where service_plan_id is not null
         and not exists (select 1 from service_plans p where p.company_id = j.company_id and p.id = j.service_plan_id)`,
      `select count(*)::int as n from job_visits v
         where not exists (select 1 from jobs j where j.company_id = v.company_id and j.id = v.job_id)`,
      `select count(*)::int as n from job_payments v
         where not exists (select 1 from jobs j where j.company_id = v.company_id and j.id = v.job_id)`,
      `select count(*)::int as n from job_crew c
         where not exists (select 1 from users u where u.company_id = c.company_id and u.id = c.user_id)`,
      `select count(*)::int as n from pins p
         where not exists (select 1 from pin_types t where t.company_id = p.company_id and t.id = p.pin_type_id)
            or not exists (select 1 from users u where u.company_id = p.company_id and u.id = p.created_by)`,
    ];
    for (const text of orphans) expect(await count(text), text).toBe(0);
  });

  it("denormalizes service_date as the earliest visit and normalizes phones and emails", async () => {
    expect(
      await count(`select count(*)::int as n from jobs j where service_date is distinct from
        (select min(starts_at) from job_visits v where v.company_id = j.company_id and v.job_id = j.id)`),
    ).toBe(0);
    expect(
      await count(`select count(*)::int as n from leads where phone_normalized is distinct from
        nullif(right(regexp_replace(coalesce(phone, ''), '\\D', '', 'g'), 10), '')`),
    ).toBe(0);
    expect(
      await count(
        `select count(*)::int as n from customers where email_normalized is distinct from lower(email)`,
      ),
    ).toBe(0);
  });

  it("keeps the jobs' money totals (schema triggers stay on during the load)", async () => {
    expect(
      await count(`select count(*)::int as n from jobs j where line_items_total <>
        (select coalesce(sum(total_price), 0) from job_line_items li where li.company_id = j.company_id and li.job_id = j.id)`),
    ).toBe(0);
    expect(
      await count(`select count(*)::int as n from jobs j where total_received <>
        (select coalesce(sum(case when payment_type = 'refund' then -amount else amount end), 0)
         from job_payments p where p.company_id = j.company_id and p.job_id = j.id and p.status = 'succeeded')`),
    ).toBe(0);
    expect(await count(`select count(*)::int as n from jobs where total_received > 0`)).toBeGreaterThan(0);
  });

  it("has the rare search term on exactly the planned rows", async () => {
    expect(
      await count(
        `select count(*)::int as n from leads where company_id = '${companyId}' and name ilike '%quillfeather%'`,
      ),
    ).toBe(RARE_ROWS);
  });

  it("is re-used, not regenerated, on a second run", async () => {
    const again = await generate(raw, "tiny", { quiet: true });
    expect(again.reused).toBe(true);
  });
});

describe("cases and the baseline", () => {
  let captures: CaseCapture[];
  let driver: Driver;
  let sent: string[];
  let sentNames: (string | undefined)[];

  beforeAll(async () => {
    const recorder = new StatementRecorder();
    const database = raw.database;
    const pglite = (database.db as unknown as { $client: PGlite }).$client;
    const capturing = await capturingDatabase(
      database.target,
      recorder,
      database.engine === "pglite" ? pglite : undefined,
    );
    try {
      captures = await captureCases(
        capturing,
        recorder,
        cases.filter((c) => c.request.method === "GET"),
        key,
      );
    } finally {
      await capturing.close();
    }
    const inner: Driver =
      database.target.kind === "postgres"
        ? await openDriver(database.target.url)
        : {
            query: async (text, params) => (await pglite.query<Record<string, unknown>>(text, params)).rows,
            transaction: (fn) =>
              pglite.transaction((tx) =>
                fn(async (text, params) => (await tx.query<Record<string, unknown>>(text, params)).rows),
              ),
            close: async () => {},
          };
    sent = [];
    sentNames = [];
    const recordQuery =
      (query: QueryFn): QueryFn =>
      (text, params, name) => {
        sent.push(text);
        sentNames.push(name);
        return query(text, params, name);
      };
    driver = {
      query: recordQuery(inner.query),
      transaction: (fn) => inner.transaction((query) => fn(recordQuery(query))),
      close: () => inner.close(),
    };
  }, 120_000);

  afterAll(async () => {
    await driver?.close();
  });

  it("every read case answers right through our route handlers", () => {
    for (const capture of captures) expect(capture.problem, capture.caseId).toBeUndefined();
    // After the key check, a kept-total list or a gram search sends one statement; a list that
    // counts sends page and count together; the board's stage totals are one statement.
    const groups = (id: string) => dataStatements(captures.find((c) => c.caseId === id)!).map((s) => s.group);
    for (const id of [
      "leads-default",
      "leads-tags",
      "leads-stage-totals",
      "leads-stage-totals-tags",
      "customers-status",
      "plans-default",
      "jobs-default",
      "jobs-date-range",
      "pins-type",
      "leads-search-name",
      "customers-search",
    ])
      expect(groups(id), id).toEqual([2]);
    for (const id of ["plans-sold-by", "pins-user"]) expect(groups(id), id).toEqual([2, 2]);
  });

  it("the baseline answers every read case with our JSON, replaying our statements", async () => {
    const book = buildBook(companyId, key, cases, captures);
    const compared = cases.filter((c) => c.request.method === "GET" && !c.oursOnly);
    expect(book.routes.length).toBe(compared.length);
    const handle = createBaseline(book, driver);
    for (const benchCase of compared) {
      const ours = captures.find((c) => c.caseId === benchCase.id)!;
      sent.length = 0;
      sentNames.length = 0;
      const answer = await handle("GET", benchCase.request.path, headersFor(key, benchCase.request), "");
      expect(answer.status, benchCase.id).toBe(ours.status);
      const theirs: unknown = JSON.parse(JSON.stringify(answer.body));
      expect(firstDifference(ours.body, theirs), benchCase.id).toBe("");
      // The same statements, byte for byte, plus the same key check.
      expect(sent.slice(1), benchCase.id).toEqual(dataStatements(ours).map((s) => s.text));
      // Prepared where ours prepared (the key check, get by id): the same work on the database.
      expect(sentNames, benchCase.id).toEqual([book.auth.name, ...dataStatements(ours).map((s) => s.name)]);
    }
    if (raw.database.engine === "postgres") {
      expect(book.auth.name).toBe("fcrm_api_key_check_v1");
      const byId = captures.find((c) => c.caseId === "lead-by-id")!;
      expect(dataStatements(byId).map((s) => s.name)).toEqual(["fcrm_lead_by_id_v4"]);
    }
    // Another id than the captured one: the id parameter is swapped.
    const other = fixtures.leadIds[5]!;
    const answer = await handle("GET", `/api/leads/${other}`, headersFor(key, { method: "GET" }), "");
    expect((answer.body as { data: { id: string } }).data.id).toBe(other);
  });

  it("the baseline's create-or-update sends the statements ours sends and answers the same shape", async () => {
    const book = buildBook(companyId, key, cases, captures);
    const handle = createBaseline(book, driver);
    for (const id of ["leads-create", "leads-update"]) {
      const benchCase = cases.find((c) => c.id === id)!;
      const recorder = new StatementRecorder();
      const database = raw.database;
      const pglite = (database.db as unknown as { $client: PGlite }).$client;
      const capturing = await capturingDatabase(
        database.target,
        recorder,
        database.engine === "pglite" ? pglite : undefined,
      );
      let ours: CaseCapture | undefined;
      try {
        [ours] = await captureCases(capturing, recorder, [benchCase], key);
      } finally {
        await capturing.close();
      }
      expect(ours!.problem, id).toBeUndefined();
      sent.length = 0;
      const spec = benchCase.vary!(1);
      const answer = await handle("POST", spec.path, headersFor(key, spec), JSON.stringify(spec.body));
      expect(answer.status, id).toBe(benchCase.expectStatus);
      expect(benchCase.check(answer.body), id).toBeUndefined();
      const body = answer.body as Record<string, unknown>;
      const theirs = ours!.body as Record<string, unknown>;
      expect(Object.keys(body).sort(), id).toEqual(Object.keys(theirs).sort());
      // Same kinds of statements in the same order (the texts differ: ours come from Drizzle).
      const kind = (text: string) => text.trim().split(/\s+/)[0]!.toLowerCase();
      expect(sent.slice(1).map(kind), id).toEqual(dataStatements(ours!).map((s) => kind(s.text)));
    }
  });

  it("EXPLAIN ANALYZE runs for every case's statements", async () => {
    for (const capture of captures.filter((c, i) => i < 4 || c.caseId.startsWith("report-"))) {
      const explain = await explainCase(raw, capture.statements, 1);
      const explained = capture.statements.filter((s) => !/^\s*(begin|commit|set)\b/i.test(s.text));
      expect(explain.statements.length, capture.caseId).toBe(explained.length);
      expect(
        explain.statements.every((s) => !s.top.startsWith("EXPLAIN failed")),
        capture.caseId,
      ).toBe(true);
      expect(explain.dbMs).toBeGreaterThan(0);
    }
  });
});

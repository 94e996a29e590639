import { sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type DbOrTx } from "@/lib/db/client";
import { JOB_STATUSES } from "@/lib/db/schema";
import { getServicedJobReport } from "@/lib/domain/reports/serviced-job-report";
import { ID_PREFIX, newId } from "@/lib/ids";
import { getServicedJobReportQuerySchema } from "@/lib/schemas/reports";
import { createCompany, createUser } from "@/lib/testing/factories";
import { migrateUpTo } from "@/lib/testing/migrations";
import { insertCustomer } from "@/lib/testing/plan-job-fixtures";
import {
  connectWithLockTimeout,
  createEmptyTestDatabase,
  setupTestDatabase,
  testEngine,
} from "@/lib/testing/test-database";

// The job report's kept sums (drizzle/0014) must equal what the jobs and crews add up to after
// any writes, so the report from them answers as the report computed from job rows does.

const database = setupTestDatabase();

/** A small seeded generator (mulberry32): the same writes on every run. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  return { next, int, pick };
}
type Generator = ReturnType<typeof generator>;

interface Tenant {
  companyId: string;
  customerId: string;
  users: string[];
}

async function newTenant(db: DbOrTx): Promise<Tenant> {
  const company = await createCompany(db);
  const users: string[] = [];
  for (let i = 0; i < 4; i++) users.push((await createUser(db, company.id, { role: "technician" })).id);
  const customer = await insertCustomer(db, company.id);
  return { companyId: company.id, customerId: customer.id, users };
}

/** Dollars with cents, as an exact numeric parameter. */
const dollars = (g: Generator) => sql`${(g.int(0, 50_000) / 100).toFixed(2)}::numeric`;

/**
 * A service date in the first four weeks of 2026 (a few jobs a day: ranges of days and parts of
 * a day hold some), now and then on a day's or a week's first instant.
 */
function serviceDate(g: Generator): SQL {
  if (g.next() < 0.15) return sql`null::timestamptz`;
  const day = new Date(Date.UTC(2026, 0, 1) + g.int(0, 27) * 86_400_000);
  if (g.next() >= 0.2) day.setUTCMinutes(g.int(0, 24 * 60 - 1));
  return sql`${day.toISOString()}::timestamptz`;
}

const assignee = (g: Generator, t: Tenant) => (g.next() < 0.2 ? null : g.pick(t.users));

async function insertJobs(db: DbOrTx, g: Generator, t: Tenant, count: number): Promise<void> {
  const rows = Array.from(
    { length: count },
    () =>
      sql`(${t.companyId}, ${newId(ID_PREFIX.job)}, ${t.customerId}, ${g.pick(JOB_STATUSES)}, ${g.next() < 0.1},
        ${g.next() < 0.1}, ${assignee(g, t)}, ${serviceDate(g)})`,
  );
  await db.execute(sql`insert into jobs (company_id, id, customer_id, status, is_quote, archived, assigned_to,
    service_date) values ${sql.join(rows, sql`, `)}`);
}

/** `id in (k of the tenant's rows of the table, chosen by the seed)`. */
function someOf(
  table: "jobs" | "job_crew" | "job_line_items" | "job_payments",
  t: Tenant,
  g: Generator,
  k: number,
) {
  return sql`company_id = ${t.companyId} and id in (
    select id from ${sql.identifier(table)} where company_id = ${t.companyId}
    order by md5(id || ${String(g.int(0, 1e9))}) limit ${k})`;
}

/** One random write statement; returns what it did, for a failing test's message. */
async function randomWrite(db: DbOrTx, g: Generator, t: Tenant): Promise<string> {
  const k = g.int(1, 4);
  const jobIds = sql`select id from jobs where ${someOf("jobs", t, g, k)}`;
  const user = g.pick(t.users);
  // Each a statement of its own (built only when picked: building one draws from the generator).
  const writes: [string, () => SQL | Promise<void>][] = [
    ["insert jobs", () => insertJobs(db, g, t, g.int(1, 5))],
    ["status", () => sql`update jobs set status = ${g.pick(JOB_STATUSES)} where ${someOf("jobs", t, g, k)}`],
    ["assign", () => sql`update jobs set assigned_to = ${assignee(g, t)} where ${someOf("jobs", t, g, k)}`],
    ["date", () => sql`update jobs set service_date = ${serviceDate(g)} where ${someOf("jobs", t, g, k)}`],
    ["archive", () => sql`update jobs set archived = not archived where ${someOf("jobs", t, g, k)}`],
    ["quote", () => sql`update jobs set is_quote = not is_quote where ${someOf("jobs", t, g, k)}`],
    [
      "every job",
      () => sql`update jobs set status = ${g.pick(JOB_STATUSES)} where company_id = ${t.companyId}`,
    ],
    ["unchanged", () => sql`update jobs set status = status where company_id = ${t.companyId}`],
    ["delete jobs", () => sql`delete from jobs where ${someOf("jobs", t, g, g.int(1, 2))}`],
    [
      "crew in",
      () => sql`insert into job_crew (company_id, id, job_id, user_id, position)
        select ${t.companyId}, 'crw_' || md5(random()::text), id, ${user}, ${g.int(0, 3)} from (${jobIds}) j
        on conflict do nothing`,
    ],
    ["crew out", () => sql`delete from job_crew where ${someOf("job_crew", t, g, k)}`],
    [
      "crew member",
      () => sql`update job_crew c set user_id = ${user} where ${someOf("job_crew", t, g, 1)}
        and not exists (select 1 from job_crew d where d.company_id = c.company_id and d.job_id = c.job_id
          and d.user_id = ${user})`,
    ],
    [
      "crew order",
      () => sql`update job_crew set position = ${g.int(0, 5)} where ${someOf("job_crew", t, g, k)}`,
    ],
    [
      "line in",
      () => sql`insert into job_line_items (company_id, id, job_id, total_price)
        select ${t.companyId}, 'li_' || md5(random()::text), id, ${dollars(g)} from (${jobIds}) j`,
    ],
    [
      "line price",
      () =>
        sql`update job_line_items set total_price = ${dollars(g)} where ${someOf("job_line_items", t, g, k)}`,
    ],
    ["line out", () => sql`delete from job_line_items where ${someOf("job_line_items", t, g, k)}`],
    [
      "payment in",
      () => sql`insert into job_payments (company_id, id, job_id, amount, payment_method, payment_type, status)
        select ${t.companyId}, 'pay_' || md5(random()::text), id, ${dollars(g)}, 'card',
          ${g.next() < 0.2 ? "refund" : "payment"}, ${g.pick(["succeeded", "succeeded", "pending", "failed"])}
        from (${jobIds}) j`,
    ],
    [
      "payment status",
      () => sql`update job_payments set status = ${g.pick(["succeeded", "pending", "failed"])}
        where ${someOf("job_payments", t, g, k)}`,
    ],
    ["payment out", () => sql`delete from job_payments where ${someOf("job_payments", t, g, k)}`],
  ];
  const [name, write] = g.pick(writes);
  const statement = write();
  if (!(statement instanceof Promise)) await db.execute(statement);
  else await statement;
  return name;
}

type Tuple = {
  kind: string;
  key: string;
  status: string;
  n: number;
  total: string;
  received: string;
  due: string;
};

const byTuple = (a: Tuple, b: Tuple) =>
  `${a.kind}|${a.key}|${a.status}` < `${b.kind}|${b.key}|${b.status}` ? -1 : 1;

/** The tenant's kept sums per tuple (kind, key, status), tuples summing to nothing left out. */
async function keptTuples(db: DbOrTx, companyId: string): Promise<Tuple[]> {
  const rows = (
    await db.execute<Tuple>(sql`select kind, key, status, sum(job_count)::int as n, sum(total)::numeric(14, 2)::text as total,
        sum(received)::numeric(14, 2)::text as received, sum(outstanding)::numeric(14, 2)::text as due
      from job_report_totals where company_id = ${companyId}
      group by kind, key, status
      having sum(job_count) <> 0 or sum(total) <> 0 or sum(received) <> 0 or sum(outstanding) <> 0`)
  ).rows;
  return rows.sort(byTuple);
}

/** The same sums computed from the jobs and job_crew (not from jobs.crew_user_ids). */
async function sourceTuples(db: DbOrTx, companyId: string): Promise<Tuple[]> {
  const sums = sql`count(*)::int as n, sum(j.line_items_total)::numeric(14, 2)::text as total,
    sum(j.total_received)::numeric(14, 2)::text as received,
    sum(greatest(j.line_items_total - j.total_received, 0))::numeric(14, 2)::text as due`;
  const listed = sql`j.company_id = ${companyId} and not j.is_quote and not j.archived`;
  const rows = (
    await db.execute<Tuple>(sql`select 'day' as kind, coalesce(job_day_key(j.service_date), '') as key, j.status, ${sums}
      from jobs j where ${listed} group by 2, 3
      union all
      select 'assigned', coalesce(j.assigned_to, ''), j.status, ${sums} from jobs j where ${listed} group by 2, 3
      union all
      select 'crew', c.user_id, j.status, ${sums}
      from jobs j join job_crew c on c.company_id = j.company_id and c.job_id = j.id
      where ${listed} and c.user_id is distinct from j.assigned_to group by 2, 3
      union all
      select 'assigned_day', job_day_key(j.service_date) || ':' || j.assigned_to, j.status, ${sums}
      from jobs j where ${listed} and j.service_date is not null and j.assigned_to is not null group by 2, 3
      union all
      select 'crew_day', job_day_key(j.service_date) || ':' || c.user_id, j.status, ${sums}
      from jobs j join job_crew c on c.company_id = j.company_id and c.job_id = j.id
      where ${listed} and j.service_date is not null and c.user_id is distinct from j.assigned_to
      group by 2, 3`)
  ).rows;
  return rows.sort(byTuple);
}

/** Jobs of the tenant whose crew_user_ids differ from their job_crew rows in crew order. */
async function staleCrews(db: DbOrTx, companyId: string): Promise<string[]> {
  const rows = (
    await db.execute<{
      id: string;
    }>(sql`select j.id from jobs j where j.company_id = ${companyId} and j.crew_user_ids is distinct from array(
      select c.user_id from job_crew c where c.company_id = j.company_id and c.job_id = j.id
      order by c.position, c.id)`)
  ).rows;
  return rows.map((r) => r.id);
}

/**
 * Ranges covering every way the kept sums are read: none, whole days, part days added or taken at
 * either end, open sides, a bare date, within one day, and empty. Jobs span 2026-01-01 to 01-28.
 */
const REPORT_QUERIES = [
  {},
  { interval: "week" },
  { only_completed: "false" },
  { only_completed: "false", interval: "week" },
  { service_date_range_start: "2026-01-05", service_date_range_end: "2026-01-20" },
  {
    service_date_range_start: "2026-01-05T00:00:00Z",
    service_date_range_end: "2026-01-20T00:00:00Z",
    interval: "week",
  },
  {
    service_date_range_start: "2026-01-03T13:45:00Z",
    service_date_range_end: "2026-01-25T06:00:00Z",
    only_completed: "false",
  },
  { service_date_range_start: "2026-01-06T02:30:00Z", service_date_range_end: "2026-01-22T20:00:00Z" },
  {
    service_date_range_start: "2026-01-06T02:30:00Z",
    service_date_range_end: "2026-01-22T20:00:00Z",
    only_completed: "false",
  },
  { service_date_range_start: "2026-01-12", service_date_range_end: "2026-01-12" },
  { service_date_range_start: "2026-01-15", only_completed: "false", interval: "week" },
  { service_date_range_end: "2026-01-15" },
  {
    service_date_range_start: "2026-01-09T01:00:00Z",
    service_date_range_end: "2026-01-09T23:00:00Z",
    only_completed: "false",
  },
];

/** The kept sums equal the source's, and the report from them equals the report from the jobs. */
async function expectExact(db: DbOrTx, companyId: string, context = ""): Promise<void> {
  expect(await staleCrews(db, companyId), context).toEqual([]);
  expect(await keptTuples(db, companyId), context).toEqual(await sourceTuples(db, companyId));
  for (const query of REPORT_QUERIES) {
    const input = getServicedJobReportQuerySchema.parse(query);
    const ctx = { db, companyId };
    expect(await getServicedJobReport({ ctx, input }), `${context} ${JSON.stringify(query)}`).toEqual(
      await getServicedJobReport({ ctx, input, from: "jobs" }),
    );
  }
}

describe(`job report totals (${testEngine()})`, () => {
  for (const seed of [1, 2, 3]) {
    it(`equal the jobs' own sums after random writes of jobs, crews, line items and payments (seed ${seed})`, async () => {
      const db = database.db;
      const g = generator(seed);
      const tenant = await newTenant(db);
      const other = await newTenant(db);
      await insertJobs(db, g, tenant, 30);
      await insertJobs(db, g, other, 5);
      const otherBefore = await keptTuples(db, other.companyId);
      const done: string[] = [];
      for (let i = 0; i < 40; i++) {
        done.push(await randomWrite(db, g, tenant));
        if (i % 4 === 3) await expectExact(db, tenant.companyId, done.join(", "));
      }
      await expectExact(db, tenant.companyId, done.join(", "));
      // The writes touched one tenant only.
      expect(await keptTuples(db, other.companyId)).toEqual(otherBefore);
      expect(await keptTuples(db, tenant.companyId)).not.toEqual([]);
    });
  }

  it("count a crew member once per job, never the assigned user twice, and follow a change of assignee", async () => {
    const db = database.db;
    const t = await newTenant(db);
    const [a, b, c] = t.users as [string, string, string];
    const job = newId(ID_PREFIX.job);
    await db.execute(sql`insert into jobs (company_id, id, customer_id, status, assigned_to, service_date)
      values (${t.companyId}, ${job}, ${t.customerId}, 'Completed', ${a}, '2026-02-03T10:00:00Z')`);
    await db.execute(sql`insert into job_line_items (company_id, id, job_id, total_price)
      values (${t.companyId}, 'li_1', ${job}, 120.50)`);
    await db.execute(sql`insert into job_crew (company_id, id, job_id, user_id, position)
      values (${t.companyId}, 'crw_1', ${job}, ${a}, 0), (${t.companyId}, 'crw_2', ${job}, ${b}, 1)`);
    // A `_day` key is the day's key (ten digits), ':' and the user id.
    const [{ day } = { day: "" }] = (
      await db.execute<{ day: string }>(sql`select job_day_key('2026-02-03T10:00:00Z') as day`)
    ).rows;
    const people = async () =>
      (await keptTuples(db, t.companyId))
        .filter((r) => r.kind !== "day")
        .map((r) => [r.kind, r.key.replace(`${day}:`, "day:"), r.n, r.total])
        .sort();
    expect(await people()).toEqual(
      [
        ["assigned", a, 1, "120.50"],
        ["assigned_day", `day:${a}`, 1, "120.50"],
        ["crew", b, 1, "120.50"],
        ["crew_day", `day:${b}`, 1, "120.50"],
      ].sort(),
    );
    // The assignee moves to c: a is now counted as crew, c as assigned.
    await db.execute(
      sql`update jobs set assigned_to = ${c} where company_id = ${t.companyId} and id = ${job}`,
    );
    expect(await people()).toEqual(
      [
        ["assigned", c, 1, "120.50"],
        ["assigned_day", `day:${c}`, 1, "120.50"],
        ["crew", a, 1, "120.50"],
        ["crew", b, 1, "120.50"],
        ["crew_day", `day:${a}`, 1, "120.50"],
        ["crew_day", `day:${b}`, 1, "120.50"],
      ].sort(),
    );
    await expectExact(db, t.companyId);
  });

  it("answer for the timestamps without a day (±infinity) as the jobs do", async () => {
    const db = database.db;
    const t = await newTenant(db);
    for (const [date, price] of [
      ["infinity", "10.00"],
      ["-infinity", "20.00"],
      ["2026-02-01T00:00:00Z", "30.00"],
    ] as const) {
      const job = newId(ID_PREFIX.job);
      await db.execute(sql`insert into jobs (company_id, id, customer_id, status, assigned_to, service_date)
        values (${t.companyId}, ${job}, ${t.customerId}, 'Completed', ${t.users[0]!}, ${date}::timestamptz)`);
      await db.execute(sql`insert into job_line_items (company_id, id, job_id, total_price)
        values (${t.companyId}, ${`li_${job}`}, ${job}, ${price}::numeric)`);
    }
    await expectExact(db, t.companyId);
    const report = await getServicedJobReport({
      ctx: { db, companyId: t.companyId },
      input: getServicedJobReportQuerySchema.parse({}),
    });
    expect(report.data.over_time).toHaveLength(3);
    expect(report.data.total).toBe(60);
  });

  it("leave nothing behind when a job goes with its crew, line items and payments", async () => {
    const db = database.db;
    const g = generator(7);
    const t = await newTenant(db);
    await insertJobs(db, g, t, 12);
    for (let i = 0; i < 30; i++) await randomWrite(db, g, t);
    await db.execute(sql`insert into job_crew (company_id, id, job_id, user_id, position)
      select company_id, 'crw_' || md5(id), id, ${t.users[3]!}, 9 from jobs where company_id = ${t.companyId}
      on conflict do nothing`);
    await expectExact(db, t.companyId);
    await db.execute(sql`delete from jobs where company_id = ${t.companyId}`);
    expect(await keptTuples(db, t.companyId)).toEqual([]);
    await expectExact(db, t.companyId);
  });

  it("go with their tenant, whose deletion leaves every other tenant's exact", async () => {
    const db = database.db;
    const g = generator(11);
    const [gone, kept] = [await newTenant(db), await newTenant(db)];
    for (const t of [gone, kept]) {
      await insertJobs(db, g, t, 10);
      for (let i = 0; i < 15; i++) await randomWrite(db, g, t);
    }
    // The company goes in one statement with everything it has, crews too (their rows refer to
    // their users without a cascade: drizzle/0016_job_crew_company.sql).
    const crewRows = sql`select count(*)::int as n from job_crew where company_id = ${gone.companyId}`;
    expect((await db.execute<{ n: number }>(crewRows)).rows[0]?.n).toBeGreaterThan(0);
    await db.execute(sql`delete from companies where id = ${gone.companyId}`);
    for (const table of ["job_report_totals", "job_crew", "jobs", "users"]) {
      const [left] = (
        await db.execute<{ n: number }>(
          sql`select count(*)::int as n from ${sql.identifier(table)} where company_id = ${gone.companyId}`,
        )
      ).rows;
      expect(left?.n, table).toBe(0);
    }
    await expectExact(db, kept.companyId);
  });

  it("answer a range of whole days with parts of a day at both ends as the jobs do, crews included", async () => {
    const db = database.db;
    const t = await newTenant(db);
    const [a, b, c] = t.users as [string, string, string];
    // Up to half a day at an end adds that part's jobs to the whole days; more takes the rest of
    // the day's jobs from its sums. A range within one day takes the jobs outside it.
    const ranges = {
      withinDay: {
        service_date_range_start: "2026-01-04T04:00:00Z",
        service_date_range_end: "2026-01-04T19:00:00Z",
      },
      late: { service_date_range_start: "2026-01-04T15:00:00Z", service_date_range_end: "2026-01-20" },
      early: { service_date_range_start: "2026-01-04T06:00:00Z", service_date_range_end: "2026-01-20" },
      lateNoon: {
        service_date_range_start: "2026-01-04T15:00:00Z",
        service_date_range_end: "2026-01-20T12:00:00Z",
      },
      earlyNoon: {
        service_date_range_start: "2026-01-04T06:00:00Z",
        service_date_range_end: "2026-01-20T12:00:00Z",
      },
    };
    type Range = keyof typeof ranges;
    const every: Range[] = ["late", "early", "lateNoon", "earlyNoon"];
    // Distinct prices (powers of two): a job counted twice or left out changes every total. Each
    // job names the ranges it is in.
    const jobs: [string, string | null, number, Range[]][] = [
      ["2026-01-04T03:00:00Z", a, 1, []],
      ["2026-01-04T06:00:00Z", null, 1024, ["early", "earlyNoon", "withinDay"]], // the early start's instant
      ["2026-01-04T10:00:00Z", a, 2, ["early", "earlyNoon", "withinDay"]],
      ["2026-01-04T20:00:00Z", a, 4, every],
      ["2026-01-05T00:00:00Z", null, 8, every], // the first whole day's first instant
      ["2026-01-10T12:00:00Z", b, 16, every], // b assigned and on the crew: counted once for b
      ["2026-01-20T00:00:00Z", a, 32, every],
      ["2026-01-20T18:00:00Z", c, 64, ["late", "early"]],
      ["2026-01-20T23:59:59.999Z", null, 128, ["late", "early"]], // a bare end date's last instant
      ["2026-01-20T23:59:59.9995Z", a, 256, []], // after it, within its day
      ["2026-01-21T00:00:00Z", a, 512, []],
    ];
    for (const [date, assignee, price] of jobs) {
      const job = newId(ID_PREFIX.job);
      await db.execute(sql`insert into jobs (company_id, id, customer_id, status, assigned_to, service_date)
        values (${t.companyId}, ${job}, ${t.customerId}, 'Completed', ${assignee}, ${date}::timestamptz)`);
      await db.execute(sql`insert into job_line_items (company_id, id, job_id, total_price)
        values (${t.companyId}, ${`li_${job}`}, ${job}, ${price})`);
      await db.execute(sql`insert into job_crew (company_id, id, job_id, user_id, position)
        values (${t.companyId}, ${`crw_b_${job}`}, ${job}, ${b}, 0), (${t.companyId}, ${`crw_c_${job}`}, ${job}, ${c}, 1)`);
    }
    const ctx = { db, companyId: t.companyId };
    for (const range of Object.keys(ranges) as Range[]) {
      const inRange = jobs.filter(([, , , ranges]) => ranges.includes(range));
      const sum = (js: typeof jobs) => js.reduce((total, [, , price]) => total + price, 0);
      // Every job has b and c on its crew; a counts where assigned.
      const assignedToA = inRange.filter(([, assignee]) => assignee === a);
      const expected = {
        [a]: [assignedToA.length, sum(assignedToA)],
        [b]: [inRange.length, sum(inRange)],
        [c]: [inRange.length, sum(inRange)],
      };
      for (const interval of ["month", "week"]) {
        const input = getServicedJobReportQuerySchema.parse({ ...ranges[range], interval });
        const report = await getServicedJobReport({ ctx, input });
        expect(report, range).toEqual(await getServicedJobReport({ ctx, input, from: "jobs" }));
        expect(report.data.total, range).toBe(sum(inRange));
        const technicians = Object.fromEntries(
          report.data.by_technician.map((r) => [r.technician.user_id, [r.job_count, r.total]]),
        );
        expect(technicians, range).toEqual(expected);
      }
    }
  });

  it("are what the report reads without a date bound and for a range's days; ranges and parts of up to half a day read the jobs", async () => {
    const db = database.db;
    const g = generator(5);
    const t = await newTenant(db);
    await insertJobs(db, g, t, 20);
    await db.execute(sql`update jobs set status = 'Completed', service_date = '2026-03-10T20:00:00Z',
      assigned_to = ${t.users[0]!} where company_id = ${t.companyId}`);
    const ctx = { db, companyId: t.companyId };
    const report = (query: Record<string, string>) =>
      getServicedJobReport({ ctx, input: getServicedJobReportQuerySchema.parse(query) });
    const all = {};
    const wholeDays = { service_date_range_start: "2026-03-01", service_date_range_end: "2026-03-31" };
    // Its day's sums less the jobs after 23:59:59.999.
    const bareDay = { service_date_range_start: "2026-03-10", service_date_range_end: "2026-03-10" };
    // 2026-03-10 from 15:00 is 9 hours of a day: its jobs.
    const startPart = {
      service_date_range_start: "2026-03-10T15:00:00Z",
      service_date_range_end: "2026-03-20",
    };
    const withinDay = {
      service_date_range_start: "2026-03-10T15:00:00Z",
      service_date_range_end: "2026-03-10T22:00:00Z",
    };
    // 02:00 to 23:00 is 21 hours of a day: its day's sums less the jobs before and after it.
    const mostOfDay = {
      service_date_range_start: "2026-03-10T02:00:00Z",
      service_date_range_end: "2026-03-10T23:00:00Z",
    };
    const before = await report(all);
    expect(before.data.job_count).toBeGreaterThan(0);
    expect(before.data.by_technician.map((r) => r.technician.user_id)).toEqual([t.users[0]]);
    for (const query of [wholeDays, bareDay, startPart, withinDay, mostOfDay]) {
      expect(await report(query)).toEqual(before);
    }
    // Kept rows changed by hand show where they are read: the days' in the report without a
    // bound and over days, the technician's days' over days only.
    await db.execute(sql`update job_report_totals set job_count = job_count + 100
      where company_id = ${t.companyId} and kind = 'day' and key <> ''`);
    await db.execute(sql`update job_report_totals set total = total + 1000
      where company_id = ${t.companyId} and kind = 'assigned_day'`);
    const changedAll = await report(all);
    expect(changedAll.data.job_count).toBe(before.data.job_count + 100);
    expect(changedAll.data.by_technician).toEqual(before.data.by_technician);
    for (const query of [wholeDays, bareDay, mostOfDay]) {
      const changed = await report(query);
      expect(changed.data.job_count).toBe(before.data.job_count + 100);
      expect(changed.data.by_technician[0]?.total).toBe(before.data.by_technician[0]!.total + 1000);
    }
    for (const query of [startPart, withinDay]) expect(await report(query)).toEqual(before);
  });

  it("an unchanged re-write of a job adds no row; a write folds its tuples into one row each", async () => {
    const db = database.db;
    const g = generator(13);
    const t = await newTenant(db);
    await insertJobs(db, g, t, 8);
    const rowCount = async () =>
      (
        await db.execute<{ n: number }>(
          sql`select count(*)::int as n from job_report_totals where company_id = ${t.companyId}`,
        )
      ).rows[0]?.n;
    const rows = await rowCount();
    await db.execute(
      sql`update jobs set status = status, service_date = service_date where company_id = ${t.companyId}`,
    );
    expect(await rowCount()).toBe(rows);
    for (let i = 0; i < 20; i++) await insertJobs(db, g, t, 1);
    // One connection, no concurrent writer: every tuple is one row.
    expect(await rowCount()).toBe((await keptTuples(db, t.companyId)).length);
    await expectExact(db, t.companyId);
  });
});

if (testEngine() === "postgres") {
  describe("job report totals under concurrent writers (postgres)", () => {
    // Each its own session, failing a statement that waits on a lock for a second.
    const connect = () => connectWithLockTimeout(database);

    for (const end of ["commit", "rollback"] as const) {
      it(`a transaction folding a tuple blocks no other writer of that tuple (then ${end})`, async () => {
        const db = database.db;
        const t = await newTenant(db);
        const [a, b] = [await connect(), await connect()];
        const insertJob = (client: typeof a, user: string) =>
          client.query(
            `insert into jobs (company_id, id, customer_id, status, assigned_to, service_date)
             values ($1, 'job_' || gen_random_uuid(), $2, 'Completed', $3, '2026-03-01T09:00:00Z')`,
            [t.companyId, t.customerId, user],
          );
        try {
          await insertJob(a, t.users[0]!);
          await a.query("begin");
          await insertJob(a, t.users[0]!);
          // a ends only after b commits: b finishing at all shows it never waited for a's lock.
          await b.query("begin");
          await insertJob(b, t.users[0]!);
          await b.query(`update jobs set assigned_to = $2 where company_id = $1`, [t.companyId, t.users[1]]);
          await b.query("commit");
          await expectExact(db, t.companyId);
          await a.query(end);
          await expectExact(db, t.companyId);
          const report = await getServicedJobReport({
            ctx: { db, companyId: t.companyId },
            input: getServicedJobReportQuerySchema.parse({}),
          });
          expect(report.data.job_count).toBe(end === "commit" ? 3 : 2);
        } finally {
          await a.query("rollback").catch(() => {});
          await Promise.all([a.end(), b.end()]);
        }
      });
    }
  });
}

describe(`job report totals and TRUNCATE (${testEngine()})`, () => {
  it("TRUNCATE of jobs clears the sums; of job_crew alone, every job's crew", async () => {
    const db = database.db;
    const g = generator(17);
    const t = await newTenant(db);
    await insertJobs(db, g, t, 10);
    for (let i = 0; i < 20; i++) await randomWrite(db, g, t);
    await db.execute(sql`insert into job_crew (company_id, id, job_id, user_id)
      select company_id, 'crw_' || md5(id), id, ${t.users[2]!} from jobs where company_id = ${t.companyId}
      on conflict do nothing`);
    await db.execute(sql`truncate job_crew`);
    await expectExact(db, t.companyId);
    await db.execute(sql`truncate jobs cascade`);
    const [left] = (await db.execute<{ n: number }>(sql`select count(*)::int as n from job_report_totals`))
      .rows;
    expect(left?.n).toBe(0);
    await insertJobs(db, g, t, 5);
    await expectExact(db, t.companyId);
  });
});

// 0014 sums the jobs before it under day, assigned and crew; 0015 adds assigned_day and crew_day.
describe.each(["0014_job_report_totals", "0015_job_report_day_totals"])(
  `migration %s on ${testEngine()}`,
  (tag) => {
    it("sums the jobs and crews that exist before it, one row per tuple, and its triggers keep them", async () => {
      const own = await createEmptyTestDatabase();
      try {
        await migrateUpTo(own, tag);
        const db = own.db;
        const g = generator(19);
        const tenants = [await newTenant(db), await newTenant(db)];
        for (const t of tenants) {
          await insertJobs(db, g, t, 25);
          await db.execute(sql`insert into job_crew (company_id, id, job_id, user_id, position)
          select company_id, 'crw_' || md5(id || u.user_id), id, u.user_id, u.n from jobs,
            unnest(array[${t.users[0]!}, ${t.users[1]!}]::text[]) with ordinality u(user_id, n)
          where company_id = ${t.companyId} and md5(id || u.user_id) < '8'`);
          await db.execute(sql`insert into job_line_items (company_id, id, job_id, total_price)
          select company_id, 'li_' || md5(id), id, 99.99 from jobs where company_id = ${t.companyId}`);
          await db.execute(sql`insert into job_payments (company_id, id, job_id, amount, payment_method, payment_type, status)
          select company_id, 'pay_' || md5(id), id, 40.25, 'cash', 'payment', 'succeeded' from jobs
          where company_id = ${t.companyId} and md5(id) < '9'`);
        }
        await own.migrate();
        for (const t of tenants) {
          await expectExact(db, t.companyId);
          const [rows] = (
            await db.execute<{ n: number }>(
              sql`select count(*)::int as n from job_report_totals where company_id = ${t.companyId}`,
            )
          ).rows;
          expect(rows?.n).toBe((await sourceTuples(db, t.companyId)).length);
          expect((await staleCrews(db, t.companyId)).length).toBe(0);
          const [crewed] = (
            await db.execute<{ n: number }>(
              sql`select count(*)::int as n from jobs where company_id = ${t.companyId} and cardinality(crew_user_ids) > 0`,
            )
          ).rows;
          expect(crewed?.n).toBeGreaterThan(0);
        }
        for (const t of tenants) {
          for (let i = 0; i < 12; i++) await randomWrite(db, g, t);
          await expectExact(db, t.companyId);
        }
      } finally {
        await own.close();
      }
    });
  },
);

import fc from "fast-check";
import { sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type DbOrTx } from "@/lib/db/client";
import type { ListCountEntity } from "@/lib/db/schema";
import { listTagCountTotal, type TagCountEntity } from "@/lib/domain/list-counts";
import { customerFilter, listCustomers, upsertCustomer } from "@/lib/domain/customers";
import { leadFilter, listLeads, upsertLead } from "@/lib/domain/leads";
import { listPins } from "@/lib/domain/pins/list";
import { planFilterSql } from "@/lib/domain/service-plans/filters";
import { listServicePlans } from "@/lib/domain/service-plans/list";
import { jobFilterSql } from "@/lib/domain/serviced-jobs/filters";
import { listServicedJobs } from "@/lib/domain/serviced-jobs/list";
import { ID_PREFIX, newId } from "@/lib/ids";
import { getCustomersQuerySchema, upsertCustomerBodySchema } from "@/lib/schemas/customers";
import { getLeadsQuerySchema, upsertLeadBodySchema } from "@/lib/schemas/leads";
import { getPinsQuerySchema } from "@/lib/schemas/pins";
import { getServicePlansQuerySchema } from "@/lib/schemas/service-plans";
import { getServicedJobsQuerySchema } from "@/lib/schemas/serviced-jobs";
import { createCompany, createUser, testKeyPrincipal } from "@/lib/testing/factories";
import { migrateUpTo } from "@/lib/testing/migrations";
import { insertCustomer } from "@/lib/testing/plan-job-fixtures";
import {
  connectWithLockTimeout,
  createEmptyTestDatabase,
  createTestDatabase,
  setupTestDatabase,
  testEngine,
} from "@/lib/testing/test-database";

// List totals read from list_counts must equal count(*) after any writes: domain functions, raw
// SQL, concurrent writers, compaction, TRUNCATE and the migrations' backfills.

const database = setupTestDatabase();

type Tags = (string | null)[];
type Value = string | boolean | number | null | Tags;
type Row = Record<string, Value>;

/** A value as SQL: a parameter, or a tags array as `array[...]::text[]` (null elements kept). */
const valueSql = (value: Value): SQL =>
  Array.isArray(value)
    ? sql`array[${sql.join(
        value.map((t) => sql`${t}::text`),
        sql`, `,
      )}]::text[]`
    : sql`${value}`;

/** One multi-row INSERT of raw rows (the columns of the first row). */
function insertSql(table: string, rows: Row[]): SQL {
  const columns = Object.keys(rows[0] ?? {});
  const values = rows.map(
    (row) =>
      sql`(${sql.join(
        columns.map((c) => valueSql(row[c] ?? null)),
        sql`, `,
      )})`,
  );
  return sql`insert into ${sql.identifier(table)} (${sql.join(
    columns.map((c) => sql.identifier(c)),
    sql`, `,
  )}) values ${sql.join(values, sql`, `)}`;
}

/** Up to `limit` of the tenant's rows of the table, from `offset` in id order. */
function someRows(table: string, companyId: string, window: { offset: number; limit: number }): SQL {
  const t = sql.identifier(table);
  return sql`company_id = ${companyId} and id in (
    select id from ${t} where company_id = ${companyId} order by id limit ${window.limit} offset ${window.offset})`;
}

type Tuple = {
  flag: boolean;
  key1: string | null;
  key2: string | null;
  n: number;
};

const byTuple = (a: Tuple, b: Tuple) =>
  JSON.stringify([a.flag, a.key1, a.key2]).localeCompare(JSON.stringify([b.flag, b.key1, b.key2]));

/** The tenant's counters of a list, summed by dimension tuple, zero tuples left out. */
async function counterTuples(db: DbOrTx, companyId: string, entity: ListCountEntity): Promise<Tuple[]> {
  const rows = (
    await db.execute<Tuple>(sql`select flag, key1, key2, sum(n)::int as n from list_counts
      where company_id = ${companyId} and entity = ${entity}
      group by flag, key1, key2 having sum(n) <> 0`)
  ).rows;
  return rows.sort(byTuple);
}

async function counterRows(db: DbOrTx, companyId: string, entity: ListCountEntity): Promise<number> {
  const [row] = (
    await db.execute<{ n: number }>(
      sql`select count(*)::int as n from list_counts where company_id = ${companyId} and entity = ${entity}`,
    )
  ).rows;
  return row?.n ?? 0;
}

async function compact(db: DbOrTx, companyId: string, entity: ListCountEntity) {
  await db.execute(sql`select list_counts_compact(${companyId}, ${entity})`);
}

interface Tenant {
  companyId: string;
  /** Per entity: ids of what its rows refer to (customer, pin types, creator). */
  refs: Record<string, string>;
}

/** What the tests need to know of one counted list. */
interface ListModel {
  entity: ListCountEntity;
  table: string;
  /** Rows a tenant needs first (customers, pin types, users). */
  setUp(db: DbOrTx, companyId: string): Promise<Record<string, string>>;
  /** Random values of the dimension columns (and of the columns counted rows depend on). */
  dimensions: fc.Arbitrary<Row>;
  /** A full row to insert with those values. */
  row(tenant: Tenant, dimensions: Row): Row;
  /** The counters' tuples computed from the table itself. */
  sourceTuples(companyId: string): SQL;
  /** Query strings of the list: every combination of the dimension filters, and some others. */
  queries(refs: Record<string, string>): Record<string, string>[];
  /** The list's total through its domain function, and count(*) of the same filters. */
  listTotal(db: DbOrTx, companyId: string, query: Record<string, string>): Promise<number>;
  countTotal(db: DbOrTx, companyId: string, query: Record<string, string>): Promise<number>;
  /** Writes through the domain functions, where the list has them. */
  domainWrite?: (
    db: DbOrTx,
    companyId: string,
    dimensions: Row,
    existingId: string | undefined,
  ) => Promise<void>;
  /** More totals to compare with count(*), beyond what the list's query string can express. */
  moreTotals?: (db: DbOrTx, companyId: string) => Promise<void>;
}

const combinations = (axes: Record<string, (string | undefined)[]>): Record<string, string>[] =>
  Object.entries(axes).reduce<Record<string, string>[]>(
    (queries, [name, values]) =>
      queries.flatMap((q) => values.map((v) => (v === undefined ? q : { ...q, [name]: v }))),
    [{}],
  );

const countOf = async (db: DbOrTx, query: SQL) =>
  (await db.execute<{ n: number }>(sql`select count(*)::int as n from ${query}`)).rows[0]?.n ?? -1;

const LEAD_STAGES = ["new", "won", "lost"];
const PIN_TYPES = ["pt_a", "pt_b", "pt_c"];
const JOB_STATUSES = ["Unscheduled", "Scheduled", "In Progress", "Completed", "Cancelled"];

/**
 * Service dates at the day boundaries a range can cut, an early year, and the infinities (which
 * sort before and after every day).
 */
const SERVICE_DATES = [
  "2026-03-01T00:00:00Z",
  "2026-03-01T23:59:59.999999Z",
  "2026-03-02T00:00:00.000001Z",
  "2026-03-02T12:00:00Z",
  "2026-03-02T12:00:00.000001Z",
  "2026-03-04T08:30:00Z",
  "1999-12-31T23:00:00Z",
  "0500-06-01T00:00:00Z",
  "-infinity",
  "infinity",
];

/** Date bounds of the job list cutting those days at each kind of place. */
const SERVICE_DATE_QUERIES = {
  service_date_range_start: [
    undefined,
    "2026-03-01",
    "2026-03-01T00:00:00.001Z",
    "2026-03-02T12:00:00Z",
    "1999-12-31T23:30:00Z",
  ],
  service_date_range_end: [
    undefined,
    "2026-03-01",
    "2026-03-02T00:00:00Z",
    "2026-03-02T12:00:00Z",
    "2026-03-04",
  ],
};

/**
 * Tags a text-written canonical form could get wrong: separators, quotes, escapes, unicode forms,
 * case, NULL, the empty string. Raw rows also get null elements and random strings.
 */
const AWKWARD_TAGS = [
  "vip",
  "VIP",
  "high-value",
  "a,b",
  'q"u',
  "{b}",
  "}{",
  " sp ",
  "back\\slash",
  "\\",
  "ünï",
  "é",
  "e\u0301",
  "日本",
  "NULL",
  "null",
  "",
];
const tagArbitrary = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...AWKWARD_TAGS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constant(null) },
);
// Now and then a tag twice: a set is counted once, whatever its duplicates.
const tagsArbitrary: fc.Arbitrary<Value> = fc
  .tuple(fc.array(tagArbitrary, { maxLength: 4 }), fc.boolean())
  .map(([tags, twice]) => (twice && tags.length > 0 ? [...tags, tags[0]!] : tags));

/** The tags a request body may carry: not empty once trimmed (the body schema's rule). */
const domainTags = (tags: Value | undefined): string[] =>
  (Array.isArray(tags) ? tags : []).filter((t): t is string => !!t && t.trim() !== "");

/** Tag filters of the lists' query strings: comma-separated, trimmed, so no commas nor spaces. */
const TAG_QUERIES = ["vip", "vip,high-value", "VIP", 'q"u,{b},NULL', "ünï,日本,é", "back\\slash,absent"];

/** What differs between the two tag-set lists. */
interface TagListSpec {
  entity: TagCountEntity;
  table: "leads" | "customers";
  /** The dimension beside archived: stage or status, its values, and those a query filters by. */
  dimension: "stage" | "status";
  values: Value[];
  filters: string[];
  row: ListModel["row"];
  listTotal: ListModel["listTotal"];
  countTotal: ListModel["countTotal"];
  domainWrite: NonNullable<ListModel["domainWrite"]>;
}

function tagModel(spec: TagListSpec): ListModel {
  const { dimension, table } = spec;
  const t = sql.identifier(table);
  const d = sql.identifier(dimension);
  return {
    entity: spec.entity,
    table,
    setUp: async () => ({}),
    dimensions: fc.record({
      [dimension]: fc.constantFrom<Value>(...spec.values),
      archived: fc.boolean(),
      tags: tagsArbitrary,
    }),
    row: spec.row,
    // The sets written independently of the triggers' expression: distinct, then sorted bytewise.
    sourceTuples: (companyId) =>
      sql`select archived as flag, tag_set as key1, ${d} as key2, count(*)::int as n
        from ${t}, lateral (select array(
          select x from (select distinct x from unnest(tags) x where x is not null) u
          order by x collate "C")::text as tag_set) s
        where company_id = ${companyId} and tag_set <> '{}' group by 1, 2, 3`,
    queries: () =>
      combinations({
        archived: ["false", "true"],
        [dimension]: [undefined, ...spec.filters],
        tags: TAG_QUERIES,
        search: [undefined, "raw"],
      }),
    listTotal: spec.listTotal,
    countTotal: spec.countTotal,
    domainWrite: spec.domainWrite,
    // Any tags, also those a query string cannot carry (commas, spaces, empty), straight from the
    // counters: subsets of one to three awkward tags, with and without archived rows, by stage.
    moreTotals: async (db, companyId) => {
      const subsets = fc.sample(fc.subarray(AWKWARD_TAGS, { minLength: 1, maxLength: 3 }), {
        numRuns: 12,
        seed: 11,
      });
      for (const tags of subsets) {
        for (const [flag, key2] of [
          [false, undefined],
          [undefined, undefined],
          [undefined, spec.filters[0]],
        ] as const) {
          const filter = { companyId, entity: spec.entity, flag, key2, tags };
          const [total] = await listTagCountTotal(db, filter);
          const counted = await countOf(
            db,
            sql`${t} where company_id = ${companyId} and tags && ${valueSql(tags)}
              ${flag === false ? sql`and not archived` : sql``}
              ${key2 === undefined ? sql`` : sql`and ${d} = ${key2}`}`,
          );
          expect(total?.total, `${spec.entity} ${JSON.stringify({ tags, flag, key2 })}`).toBe(counted);
        }
      }
    },
  };
}

/** What the models of the two job lists share: the table, its rows, and the list's totals. */
const jobList: Pick<ListModel, "table" | "setUp" | "row" | "listTotal" | "countTotal"> = {
  table: "jobs",
  setUp: async (db, companyId) => ({ customer: (await insertCustomer(db, companyId)).id }),
  row: (t, d) => ({
    company_id: t.companyId,
    id: newId(ID_PREFIX.job),
    customer_id: t.refs.customer ?? null,
    ...d,
  }),
  listTotal: async (db, companyId, query) =>
    (
      await listServicedJobs({
        ctx: { db: db as never, companyId },
        input: getServicedJobsQuerySchema.parse({ ...query, limit: "1" }),
      })
    ).pagination.total,
  countTotal: (db, companyId, query) =>
    countOf(db, sql`jobs j where ${jobFilterSql(companyId, getServicedJobsQuerySchema.parse(query))}`),
};

const models: ListModel[] = [
  {
    entity: "leads",
    table: "leads",
    setUp: async () => ({}),
    dimensions: fc.record({ stage: fc.constantFrom<Value>(...LEAD_STAGES, null), archived: fc.boolean() }),
    row: (t, d) => ({ company_id: t.companyId, id: newId(ID_PREFIX.lead), name: "Raw lead", ...d }),
    sourceTuples: (companyId) =>
      sql`select archived as flag, stage as key1, null::text as key2, count(*)::int as n
        from leads where company_id = ${companyId} group by 1, 2`,
    queries: () =>
      combinations({
        archived: ["false", "true"],
        stage: [undefined, ...LEAD_STAGES, "absent"],
        search: [undefined, "raw"],
      }),
    listTotal: async (db, companyId, query) =>
      (
        await listLeads({
          ctx: { db: db as never, companyId, principal: testKeyPrincipal(companyId) },
          input: getLeadsQuerySchema.parse({ ...query, limit: "1" }),
        })
      ).pagination.total,
    countTotal: (db, companyId, query) =>
      countOf(db, sql`leads where ${leadFilter(companyId, getLeadsQuerySchema.parse(query))}`),
    domainWrite: async (db, companyId, d, existingId) => {
      const ctx = { db: db as never, companyId, principal: testKeyPrincipal(companyId) };
      if (existingId) {
        await upsertLead({ ctx, input: upsertLeadBodySchema.parse({ id: existingId, stage: d.stage }) });
      } else {
        await upsertLead({ ctx, input: upsertLeadBodySchema.parse({ name: "Domain lead", stage: d.stage }) });
      }
    },
  },
  {
    entity: "customers",
    table: "customers",
    setUp: async () => ({}),
    dimensions: fc.record({ status: fc.constantFrom<Value>("active", "inactive"), archived: fc.boolean() }),
    row: (t, d) => ({ company_id: t.companyId, id: newId(ID_PREFIX.customer), first_name: "Raw", ...d }),
    sourceTuples: (companyId) =>
      sql`select archived as flag, status as key1, null::text as key2, count(*)::int as n
        from customers where company_id = ${companyId} group by 1, 2`,
    queries: () =>
      combinations({
        archived: ["false", "true"],
        status: [undefined, "active", "inactive"],
        search: [undefined, "raw"],
      }),
    listTotal: async (db, companyId, query) =>
      (
        await listCustomers({
          ctx: { db: db as never, companyId },
          input: getCustomersQuerySchema.parse({ ...query, limit: "1" }),
        })
      ).pagination.total,
    countTotal: (db, companyId, query) =>
      countOf(db, sql`customers where ${customerFilter(companyId, getCustomersQuerySchema.parse(query))}`),
    domainWrite: async (db, companyId, d, existingId) => {
      const ctx = { db: db as never, companyId, principal: testKeyPrincipal(companyId) };
      const body = existingId
        ? { id: existingId, status: d.status }
        : { first_name: "Domain", status: d.status };
      await upsertCustomer({ ctx, input: upsertCustomerBodySchema.parse(body) });
    },
  },
  {
    entity: "service_plans",
    table: "service_plans",
    setUp: async (db, companyId) => ({
      customer: (await insertCustomer(db, companyId)).id,
      user: (await createUser(db, companyId)).id,
    }),
    dimensions: fc.record({
      active: fc.boolean(),
      frequency: fc.constantFrom<Value>("Monthly", "Quarterly", "Custom"),
      service_type: fc.constantFrom<Value>("Termite", "Mowing", null, ""),
    }),
    row: (t, d) => ({
      company_id: t.companyId,
      id: newId(ID_PREFIX.servicePlan),
      customer_id: t.refs.customer ?? null,
      sold_by: t.refs.user ?? null,
      total_visits: 4,
      ...d,
    }),
    sourceTuples: (companyId) =>
      sql`select active as flag, frequency as key1, service_type as key2, count(*)::int as n
        from service_plans where company_id = ${companyId} group by 1, 2, 3`,
    queries: (refs) =>
      combinations({
        status: [undefined, "active", "inactive"],
        frequency: [undefined, "Monthly", "Custom"],
        service_type: [undefined, "Termite", "absent"],
      }).concat([{ sold_by_user_id: refs.user ?? "" }, { created_at_range_start: "2000-01-01" }]),
    listTotal: async (db, companyId, query) =>
      (
        await listServicePlans({
          ctx: { db: db as never, companyId },
          input: getServicePlansQuerySchema.parse({ ...query, limit: "1" }),
        })
      ).pagination.total,
    countTotal: (db, companyId, query) =>
      countOf(
        db,
        sql`service_plans p where ${planFilterSql(companyId, getServicePlansQuerySchema.parse(query))}`,
      ),
  },
  {
    entity: "jobs",
    ...jobList,
    dimensions: fc.record({
      status: fc.constantFrom<Value>(...JOB_STATUSES),
      is_quote: fc.boolean(),
      archived: fc.boolean(),
    }),
    sourceTuples: (companyId) =>
      sql`select false as flag, status as key1, null::text as key2, count(*)::int as n
        from jobs where company_id = ${companyId} and not is_quote and not archived group by 1, 2`,
    queries: () =>
      combinations({
        only_completed: ["true", "false"],
        service_date_range_start: [undefined, "2000-01-01"],
      }),
  },
  {
    entity: "pins",
    table: "pins",
    // Ids are unique per tenant: every tenant has the pin types pt_a, pt_b and pt_c. Plain SQL
    // naming only the columns of migration 0006's day, which the migration test runs against.
    setUp: async (db, companyId) => {
      for (const id of PIN_TYPES) {
        await db.execute(
          sql`insert into pin_types (company_id, id, label, color) values (${companyId}, ${id}, ${id}, '#3366ff')`,
        );
      }
      return { user: (await createUser(db, companyId)).id };
    },
    dimensions: fc.record({ pin_type_id: fc.constantFrom<Value>(...PIN_TYPES) }),
    row: (t, d) => ({
      company_id: t.companyId,
      id: newId(ID_PREFIX.pin),
      created_by: t.refs.user ?? null,
      latitude: 1,
      longitude: 2,
      ...d,
    }),
    sourceTuples: (companyId) =>
      sql`select false as flag, pin_type_id as key1, null::text as key2, count(*)::int as n
        from pins where company_id = ${companyId} group by 1, 2`,
    queries: (refs) =>
      combinations({
        pin_type_id: [undefined, "pt_a", "pt_c", "absent"],
        user_id: [undefined, refs.user],
      }),
    listTotal: async (db, companyId, query) =>
      (
        await listPins({
          ctx: { db: db as never, companyId },
          input: getPinsQuerySchema.parse({ ...query, limit: "1" }),
        })
      ).pagination.total,
    countTotal: (db, companyId, query) => {
      const q = getPinsQuerySchema.parse(query);
      return countOf(
        db,
        sql`pins p where p.company_id = ${companyId}
          and (${q.pin_type_id ?? null}::text is null or p.pin_type_id = ${q.pin_type_id ?? null})
          and (${q.user_id ?? null}::text is null or p.created_by = ${q.user_id ?? null})`,
      );
    },
  },
  {
    // The job list's service-date ranges: whole days from the day counters, part-days counted.
    entity: "job_days",
    ...jobList,
    dimensions: fc.record({
      status: fc.constantFrom<Value>(...JOB_STATUSES),
      is_quote: fc.boolean(),
      archived: fc.boolean(),
      service_date: fc.constantFrom<Value>(null, ...SERVICE_DATES),
    }),
    // The day keys written independently of job_day_key: the Julian day number (to_char's J) + 1.
    sourceTuples: (companyId) =>
      sql`select false as flag, case when service_date = '-infinity' then '0000000000'
          when service_date = 'infinity' then '9999999999'
          else lpad((to_char((service_date at time zone 'UTC')::date, 'J')::int + 1)::text, 10, '0') end as key1,
        status as key2, count(*)::int as n
        from jobs where company_id = ${companyId} and not is_quote and not archived
          and service_date is not null group by 1, 2, 3`,
    queries: () => combinations({ only_completed: ["true", "false"], ...SERVICE_DATE_QUERIES }),
  },
  tagModel({
    entity: "lead_tags",
    table: "leads",
    dimension: "stage",
    values: [...LEAD_STAGES, null],
    filters: ["new", "absent"],
    row: (t, d) => ({ company_id: t.companyId, id: newId(ID_PREFIX.lead), name: "Raw lead", ...d }),
    listTotal: async (db, companyId, query) =>
      (
        await listLeads({
          ctx: { db: db as never, companyId, principal: testKeyPrincipal(companyId) },
          input: getLeadsQuerySchema.parse({ ...query, limit: "1" }),
        })
      ).pagination.total,
    countTotal: (db, companyId, query) =>
      countOf(db, sql`leads where ${leadFilter(companyId, getLeadsQuerySchema.parse(query))}`),
    domainWrite: async (db, companyId, d, existingId) => {
      const ctx = { db: db as never, companyId, principal: testKeyPrincipal(companyId) };
      const fields = { stage: d.stage, tags: domainTags(d.tags) };
      const body = existingId ? { id: existingId, ...fields } : { name: "Domain lead", ...fields };
      await upsertLead({ ctx, input: upsertLeadBodySchema.parse(body) });
    },
  }),
  tagModel({
    entity: "customer_tags",
    table: "customers",
    dimension: "status",
    values: ["active", "inactive"],
    filters: ["inactive"],
    row: (t, d) => ({ company_id: t.companyId, id: newId(ID_PREFIX.customer), first_name: "Raw", ...d }),
    listTotal: async (db, companyId, query) =>
      (
        await listCustomers({
          ctx: { db: db as never, companyId },
          input: getCustomersQuerySchema.parse({ ...query, limit: "1" }),
        })
      ).pagination.total,
    countTotal: (db, companyId, query) =>
      countOf(db, sql`customers where ${customerFilter(companyId, getCustomersQuerySchema.parse(query))}`),
    domainWrite: async (db, companyId, d, existingId) => {
      const ctx = { db: db as never, companyId, principal: testKeyPrincipal(companyId) };
      const fields = { status: d.status, tags: domainTags(d.tags) };
      const body = existingId ? { id: existingId, ...fields } : { first_name: "Domain", ...fields };
      await upsertCustomer({ ctx, input: upsertCustomerBodySchema.parse(body) });
    },
  }),
];

async function newTenant(db: DbOrTx, model: ListModel): Promise<Tenant> {
  const { id: companyId } = await createCompany(db);
  return { companyId, refs: await model.setUp(db, companyId) };
}

/** Counters equal the table's own counts, and every list total equals count(*). */
async function expectExact(db: DbOrTx, model: ListModel, tenant: Tenant) {
  const source = (await db.execute<Tuple>(model.sourceTuples(tenant.companyId))).rows.sort(byTuple);
  expect(await counterTuples(db, tenant.companyId, model.entity), model.entity).toEqual(source);
  for (const query of model.queries(tenant.refs)) {
    const expected = await model.countTotal(db, tenant.companyId, query);
    expect(
      await model.listTotal(db, tenant.companyId, query),
      `${model.entity} ${JSON.stringify(query)}`,
    ).toBe(expected);
  }
  await model.moreTotals?.(db, tenant.companyId);
}

type Op =
  | { kind: "insert"; rows: Row[] }
  | { kind: "update"; offset: number; limit: number; set: Row }
  | { kind: "delete"; offset: number; limit: number }
  | { kind: "touch"; offset: number; limit: number }
  | { kind: "domain"; dimensions: Row; update: number | null }
  | { kind: "compact" };

function opArbitrary(model: ListModel): fc.Arbitrary<Op> {
  const dims = model.dimensions;
  const window = { offset: fc.nat(8), limit: fc.integer({ min: 1, max: 6 }) };
  // Any non-empty part of a dimension row: a statement changing some dimensions, not others.
  const set = dims.chain((d) =>
    fc
      .subarray(Object.keys(d), { minLength: 1 })
      .map((keys) => Object.fromEntries(keys.map((k) => [k, d[k]!]))),
  );
  const ops: fc.Arbitrary<Op>[] = [
    fc.record({ kind: fc.constant("insert" as const), rows: fc.array(dims, { minLength: 1, maxLength: 8 }) }),
    fc.record({ kind: fc.constant("update" as const), ...window, set }),
    fc.record({ kind: fc.constant("delete" as const), ...window }),
    fc.record({ kind: fc.constant("touch" as const), ...window }),
    fc.constant({ kind: "compact" as const }),
  ];
  if (model.domainWrite) {
    ops.push(
      fc.record({
        kind: fc.constant("domain" as const),
        dimensions: dims,
        update: fc.option(fc.nat(8), { nil: null }),
      }),
    );
  }
  return fc.oneof(...ops);
}

async function apply(db: DbOrTx, model: ListModel, tenant: Tenant, op: Op) {
  const table = sql.identifier(model.table);
  switch (op.kind) {
    case "insert":
      await db.execute(
        insertSql(
          model.table,
          op.rows.map((d) => model.row(tenant, d)),
        ),
      );
      return;
    case "update": {
      const set = sql.join(
        Object.entries(op.set).map(([column, value]) => sql`${sql.identifier(column)} = ${valueSql(value)}`),
        sql`, `,
      );
      await db.execute(sql`update ${table} set ${set} where ${someRows(model.table, tenant.companyId, op)}`);
      return;
    }
    case "delete":
      await db.execute(sql`delete from ${table} where ${someRows(model.table, tenant.companyId, op)}`);
      return;
    case "touch":
      // A change of no dimension: no counter row.
      await db.execute(
        sql`update ${table} set created_at = created_at - interval '1 second'
          where ${someRows(model.table, tenant.companyId, op)}`,
      );
      return;
    case "domain": {
      let existingId: string | undefined;
      if (op.update !== null) {
        const [row] = (
          await db.execute<{ id: string }>(
            sql`select id from ${table} where company_id = ${tenant.companyId} order by id offset ${op.update} limit 1`,
          )
        ).rows;
        existingId = row?.id;
      }
      await model.domainWrite!(db, tenant.companyId, op.dimensions, existingId);
      return;
    }
    case "compact":
      await compact(db, tenant.companyId, model.entity);
      return;
  }
}

describe(`list counters (${testEngine()})`, () => {
  for (const model of models) {
    it(`${model.entity}: totals equal count(*) after random writes (domain and raw SQL)`, async () => {
      const db = database.db;
      await fc.assert(
        fc.asyncProperty(fc.array(opArbitrary(model), { minLength: 1, maxLength: 12 }), async (ops) => {
          const tenant = await newTenant(db, model);
          for (const op of ops) await apply(db, model, tenant, op);
          await expectExact(db, model, tenant);
          if (isTagList(model.entity)) {
            // Every statement folds the tuples it touched: one row per tuple, none of zero.
            expect(await counterRows(db, tenant.companyId, model.entity)).toBe(
              (await counterTuples(db, tenant.companyId, model.entity)).length,
            );
          }
        }),
        { numRuns: 25 },
      );
    });
  }

  it("a changed dimension moves the row between tuples; unchanged writes add no counter row", async () => {
    const db = database.db;
    const leads = models[0]!;
    const tenant = await newTenant(db, leads);
    await apply(db, leads, tenant, { kind: "insert", rows: [{ stage: "new", archived: false }] });
    await compact(db, tenant.companyId, "leads");
    expect(await counterRows(db, tenant.companyId, "leads")).toBe(1);
    await apply(db, leads, tenant, { kind: "touch", offset: 0, limit: 1 });
    await apply(db, leads, tenant, { kind: "update", offset: 0, limit: 1, set: { stage: "new" } });
    expect(await counterRows(db, tenant.companyId, "leads")).toBe(1);
    await apply(db, leads, tenant, {
      kind: "update",
      offset: 0,
      limit: 1,
      set: { stage: "won", archived: true },
    });
    expect(await counterTuples(db, tenant.companyId, "leads")).toEqual([
      { flag: true, key1: "won", key2: null, n: 1 },
    ]);
    await apply(db, leads, tenant, { kind: "delete", offset: 0, limit: 1 });
    expect(await counterTuples(db, tenant.companyId, "leads")).toEqual([]);
    await compact(db, tenant.companyId, "leads");
    expect(await counterRows(db, tenant.companyId, "leads")).toBe(0);
  });

  it("a tag set is stored in one canonical form that reads back exactly", async () => {
    const db = database.db;
    const leadTags = modelOf("lead_tags");
    const tenant = await newTenant(db, leadTags);
    // Each group: the same set written differently (order, duplicates, null elements).
    const groups: Tags[][] = [
      [
        ["b", "a", "a,b"],
        ["a,b", "a", "b", "a", null],
      ],
      [[...AWKWARD_TAGS], [...([...AWKWARD_TAGS] as Tags).reverse(), "vip", null]],
      [["NULL"], ["NULL", "NULL"]],
      [
        ["null", null],
        [null, "null"],
      ],
      [[""], ["", null]],
      [["e\u0301"], ["e\u0301", "e\u0301"]],
      [["é"]],
    ];
    for (const group of groups) {
      await apply(db, leadTags, tenant, {
        kind: "insert",
        rows: group.map((tags) => ({ stage: "new", archived: false, tags })),
      });
    }
    // Neither tags nor a tag set: no tuple.
    await apply(db, leadTags, tenant, {
      kind: "insert",
      rows: [
        { stage: "new", archived: false, tags: [] },
        { stage: "new", archived: false, tags: [null] },
      ],
    });
    const stored = (
      await db.execute<{
        key1: string;
        tags: string[];
        text: string;
        n: number;
      }>(sql`select key1, key1::text[] as tags, key1::text[]::text as text, n from list_counts
        where company_id = ${tenant.companyId} and entity = 'lead_tags'`)
    ).rows;
    const canonical = (tags: Tags) =>
      [...new Set(tags.filter((t): t is string => t !== null))].sort((a, b) =>
        Buffer.compare(Buffer.from(a), Buffer.from(b)),
      );
    const expected = groups.map((group) => ({ tags: canonical(group[0]!), n: group.length }));
    const byTags = (a: { tags: string[] }, b: { tags: string[] }) =>
      JSON.stringify(a.tags).localeCompare(JSON.stringify(b.tags));
    expect(stored.map(({ tags, n }) => ({ tags, n })).sort(byTags)).toEqual(expected.sort(byTags));
    for (const row of stored) expect(row.text).toBe(row.key1);
    // Every awkward tag finds its records, and only an exact, case-sensitive match does.
    for (const tag of AWKWARD_TAGS) {
      const [row] = await listTagCountTotal(db, {
        companyId: tenant.companyId,
        entity: "lead_tags",
        tags: [tag],
      });
      const expectedTotal = groups
        .filter((group) => group.some((tags) => tags.includes(tag)))
        .reduce((sum, group) => sum + group.length, 0);
      expect(row?.total, JSON.stringify(tag)).toBe(expectedTotal);
    }
    await expectExact(db, leadTags, tenant);
  });

  it("a write folds only the tag tuples it touched, however many the tenant has", async () => {
    const db = database.db;
    const leadTags = modelOf("lead_tags");
    const tenant = await newTenant(db, leadTags);
    const { companyId } = tenant;
    // 300 tag sets in 3 stages, written in one statement: 900 tuples of one row each.
    const rows = Array.from({ length: 900 }, (_, i) => ({
      stage: LEAD_STAGES[i % 3]!,
      archived: false,
      tags: [`set ${Math.floor(i / 3)}`, "common"],
    }));
    await apply(db, leadTags, tenant, { kind: "insert", rows });
    const rowIds = async () =>
      new Map(
        (
          await db.execute<{ id: number; key1: string; key2: string; n: number }>(
            sql`select id::int, key1, key2, n from list_counts where company_id = ${companyId} and entity = 'lead_tags'`,
          )
        ).rows.map((r) => [r.id, r]),
      );
    const before = await rowIds();
    expect(before.size).toBe(900);
    // One lead moves from (set 7, won) to (set 7, lost): those two tuples' rows are replaced,
    // the other 898 are untouched.
    await db.execute(
      sql`update leads set stage = 'lost' where company_id = ${companyId} and id = (
        select id from leads where company_id = ${companyId} and tags[1] = 'set 7' and stage = 'won')`,
    );
    const after = await rowIds();
    const gone = [...before.keys()].filter((id) => !after.has(id)).map((id) => before.get(id)!);
    const added = [...after.keys()].filter((id) => !before.has(id)).map((id) => after.get(id)!);
    const tuples = (list: { key1: string; key2: string; n: number }[]) =>
      list.map((r) => `${r.key1} ${r.key2} ${r.n}`).sort();
    expect(tuples(gone)).toEqual(['{common,"set 7"} lost 1', '{common,"set 7"} won 1']);
    expect(tuples(added)).toEqual(['{common,"set 7"} lost 2']);
    // An insert of a new set adds one row; a write of no tag column, none.
    await apply(db, leadTags, tenant, {
      kind: "insert",
      rows: [{ stage: "new", archived: false, tags: ["x"] }],
    });
    await apply(db, leadTags, tenant, { kind: "touch", offset: 0, limit: 50 });
    const last = await rowIds();
    expect(last.size).toBe(900);
    expect([...after.keys()].filter((id) => !last.has(id))).toEqual([]);
    await expectExact(db, leadTags, tenant);
    // The full compaction of the list (list_counts_compact) leaves every total as it was.
    await compact(db, companyId, "lead_tags");
    expect(await counterRows(db, companyId, "lead_tags")).toBe(900);
    await expectExact(db, leadTags, tenant);
  });

  it("reads the total from the counters only when every filter is a dimension", async () => {
    const db = database.db;
    // job_days: a test of its own (below), its totals add the counters' days and counted part-days.
    for (const model of models.filter((m) => m.entity !== "job_days")) {
      const tenant = await newTenant(db, model);
      const rows = fc.sample(model.dimensions, { numRuns: 60, seed: 7 });
      await apply(db, model, tenant, { kind: "insert", rows });
      // Counters 1001 times too high: a total read from them is 1001 times count(*).
      await db.execute(sql`update list_counts set n = n * 1001 where company_id = ${tenant.companyId}`);
      let fromCounters = 0;
      for (const query of model.queries(tenant.refs)) {
        const counted = await model.countTotal(db, tenant.companyId, query);
        const total = await model.listTotal(db, tenant.companyId, query);
        const factor = readsCounters(model.entity, query) ? 1001 : 1;
        expect(total, `${model.entity} ${JSON.stringify(query)}`).toBe(counted * factor);
        if (factor > 1 && counted > 0) fromCounters++;
      }
      expect(fromCounters, model.entity).toBeGreaterThan(0);
    }
  });

  it("a service-date range reads its whole days from the counters and counts its part-days", async () => {
    const db = database.db;
    const jobDays = modelOf("job_days");
    const tenant = await newTenant(db, jobDays);
    // On each date 1 to 3 completed jobs and one scheduled: the list counts the completed ones.
    const rows = SERVICE_DATES.flatMap((service_date, i) =>
      ["Scheduled", ...Array.from({ length: 1 + (i % 3) }, () => "Completed")].map((status) => ({
        status,
        is_quote: false,
        archived: false,
        service_date,
      })),
    );
    await apply(db, jobDays, tenant, { kind: "insert", rows });
    // Counters 1001 times too high: a job read from them counts 1001 times.
    await db.execute(
      sql`update list_counts set n = n * 1001 where company_id = ${tenant.companyId} and entity = 'job_days'`,
    );
    const completed = (where: SQL) =>
      countOf(
        db,
        sql`jobs j where j.company_id = ${tenant.companyId} and j.status = 'Completed' and (${where})`,
      );
    // A query, the jobs of the days read from the counters, those of the parts of a day counted
    // and added to them, and those counted and taken from them (splitIntoDays).
    const cases: [Record<string, string>, SQL, SQL | null, SQL | null][] = [
      [
        // 12 hours of the end's day: added.
        { service_date_range_start: "2026-03-01", service_date_range_end: "2026-03-02T12:00:00Z" },
        sql`j.service_date >= '2026-03-01T00:00Z' and j.service_date < '2026-03-02T00:00Z'`,
        sql`j.service_date >= '2026-03-02T00:00Z' and j.service_date <= '2026-03-02T12:00Z'`,
        null,
      ],
      [
        // All but a millisecond of the start's day: its day, less its first millisecond.
        { service_date_range_start: "2026-03-01T00:00:00.001Z" },
        sql`j.service_date >= '2026-03-01T00:00Z'`,
        null,
        sql`j.service_date >= '2026-03-01T00:00Z' and j.service_date < '2026-03-01T00:00:00.001Z'`,
      ],
      [
        // A bare end date: its day, less the jobs after 23:59:59.999 (one at .999999).
        { service_date_range_end: "2026-03-01" },
        sql`j.service_date < '2026-03-02T00:00Z'`,
        null,
        sql`j.service_date > '2026-03-01T23:59:59.999Z' and j.service_date < '2026-03-02T00:00Z'`,
      ],
      [
        // All of a day but its first and last millisecond: the day, less the jobs before and after.
        {
          service_date_range_start: "2026-03-01T00:00:00.001Z",
          service_date_range_end: "2026-03-01T23:59:59.999Z",
        },
        sql`j.service_date >= '2026-03-01T00:00Z' and j.service_date < '2026-03-02T00:00Z'`,
        null,
        sql`(j.service_date >= '2026-03-01T00:00Z' and j.service_date < '2026-03-01T00:00:00.001Z')
          or (j.service_date > '2026-03-01T23:59:59.999Z' and j.service_date < '2026-03-02T00:00Z')`,
      ],
      [
        // 13 hours within one day: the day, less the jobs before and after it (a job before it).
        {
          service_date_range_start: "2026-03-02T00:00:00.001Z",
          service_date_range_end: "2026-03-02T13:00:00Z",
        },
        sql`j.service_date >= '2026-03-02T00:00Z' and j.service_date < '2026-03-03T00:00Z'`,
        null,
        sql`(j.service_date >= '2026-03-02T00:00Z' and j.service_date < '2026-03-02T00:00:00.001Z')
          or (j.service_date > '2026-03-02T13:00Z' and j.service_date < '2026-03-03T00:00Z')`,
      ],
    ];
    for (const [query, days, added, taken] of cases) {
      const [fromDays, plus, minus] = [
        await completed(days),
        added ? await completed(added) : 0,
        taken ? await completed(taken) : 0,
      ];
      expect(fromDays * (plus + minus), JSON.stringify(query)).toBeGreaterThan(0);
      expect(await jobDays.listTotal(db, tenant.companyId, query), JSON.stringify(query)).toBe(
        1001 * fromDays + plus - minus,
      );
    }
    // At most half a day on each side of a midnight, 12 hours within one day, and an empty range:
    // every job is counted.
    const counted: [Record<string, string>, SQL][] = [
      [
        { service_date_range_start: "2026-03-01T12:00:00Z", service_date_range_end: "2026-03-02T12:00:00Z" },
        sql`j.service_date >= '2026-03-01T12:00Z' and j.service_date <= '2026-03-02T12:00Z'`,
      ],
      [
        {
          service_date_range_start: "2026-03-02T00:00:00.001Z",
          service_date_range_end: "2026-03-02T12:00:00.001Z",
        },
        sql`j.service_date >= '2026-03-02T00:00:00.001Z' and j.service_date <= '2026-03-02T12:00:00.001Z'`,
      ],
    ];
    for (const [query, where] of counted) {
      const expected = await completed(where);
      expect(expected, JSON.stringify(query)).toBeGreaterThan(0);
      expect(await jobDays.listTotal(db, tenant.companyId, query), JSON.stringify(query)).toBe(expected);
    }
    const empty = { service_date_range_start: "2026-03-04", service_date_range_end: "2026-03-01" };
    expect(await jobDays.listTotal(db, tenant.companyId, empty)).toBe(0);
  });

  it("compaction keeps a tenant's counter rows few while every statement adds one", async () => {
    const db = database.db;
    const leads = models[0]!;
    const tenant = await newTenant(db, leads);
    const statements = 1200;
    for (let i = 0; i < statements; i++) {
      await apply(db, leads, tenant, {
        kind: "insert",
        rows: [{ stage: LEAD_STAGES[i % 3]!, archived: false }],
      });
    }
    // One statement in 32 compacts: the rows since the last compaction plus the 3 tuples. More
    // than 400 would need 400 statements in a row without one (probability (31/32)^400 < 1e-5).
    const rows = await counterRows(db, tenant.companyId, "leads");
    expect(rows).toBeLessThanOrEqual(3 + 400);
    await expectExact(db, leads, tenant);
    await compact(db, tenant.companyId, "leads");
    expect(await counterRows(db, tenant.companyId, "leads")).toBe(3);
    expect(await counterTuples(db, tenant.companyId, "leads")).toEqual(
      LEAD_STAGES.map((stage) => ({ flag: false, key1: stage, key2: null, n: statements / 3 })).sort(byTuple),
    );
  });

  it("a tenant's deletion takes its counters with it", async () => {
    const db = database.db;
    const leads = models[0]!;
    // Many tenants: the delete statements of the cascade also compact now and then.
    for (let i = 0; i < 40; i++) {
      const tenant = await newTenant(db, leads);
      await apply(db, leads, tenant, { kind: "insert", rows: [{ stage: "new", archived: false }] });
      await apply(db, leads, tenant, {
        kind: "insert",
        rows: [{ stage: "won", archived: true, tags: ["vip"] }],
      });
      await db.execute(sql`delete from companies where id = ${tenant.companyId}`);
      expect(await counterRows(db, tenant.companyId, "leads")).toBe(0);
      expect(await counterRows(db, tenant.companyId, "lead_tags")).toBe(0);
    }
  });
});

const modelOf = (entity: ListCountEntity): ListModel => models.find((m) => m.entity === entity)!;
const isTagList = (entity: ListCountEntity): entity is TagCountEntity =>
  entity === "lead_tags" || entity === "customer_tags";

/**
 * Which queries of the models the lists answer from the counters (their filters all dimensions).
 * A job list's date range reads the job_days rows, which the jobs model's rows have none of.
 */
function readsCounters(entity: ListCountEntity, query: Record<string, string>): boolean {
  const others: Record<Exclude<ListCountEntity, "job_days">, string[]> = {
    leads: ["search", "tags"],
    customers: ["search", "tags"],
    lead_tags: ["search"],
    customer_tags: ["search"],
    service_plans: ["created_at_range_start", "created_at_range_end", "sold_by_user_id"],
    jobs: ["service_date_range_start", "service_date_range_end"],
    pins: ["user_id"],
  };
  if (entity === "job_days") throw new Error("job_days: see its own test");
  return !others[entity].some((name) => name in query);
}

describe(`list counters under concurrent writers (${testEngine()})`, () => {
  it("parallel lead creates through the domain keep the totals exact", async () => {
    const db = database.db;
    const leads = models[0]!;
    const tenant = await newTenant(db, leads);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        upsertLead({
          ctx: { db, companyId: tenant.companyId, principal: testKeyPrincipal(tenant.companyId) },
          input: upsertLeadBodySchema.parse({
            phone: `555-01${String(i).padStart(2, "0")}`,
            stage: LEAD_STAGES[i % 3],
          }),
        }),
      ),
    );
    await expectExact(db, leads, tenant);
    expect(await leads.listTotal(db, tenant.companyId, {})).toBe(40);
  });

  if (testEngine() === "postgres") {
    // Each its own session, failing a statement that waits on a lock for a second.
    const connect = () => connectWithLockTimeout(database);
    type Client = Awaited<ReturnType<typeof connect>>;
    const insertLeads = (
      client: Client,
      companyId: string,
      rows: { stage: string; archived?: boolean; tags?: string[] }[],
      name: string,
    ) =>
      client.query(
        `insert into leads (company_id, id, name, stage, archived, tags)
         select $1, 'lead_' || gen_random_uuid(), $2, r.stage, r.archived, r.tags
         from json_to_recordset($3::json) as r(stage text, archived boolean, tags text[])`,
        [companyId, name, JSON.stringify(rows.map((r) => ({ archived: false, tags: [], ...r })))],
      );

    for (const end of ["commit", "rollback"] as const) {
      it(`a transaction holding new counter rows and a compaction blocks no other writer (then ${end})`, async () => {
        const db = database.db;
        const leads = models[0]!;
        const tenant = await newTenant(db, leads);
        const { companyId } = tenant;
        const [a, b] = [await connect(), await connect()];
        try {
          await insertLeads(
            a,
            companyId,
            LEAD_STAGES.map((stage) => ({ stage })),
            "before",
          );
          await a.query("begin");
          await insertLeads(a, companyId, [{ stage: "new" }, { stage: "won" }], "a");
          // a now holds a lock on every counter row of the tenant's leads, old and new.
          await a.query("select list_counts_compact($1, 'leads')", [companyId]);
          // a ends only after b commits: b finishing at all shows it never waited for a's lock.
          await b.query("begin");
          await insertLeads(b, companyId, [{ stage: "new" }, { stage: "lost", archived: true }], "b");
          await b.query("select list_counts_compact($1, 'leads')", [companyId]);
          await b.query("delete from leads where company_id = $1 and name = 'before' and stage = 'won'", [
            companyId,
          ]);
          await b.query("commit");
          // Readers see b's writes, not a's uncommitted ones.
          await expectExact(db, leads, tenant);
          expect(await leads.listTotal(db, companyId, {})).toBe(3);
          await a.query(end);
          await expectExact(db, leads, tenant);
          expect(await leads.listTotal(db, companyId, {})).toBe(end === "commit" ? 5 : 3);
          await compact(db, companyId, "leads");
          expect(await counterRows(db, companyId, "leads")).toBe(
            (await counterTuples(db, companyId, "leads")).length,
          );
        } finally {
          await a.query("rollback").catch(() => {});
          await Promise.all([a.end(), b.end()]);
        }
      });
    }

    for (const end of ["commit", "rollback"] as const) {
      it(`a transaction folding a tag tuple blocks no other writer of that tuple (then ${end})`, async () => {
        const db = database.db;
        const leadTags = modelOf("lead_tags");
        const tenant = await newTenant(db, leadTags);
        const { companyId } = tenant;
        const [a, b] = [await connect(), await connect()];
        const tuple = sql`company_id = ${companyId} and entity = 'lead_tags' and key1 = '{vip}'`;
        try {
          await insertLeads(
            a,
            companyId,
            [1, 2, 3].map(() => ({ stage: "new", tags: ["vip"] })),
            "before",
          );
          await a.query("begin");
          // a folds (new, {vip}): it holds that tuple's row until it ends.
          await insertLeads(a, companyId, [{ stage: "new", tags: ["vip"] }], "a");
          // a ends only after b commits: b finishing at all shows it never waited for a's lock.
          await b.query("begin");
          await insertLeads(b, companyId, [{ stage: "new", tags: ["vip", "vip"] }], "b");
          await b.query(
            `update leads set tags = tags || '{hot}' where company_id = $1 and id = (
              select id from leads where company_id = $1 and name = 'before' order by id limit 1)`,
            [companyId],
          );
          await b.query(
            `delete from leads where company_id = $1 and id = (
              select id from leads where company_id = $1 and name = 'before' order by id desc limit 1)`,
            [companyId],
          );
          await b.query("select list_counts_compact($1, 'lead_tags')", [companyId]);
          await b.query("commit");
          // b could not take a's row: it left its own beside it. Readers see b's writes only.
          await expectExact(db, leadTags, tenant);
          expect(await leadTags.listTotal(db, companyId, { tags: "vip" })).toBe(3);
          await a.query(end);
          await expectExact(db, leadTags, tenant);
          expect(await leadTags.listTotal(db, companyId, { tags: "vip" })).toBe(end === "commit" ? 4 : 3);
          // The next write of the tuple folds what is left into one row.
          await insertLeads(a, companyId, [{ stage: "new", tags: ["vip"] }], "after");
          expect(
            (await db.execute<{ n: number }>(sql`select count(*)::int as n from list_counts where ${tuple}`))
              .rows[0]?.n,
          ).toBe(1);
          await expectExact(db, leadTags, tenant);
        } finally {
          await a.query("rollback").catch(() => {});
          await Promise.all([a.end(), b.end()]);
        }
      });
    }

    for (const end of ["commit", "rollback"] as const) {
      it(`a transaction folding a day tuple blocks no other writer of that tuple (then ${end})`, async () => {
        const db = database.db;
        const jobDays = modelOf("job_days");
        const tenant = await newTenant(db, jobDays);
        const { companyId } = tenant;
        const [a, b] = [await connect(), await connect()];
        const day = "2026-03-01T09:00:00Z";
        const query = {
          service_date_range_start: "2026-03-01",
          service_date_range_end: "2026-03-01T23:00:00Z",
        };
        const whole = {
          service_date_range_start: "2026-03-01",
          service_date_range_end: "2026-03-02T00:00:00Z",
        };
        const insertJobs = (client: Client, count: number, serviceDate: string) =>
          client.query(
            `insert into jobs (company_id, id, customer_id, status, service_date)
             select $1, 'job_' || gen_random_uuid(), $2, 'Completed', $3 from generate_series(1, $4)`,
            [companyId, tenant.refs.customer, serviceDate, count],
          );
        try {
          await insertJobs(a, 3, day);
          await a.query("begin");
          // a folds (2026-03-01, Completed): it holds that tuple's row until it ends.
          await insertJobs(a, 1, day);
          // a ends only after b commits: b finishing at all shows it never waited for a's lock.
          await b.query("begin");
          await insertJobs(b, 2, day);
          await b.query(
            `update jobs set service_date = '2026-03-04T08:00Z' where company_id = $1 and id = (
              select id from jobs where company_id = $1 order by id limit 1)`,
            [companyId],
          );
          await b.query("commit");
          // b could not take a's row: it left its own beside it. Readers see b's writes only.
          await expectExact(db, jobDays, tenant);
          expect(await jobDays.listTotal(db, companyId, whole)).toBe(4);
          await a.query(end);
          await expectExact(db, jobDays, tenant);
          expect(await jobDays.listTotal(db, companyId, whole)).toBe(end === "commit" ? 5 : 4);
          expect(await jobDays.listTotal(db, companyId, query)).toBe(end === "commit" ? 5 : 4);
          // The next write of the tuple folds what is left into one row.
          await insertJobs(a, 1, day);
          const [rows] = (
            await db.execute<{ n: number }>(sql`select count(*)::int as n from list_counts
              where company_id = ${companyId} and entity = 'job_days' and key2 = 'Completed'
                and key1 = job_day_key(${day}::timestamptz)`)
          ).rows;
          expect(rows?.n).toBe(1);
          await expectExact(db, jobDays, tenant);
        } finally {
          await a.query("rollback").catch(() => {});
          await Promise.all([a.end(), b.end()]);
        }
      });
    }

    it("six connections writing and compacting in one tenant keep every total exact", async () => {
      const db = database.db;
      const leads = models[0]!;
      const tenant = await newTenant(db, leads);
      const { companyId } = tenant;
      const clients = await Promise.all(Array.from({ length: 6 }, connect));
      const random = fc.sample(fc.nat(1_000_000), { numRuns: 6 * 30 * 6, seed: 42 });
      let next = 0;
      const pick = <T>(values: readonly T[]) => values[random[next++ % random.length]! % values.length]!;
      // Few tag sets, so that the workers' statements fold the same tuples at the same time.
      const TAG_SETS = [[], ["vip"], ["vip"], ["vip", "a,b"], ["ünï"], ['q"u', "vip"]];
      try {
        await Promise.all(
          clients.map(async (client, w) => {
            const name = `worker ${w}`;
            for (let t = 0; t < 30; t++) {
              await client.query("begin");
              // Each worker changes only its own leads: no row of the table is shared, so any wait
              // would be on the counters.
              const own = `company_id = $1 and id in (
                select id from leads where company_id = $1 and name = '${name}' order by random() limit 2)`;
              switch (pick(["insert", "insert", "stage", "archive", "tags", "delete"] as const)) {
                case "insert":
                  await insertLeads(
                    client,
                    companyId,
                    [
                      { stage: pick(LEAD_STAGES), tags: pick(TAG_SETS) },
                      { stage: pick(LEAD_STAGES), tags: pick(TAG_SETS) },
                    ],
                    name,
                  );
                  break;
                case "tags":
                  await client.query(`update leads set tags = tags || $2::text[] where ${own}`, [
                    companyId,
                    pick(TAG_SETS),
                  ]);
                  break;
                case "stage":
                  await client.query(`update leads set stage = $2 where ${own}`, [
                    companyId,
                    pick(LEAD_STAGES),
                  ]);
                  break;
                case "archive":
                  await client.query(`update leads set archived = not archived where ${own}`, [companyId]);
                  break;
                case "delete":
                  await client.query(`delete from leads where ${own}`, [companyId]);
                  break;
              }
              if (pick([true, false, false, false])) {
                await client.query("select list_counts_compact($1, $2)", [
                  companyId,
                  pick(["leads", "lead_tags"]),
                ]);
              }
              await client.query(pick(["commit", "commit", "commit", "rollback"]));
            }
          }),
        );
        await expectExact(db, leads, tenant);
        await expectExact(db, modelOf("lead_tags"), tenant);
        // At most one row per tuple and concurrent writer is left (six workers).
        const perTuple = (
          await db.execute<{
            n: number;
          }>(sql`select count(*)::int as n from list_counts where company_id = ${companyId}
            and entity = 'lead_tags' group by flag, key1, key2 order by 1 desc limit 1`)
        ).rows;
        expect(perTuple[0]?.n ?? 0).toBeLessThanOrEqual(6);
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
    });
  }
});

describe(`list counters and TRUNCATE (${testEngine()})`, () => {
  it("TRUNCATE of a table clears its counters, and the bench generator's truncate still works", async () => {
    const own = await createTestDatabase();
    try {
      const db = own.db;
      const fill = async () => {
        const tenants: [ListModel, Tenant][] = [];
        for (const model of models) {
          const tenant = await newTenant(db, model);
          await apply(db, model, tenant, {
            kind: "insert",
            rows: fc.sample(model.dimensions, { numRuns: 20, seed: 3 }),
          });
          tenants.push([model, tenant]);
        }
        return tenants;
      };
      const tenants = await fill();
      const rowsOf = async (entity: ListCountEntity) =>
        (
          await db.execute<{ n: number }>(
            sql`select count(*)::int as n from list_counts where entity = ${entity}`,
          )
        ).rows[0]?.n;
      await db.execute(sql`truncate pins cascade`);
      expect(await rowsOf("pins")).toBe(0);
      await db.execute(sql`truncate jobs cascade`);
      expect(await rowsOf("jobs")).toBe(0);
      expect(await rowsOf("job_days")).toBe(0);
      for (const [model, tenant] of tenants) await expectExact(db, model, tenant);
      // The counted tables (and what references them), not companies: list_counts references
      // companies, so truncating those would empty it by cascade, not by the triggers.
      await db.execute(sql`truncate leads, customers, service_plans, jobs, pins cascade`);
      expect(
        (await db.execute<{ n: number }>(sql`select count(*)::int as n from list_counts`)).rows[0]?.n,
      ).toBe(0);
      for (const [model, tenant] of await fill()) await expectExact(db, model, tenant);
    } finally {
      await own.close();
    }
  });
});

describe(`migration 0006 on ${testEngine()}`, () => {
  it("counts the rows that exist before it, one counter row per tuple", async () => {
    const own = await createEmptyTestDatabase();
    try {
      await migrateUpTo(own, "0006_list_counts");
      const db = own.db;
      const tenants: [ListModel, Tenant][] = [];
      for (const model of models) {
        for (let i = 0; i < 2; i++) {
          const tenant = await newTenant(db, model);
          const rows = fc.sample(model.dimensions, { numRuns: 40, seed: i });
          await apply(db, model, tenant, { kind: "insert", rows });
          await apply(db, model, tenant, { kind: "delete", offset: 3, limit: 5 });
          tenants.push([model, tenant]);
        }
      }
      await own.migrate();
      for (const [model, tenant] of tenants) {
        await expectExact(db, model, tenant);
        const tuples = (await db.execute(model.sourceTuples(tenant.companyId))).rows.length;
        expect(await counterRows(db, tenant.companyId, model.entity)).toBe(tuples);
      }
    } finally {
      await own.close();
    }
  });
});

describe(`migration 0007 on ${testEngine()}`, () => {
  it("counts the tagged records that exist before it, one counter row per tag tuple", async () => {
    const own = await createEmptyTestDatabase();
    try {
      await migrateUpTo(own, "0007_tag_set_counts");
      const db = own.db;
      const tenants: [ListModel, Tenant][] = [];
      for (const entity of ["lead_tags", "customer_tags"] as const) {
        const model = modelOf(entity);
        for (let i = 0; i < 2; i++) {
          const tenant = await newTenant(db, model);
          const rows = fc.sample(model.dimensions, { numRuns: 40, seed: i });
          await apply(db, model, tenant, { kind: "insert", rows });
          await apply(db, model, tenant, {
            kind: "update",
            offset: 2,
            limit: 4,
            set: { tags: ["vip", "a,b"] },
          });
          await apply(db, model, tenant, { kind: "delete", offset: 3, limit: 5 });
          tenants.push([model, tenant]);
        }
      }
      const tagRows = async () =>
        (
          await db.execute<{ n: number }>(
            sql`select count(*)::int as n from list_counts where entity in ('lead_tags', 'customer_tags')`,
          )
        ).rows[0]?.n;
      expect(await tagRows()).toBe(0);
      await own.migrate();
      expect(await tagRows()).toBeGreaterThan(0);
      for (const [model, tenant] of tenants) {
        await expectExact(db, model, tenant);
        await expectExact(db, modelOf(model.table === "leads" ? "leads" : "customers"), tenant);
        const tuples = (await db.execute(model.sourceTuples(tenant.companyId))).rows.length;
        expect(await counterRows(db, tenant.companyId, model.entity)).toBe(tuples);
      }
      // Writes after it keep them exact.
      for (const [model, tenant] of tenants) {
        await apply(db, model, tenant, { kind: "update", offset: 0, limit: 6, set: { tags: ["vip"] } });
        await apply(db, model, tenant, { kind: "delete", offset: 1, limit: 2 });
        await expectExact(db, model, tenant);
      }
    } finally {
      await own.close();
    }
  });
});

describe(`migration 0008 on ${testEngine()}`, () => {
  it("counts the jobs with a service date that exist before it, one counter row per day tuple", async () => {
    const own = await createEmptyTestDatabase();
    try {
      await migrateUpTo(own, "0008_job_day_counts");
      const db = own.db;
      const model = modelOf("job_days");
      const tenants: Tenant[] = [];
      for (let i = 0; i < 2; i++) {
        const tenant = await newTenant(db, model);
        await apply(db, model, tenant, {
          kind: "insert",
          rows: fc.sample(model.dimensions, { numRuns: 40, seed: i }),
        });
        await apply(db, model, tenant, {
          kind: "update",
          offset: 2,
          limit: 4,
          set: { service_date: "2026-03-02T12:00:00Z" },
        });
        await apply(db, model, tenant, { kind: "delete", offset: 3, limit: 5 });
        tenants.push(tenant);
      }
      const dayRows = async () =>
        (
          await db.execute<{ n: number }>(
            sql`select count(*)::int as n from list_counts where entity = 'job_days'`,
          )
        ).rows[0]?.n;
      expect(await dayRows()).toBe(0);
      await own.migrate();
      expect(await dayRows()).toBeGreaterThan(0);
      for (const tenant of tenants) {
        await expectExact(db, model, tenant);
        await expectExact(db, modelOf("jobs"), tenant);
        const tuples = (await db.execute(model.sourceTuples(tenant.companyId))).rows.length;
        expect(await counterRows(db, tenant.companyId, "job_days")).toBe(tuples);
      }
      // Writes after it keep them exact.
      for (const tenant of tenants) {
        await apply(db, model, tenant, {
          kind: "update",
          offset: 0,
          limit: 6,
          set: { service_date: "2026-03-01T00:00:00Z", status: "Completed" },
        });
        await apply(db, model, tenant, { kind: "delete", offset: 1, limit: 2 });
        await expectExact(db, model, tenant);
      }
    } finally {
      await own.close();
    }
  });
});

describe(`migration 0009 on ${testEngine()}`, () => {
  it("folds the tag-set and day counter rows that the functions before it wrote", async () => {
    const own = await createEmptyTestDatabase();
    try {
      await migrateUpTo(own, "0009_list_counts_fold");
      const db = own.db;
      const lists: { entity: "lead_tags" | "customer_tags" | "job_days"; set: Row }[] = [
        { entity: "lead_tags", set: { tags: ["vip", "a,b"] } },
        { entity: "customer_tags", set: { tags: ["vip"] } },
        { entity: "job_days", set: { service_date: "2026-03-02T12:00:00Z", status: "Completed" } },
      ];
      const written: [(typeof lists)[number], Tenant][] = [];
      for (const [i, list] of lists.entries()) {
        const model = modelOf(list.entity);
        const tenant = await newTenant(db, model);
        await apply(db, model, tenant, {
          kind: "insert",
          rows: fc.sample(model.dimensions, { numRuns: 40, seed: i }),
        });
        written.push([list, tenant]);
      }
      await own.migrate();
      // Writes after it touch tuples whose rows 0007's and 0008's functions wrote: each touched
      // tuple is folded into one row again, and every total stays exact.
      for (const [i, [{ entity, set }, tenant]] of written.entries()) {
        const model = modelOf(entity);
        await apply(db, model, tenant, {
          kind: "insert",
          rows: fc.sample(model.dimensions, { numRuns: 40, seed: i }),
        });
        await apply(db, model, tenant, { kind: "update", offset: 2, limit: 6, set });
        await apply(db, model, tenant, { kind: "delete", offset: 1, limit: 3 });
        await expectExact(db, model, tenant);
        const tuples = (await db.execute(model.sourceTuples(tenant.companyId))).rows.length;
        expect(await counterRows(db, tenant.companyId, entity)).toBe(tuples);
      }
    } finally {
      await own.close();
    }
  });
});

/** A new empty database (PGlite in memory, or a new database on the test server). */

import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkApiKeyAndCountRequest } from "@/lib/auth/api-keys";
import { generateApiKey, hashApiKey, verifyPassword } from "@/lib/auth/secrets";
import { apiKeys, customers, jobs, leads, users } from "@/lib/db/schema";
import { upsertCustomer } from "@/lib/domain/customers";
import { upsertLead } from "@/lib/domain/leads";
import { upsertCustomerBodySchema } from "@/lib/schemas/customers";
import { upsertLeadBodySchema } from "@/lib/schemas/leads";
import { createCompany, testKeyPrincipal } from "@/lib/testing/factories";
import { createApiKey } from "@/lib/domain/api-keys/create-api-key";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { isoUtc } from "@/lib/domain/reports/sql";
import type { ImportDocument } from "./format";
import { importDocument } from "./import-document";
import { formatProblem, ImportRefusedError } from "./problems";
import { snapshotTables } from "./snapshot";

const database = setupTestDatabase();

const unique = () => randomBytes(4).toString("hex");

/** A small, complete document for one fresh company (ids unique per call). */
function sampleDocument() {
  const s = unique();
  const co = `co_${s}`;
  const admin = `usr_admin_${s}`;
  const tech = `usr_tech_${s}`;
  const key = generateApiKey();
  const doc = {
    companies: [{ id: co, name: `Company ${s}`, created_at: "2026-01-01T00:00:00Z" }],
    users: [
      {
        id: admin,
        company_id: co,
        name: "Ada Admin",
        email: `admin-${s}@example.test`,
        role: "admin",
        password: "correct horse",
      },
      { id: tech, company_id: co, name: "Tom Tech", email: `tech-${s}@example.test`, role: "technician" },
    ],
    api_keys: [
      { company_id: co, name: "integration", key, scopes: ["leads:read", "jobs:read"], daily_limit: 50 },
    ],
    pin_types: [{ id: `pt_${s}`, company_id: co, label: "Interested", color: "#22aa44" }],
    pins: [
      {
        id: `pin_${s}`,
        company_id: co,
        pin_type_id: `pt_${s}`,
        created_by: tech,
        location: [30.27, -97.74],
        created_at: "2026-02-01T10:00:00Z",
      },
    ],
    customers: [
      {
        id: `cus_${s}`,
        company_id: co,
        first_name: "Carla",
        last_name: "Cruz",
        email: " Carla@Example.TEST ",
        phone: "+1 (512) 555-0101",
        property_street1: "1 Congress Ave",
        property_city: "Austin",
        billing_same_as_property: true,
        tags: ["vip"],
        created_at: "2026-01-05T00:00:00Z",
        is_auto_pay: true,
      },
    ],
    leads: [
      {
        id: `lead_${s}`,
        company_id: co,
        name: "Larry Lead",
        phone: "512.555.0199",
        stage: "new",
        priority: "high",
        projected_value: 1200.5,
        tags: ["spring"],
        assigned_to: admin,
        created_at: "2026-03-01T00:00:00Z",
        location: [30.3, -97.7],
      },
    ],
    service_plans: [
      {
        id: `plan_${s}`,
        company_id: co,
        customer_id: `cus_${s}`,
        sold_by: admin,
        frequency: "Custom",
        custom_frequency_label: "Every 5 weeks",
        total_visits: 10,
        price_per_visit: 89,
        start_date: "2026-01-10",
        created_at: "2026-01-10T00:00:00Z",
      },
    ],
    jobs: [
      {
        id: `job_${s}`,
        company_id: co,
        customer_id: `cus_${s}`,
        service_plan_id: `plan_${s}`,
        status: "Completed",
        created_at: "2026-01-11T00:00:00Z",
        assigned_to: tech,
        crew: [admin, tech],
        visits: [
          { start: "2026-01-20T15:00:00Z", end: "2026-01-20T16:00:00Z" },
          { start: "2026-01-15T15:00:00Z" },
        ],
        line_items: [
          { id: `li_${s}`, title: "Treatment", description: "Perimeter", total_price: 89 },
          { title: "Extra", total_price: 11 },
        ],
        payments: [
          {
            id: `pay_${s}`,
            amount: 100,
            payment_date: "2026-01-21",
            payment_method: "card",
            payment_type: "payment",
            status: "succeeded",
          },
          { amount: 10, payment_method: "card", payment_type: "refund", status: "pending" },
        ],
      },
    ],
  } satisfies ImportDocument;
  return { doc, co, admin, tech, key, s };
}

async function refused(input: unknown): Promise<string[]> {
  try {
    await importDocument(database.db, input);
  } catch (error) {
    if (error instanceof ImportRefusedError) return error.problems.map(formatProblem);
    throw error;
  }
  throw new Error("the import was expected to be refused");
}

async function rowCounts(): Promise<Record<string, number>> {
  const rows = (
    await database.db.execute<{
      t: string;
      n: number;
    }>(sql`select 'companies' as t, count(*)::int as n from companies
        union all select 'users', count(*)::int from users
        union all select 'api_keys', count(*)::int from api_keys
        union all select 'leads', count(*)::int from leads
        union all select 'customers', count(*)::int from customers
        union all select 'jobs', count(*)::int from jobs
        union all select 'job_visits', count(*)::int from job_visits
        union all select 'pins', count(*)::int from pins`)
  ).rows;
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
}

describe(`importDocument on ${testEngine()}`, () => {
  it("writes every kind of record with normalized columns, hashes and derived numbers", async () => {
    const { doc, co, admin, key, s } = sampleDocument();
    const result = await importDocument(database.db, doc);
    expect(result.counts.leads).toEqual({ total: 1, inserted: 1, updated: 0, unchanged: 0 });
    expect(result.counts.job_children).toBe(2 + 2 + 2 + 2);

    const [customer] = (
      await database.db.execute<Record<string, unknown>>(
        sql`select email_normalized, phone_normalized, billing_street1, billing_city from customers where company_id = ${co}`,
      )
    ).rows;
    expect(customer).toEqual({
      email_normalized: "carla@example.test",
      phone_normalized: "5125550101",
      billing_street1: "1 Congress Ave",
      billing_city: "Austin",
    });
    const [lead] = await database.db.select().from(leads).where(eq(leads.companyId, co));
    expect(lead).toMatchObject({ phoneNormalized: "5125550199", projectedValue: 1200.5, latitude: 30.3 });

    const [job] = await database.db.select().from(jobs).where(eq(jobs.companyId, co));
    expect(job!.serviceDate?.toISOString()).toBe("2026-01-15T15:00:00.000Z");

    const [user] = await database.db
      .select()
      .from(users)
      .where(and(eq(users.companyId, co), eq(users.id, admin)));
    expect(user!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword("correct horse", user!.passwordHash)).toBe(true);

    // The key is stored only as its hash, and works.
    const [stored] = await database.db.select().from(apiKeys).where(eq(apiKeys.companyId, co));
    expect(stored!.keyHash).toBe(hashApiKey(key));
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(stored!.prefix).toBe(key.slice(0, 16));
    expect(stored!.dailyLimit).toBe(50);
    const check = await checkApiKeyAndCountRequest(database.db, key);
    expect(check?.principal).toMatchObject({ companyId: co, scopes: ["leads:read", "jobs:read"] });
    expect(s).toBeTruthy();
  });

  it("lists every problem by its path and writes nothing", async () => {
    const { doc, co } = sampleDocument();
    const other = sampleDocument();
    await importDocument(database.db, other.doc);
    const bad = structuredClone(doc) as unknown as Record<string, Record<string, unknown>[]>;
    bad.leads![0]!.projected_value = "lots"; // wrong type
    bad.leads![0]!.priority = "urgent"; // bad enum
    (bad.jobs![0]!.visits as Record<string, unknown>[])[0]!.start = "next tuesday"; // bad date
    bad.pins![0]!.created_by = "usr_nobody"; // missing reference
    bad.service_plans![0]!.sold_by = other.admin; // another company's user
    bad.customers!.push({ company_id: co, first_name: 42 });
    bad.customers!.push({ company_id: "co_ghost", last_name: ["x"] });
    bad.lead = [];
    const problems = await refused(bad);
    expect(problems).toEqual([
      "lead: unknown section (expected companies, users, api_keys, pin_types, pins, customers, leads, service_plans, jobs)",
      'pins[0].created_by: user "usr_nobody" not found',
      "customers[1].first_name: expected a string, got a number",
      "customers[2].last_name: expected a string, got an array",
      'customers[2].company_id: company "co_ghost" not found',
      "leads[0].priority: must be one of low, medium, high",
      "leads[0].projected_value: expected a number, got a string",
      `service_plans[0].sold_by: user "${other.admin}" belongs to another company`,
      "jobs[0].visits[0].start: not a date",
    ]);
    const [count] = (
      await database.db.execute<{ n: number }>(sql`select count(*)::int as n from companies where id = ${co}`)
    ).rows;
    expect(Number(count!.n)).toBe(0);
  });

  it("reports required fields, duplicates and references to the database", async () => {
    const first = sampleDocument();
    await importDocument(database.db, first.doc);
    const problems = await refused({
      users: [
        { id: "u1", company_id: first.co, name: "No Role", email: "x" },
        { id: "u2", company_id: first.co, name: "Dup", email: first.doc.users[0]!.email, role: "manager" },
      ],
      leads: [
        { id: "l1", company_id: first.co, name: "A", assigned_to: first.tech },
        { id: "l1", company_id: first.co, name: "B" },
        { id: "l2", company_id: "co_missing", name: "C" },
        { id: "l3", company_id: first.co },
      ],
      jobs: [
        {
          id: "j1",
          company_id: first.co,
          customer_id: `cus_${first.s}`,
          status: "Done",
          visits: [{ end: "2026-01-01" }],
        },
      ],
    });
    expect(problems).toEqual([
      "users[0].email: not an email address",
      "users[0].role: required",
      `users[1].email: already used by another user ("${first.admin}")`,
      "leads[1].id: duplicate of leads[0]",
      'leads[2].company_id: company "co_missing" not found',
      "leads[3].name: a lead needs a name, email or phone",
      "jobs[0].status: must be one of Unscheduled, Scheduled, In Progress, Completed, Cancelled",
      "jobs[0].visits[0].start: required",
    ]);
  });

  it("is all-or-nothing: one bad record among many valid ones writes nothing", async () => {
    const { doc, co } = sampleDocument();
    const many = Array.from({ length: 3000 }, (_, i) => ({
      id: `bulk_${i}`,
      company_id: co,
      name: `Lead ${i}`,
    }));
    const before = await rowCounts();
    const problems = await refused({
      ...doc,
      leads: [...many, { id: "bad", company_id: co, name: "Bad", follow_up_date: "2026-02-30" }],
    });
    expect(problems).toEqual(["leads[3000].follow_up_date: not a date"]);
    expect(await rowCounts()).toEqual(before);
  });

  it("writes a large section slice by slice; a problem in a later slice still refuses the file", async () => {
    const { doc, co, admin } = sampleDocument();
    const many = Array.from({ length: 11_000 }, (_, i) => ({
      id: `slice_${i}`,
      company_id: co,
      name: `Lead ${i}`,
      ...(i % 2 ? { assigned_to: admin } : {}),
    }));
    const before = await rowCounts();
    // Both come after the first slices were written; the second is looked up in the database.
    const problems = await refused({
      ...doc,
      leads: [
        ...many,
        { ...many[3]!, name: "Again" },
        { company_id: co, name: "Late", assigned_to: "usr_nobody" },
      ],
    });
    expect(problems).toEqual([
      "leads[11000].id: duplicate of leads[3]",
      'leads[11001].assigned_to: user "usr_nobody" not found',
    ]);
    expect(await rowCounts()).toEqual(before);

    const result = await importDocument(database.db, { ...doc, leads: many });
    expect(result.counts.leads).toEqual({ total: 11_000, inserted: 11_000, updated: 0, unchanged: 0 });
    expect(result.records).toBe(9 + 11_000 + 8); // one of each other kind, two users; the job's children
    const again = await importDocument(database.db, { ...doc, leads: many });
    expect(again.counts.leads).toEqual({ total: 11_000, inserted: 0, updated: 0, unchanged: 11_000 });
  });

  it("lists the file's problems even when the database refused a write before they were found", async () => {
    const { doc, s } = sampleDocument();
    await database.db.execute(
      sql.raw(`create or replace function import_refuse_lead() returns trigger language plpgsql as $$
        begin
          if new.id = 'lead_explode_${s}' then raise exception 'lead refused by test trigger'; end if;
          return new;
        end $$`),
    );
    await database.db.execute(
      sql.raw(`create trigger import_refuse_lead_${s} before insert on leads
        for each row execute function import_refuse_lead()`),
    );
    try {
      const before = await rowCounts();
      const file = structuredClone(doc);
      file.leads[0]!.id = `lead_explode_${s}`;
      // Checked after the leads were written (and refused): a look-up in the database.
      const bad = structuredClone(file);
      bad.jobs[0]!.customer_id = "cus_nobody";
      expect(await refused(bad)).toEqual(['jobs[0].customer_id: customer "cus_nobody" not found']);
      expect(await rowCounts()).toEqual(before);

      const error = await importDocument(database.db, file).then(
        () => null,
        (e: unknown) => e as Error & { cause?: Error },
      );
      expect(error?.cause?.message ?? error?.message).toMatch(/lead refused by test trigger/);
      expect(await rowCounts()).toEqual(before);
    } finally {
      await database.db.execute(sql.raw(`drop trigger import_refuse_lead_${s} on leads`));
    }
  });

  it("is idempotent: importing the same file twice leaves identical data", async () => {
    const { doc, co } = sampleDocument();
    await importDocument(database.db, doc);
    const first = await snapshotTables(database.db, { companyIds: [co] });
    const again = await importDocument(database.db, JSON.parse(JSON.stringify(doc)));
    expect(await snapshotTables(database.db, { companyIds: [co] })).toEqual(first);
    for (const section of [
      "companies",
      "users",
      "api_keys",
      "pins",
      "customers",
      "leads",
      "service_plans",
      "jobs",
    ] as const)
      expect(again.counts[section], section).toMatchObject({ inserted: 0, updated: 0 });
    expect(first.job_visits).toHaveLength(2);
    expect(first.job_line_items).toHaveLength(2);
  });

  it("gives a new pin its first visit and counters; a later import keeps the visits made since", async () => {
    const { doc, co, tech, s } = sampleDocument();
    await importDocument(database.db, doc);
    const pinState = async () =>
      (
        await database.db.execute<Record<string, unknown>>(
          sql`select p.visit_count, ${isoUtc(sql`p.last_visit_at`)} as last_visit_at,
            ${isoUtc(sql`p.updated_at`)} as updated_at,
            (select json_agg(json_build_object('at', ${isoUtc(sql`v.at`)}, 'by', v.user_id, 'type', v.pin_type_id)
              order by v.at) from pin_visits v where v.company_id = p.company_id and v.pin_id = p.id) as visits
          from pins p where p.company_id = ${co}`,
        )
      ).rows;
    const at = "2026-02-01T10:00:00.000Z";
    expect(await pinState()).toEqual([
      {
        visit_count: 1,
        last_visit_at: at,
        updated_at: at,
        visits: [{ at, by: tech, type: `pt_${s}` }],
      },
    ]);
    // A knock in the field since: the import of the same file leaves it and the counters alone.
    await database.db.execute(sql`with u as (
        update pins set visit_count = 2, last_visit_at = '2026-03-01T00:00:00Z', updated_at = '2026-03-01T00:00:00Z'
        where company_id = ${co} returning company_id, id, created_by, pin_type_id)
      insert into pin_visits (company_id, pin_id, at, user_id, pin_type_id)
      select company_id, id, '2026-03-01T00:00:00Z', created_by, pin_type_id from u`);
    const knocked = await pinState();
    const again = await importDocument(database.db, JSON.parse(JSON.stringify(doc)));
    expect(again.counts.pins).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
    expect(await pinState()).toEqual(knocked);
    expect(knocked[0]).toMatchObject({ visit_count: 2 });
  });

  it("updates changed records and replaces a job's children", async () => {
    const { doc, co, s } = sampleDocument();
    await importDocument(database.db, doc);
    const changed = structuredClone(doc);
    changed.leads[0]!.name = "Larry Renamed";
    changed.jobs[0]!.visits = [{ start: "2026-04-01T09:00:00Z" }];
    changed.jobs[0]!.payments = [];
    const result = await importDocument(database.db, changed);
    expect(result.counts.leads).toEqual({ total: 1, inserted: 0, updated: 1, unchanged: 0 });
    expect(result.counts.customers).toMatchObject({ unchanged: 1 });
    // One import entry per record written: created, then updated for the changed lead only.
    const entries = await database.db.execute<{ record_type: string; type: string; actor_kind: string }>(
      sql`select record_type, type, actor_kind, actor_id from record_activity where company_id = ${co}
        order by record_type, id`,
    );
    expect(entries.rows).toEqual([
      { record_type: "customer", type: "created", actor_kind: "import", actor_id: null },
      { record_type: "lead", type: "created", actor_kind: "import", actor_id: null },
      { record_type: "lead", type: "updated", actor_kind: "import", actor_id: null },
    ]);
    const snap = await snapshotTables(database.db, { companyIds: [co] });
    expect(snap.leads[0]!.name).toBe("Larry Renamed");
    expect(snap.job_visits).toHaveLength(1);
    expect(snap.job_payments).toHaveLength(0);
    expect(snap.job_line_items.map((li) => li.id)).toEqual([`job_${s}:li1`, `li_${s}`]);
    const [job] = await database.db.select().from(jobs).where(eq(jobs.companyId, co));
    expect(job!.serviceDate?.toISOString()).toBe("2026-04-01T09:00:00.000Z");
  });

  it("records an archive or unarchive by import as archived and unarchived, as the archive endpoints do", async () => {
    const { doc, co } = sampleDocument();
    await importDocument(database.db, doc);
    const archived = structuredClone(doc);
    Object.assign(archived.leads[0]!, { archived: true });
    Object.assign(archived.customers[0]!, { archived: true });
    await importDocument(database.db, archived);
    const unarchived = structuredClone(archived);
    Object.assign(unarchived.leads[0]!, { archived: false });
    await importDocument(database.db, unarchived);
    const entries = await database.db.execute<{ record_type: string; type: string }>(
      sql`select record_type, type from record_activity where company_id = ${co} order by record_type, id`,
    );
    expect(entries.rows).toEqual([
      { record_type: "customer", type: "created" },
      { record_type: "customer", type: "archived" },
      { record_type: "lead", type: "created" },
      { record_type: "lead", type: "archived" },
      { record_type: "lead", type: "unarchived" },
    ]);
  });

  it("gives records without an id a new one (such records are created again by each import)", async () => {
    const { doc, co } = sampleDocument();
    await importDocument(database.db, { companies: doc.companies });
    const file = { leads: [{ company_id: co, name: "Anonymous", email: "anon@example.test" }] };
    await importDocument(database.db, file);
    await importDocument(database.db, file);
    const rows = await database.db.select({ id: leads.id }).from(leads).where(eq(leads.companyId, co));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.id).toMatch(/^lead_[0-9a-z]{26}$/);
  });

  it("refuses a key that another company already uses", async () => {
    const a = sampleDocument();
    const b = sampleDocument();
    await importDocument(database.db, a.doc);
    const problems = await refused({ ...b.doc, api_keys: [{ ...b.doc.api_keys[0], key: a.key }] });
    expect(problems).toEqual(["api_keys[0].key: already in use by another company"]);
  });

  it("rolls back everything when the database refuses a row in the middle of the write", async () => {
    const { doc, co, s } = sampleDocument();
    // A trigger that fails on one payment: written after companies, users, leads and jobs.
    await database.db.execute(
      sql.raw(`create or replace function h1_refuse_payment() returns trigger language plpgsql as $$
        begin
          if new.id = 'pay_explode_${s}' then raise exception 'refused by test trigger'; end if;
          return new;
        end $$`),
    );
    await database.db.execute(
      sql.raw(`create trigger h1_refuse_payment_${s} before insert on job_payments
        for each row execute function h1_refuse_payment()`),
    );
    try {
      const before = await rowCounts();
      const file = structuredClone(doc);
      file.jobs[0]!.payments[0]!.id = `pay_explode_${s}`;
      const error = await importDocument(database.db, file).then(
        () => null,
        (e: unknown) => e as Error & { cause?: Error },
      );
      expect(error?.cause?.message ?? error?.message).toMatch(/refused by test trigger/);
      expect(await rowCounts()).toEqual(before);
      const [company] = (
        await database.db.execute<{ n: number }>(
          sql`select count(*)::int as n from companies where id = ${co}`,
        )
      ).rows;
      expect(Number(company!.n)).toBe(0);
    } finally {
      await database.db.execute(sql.raw(`drop trigger h1_refuse_payment_${s} on job_payments`));
    }
  });

  it("refuses text with a NUL character, naming where it is", async () => {
    const { doc } = sampleDocument();
    const file = structuredClone(doc);
    file.leads[0]!.tags = ["ok", "bad\u0000tag"];
    expect(await refused(file)).toEqual(["leads[0].tags[1]: must not contain the NUL character (\\u0000)"]);
  });

  it("updates a key that apikey:create made when a file brings the same key", async () => {
    const { doc, co } = sampleDocument();
    await importDocument(database.db, { companies: doc.companies });
    const created = await createApiKey({
      db: database.db,
      companyId: co,
      name: "made by hand",
      scopes: ["pins:read"],
    });
    await importDocument(database.db, {
      api_keys: [
        { company_id: co, name: "renamed", key: created.key, scopes: ["leads:read"], revoked: true },
      ],
    });
    const rows = await database.db.select().from(apiKeys).where(eq(apiKeys.companyId, co));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: created.apiKey.id, name: "renamed", scopes: ["leads:read"] });
    expect(rows[0]!.revokedAt).toBeInstanceOf(Date);
    expect(await checkApiKeyAndCountRequest(database.db, created.key)).toBeNull();
  });
});

describe(`the import and create-or-update (${testEngine()})`, () => {
  it("store a lead and a customer alike from the same fields", async () => {
    const s = unique();
    const customer = {
      first_name: "Cy",
      last_name: "Cole",
      email: `Cy-${s}@Example.test`,
      phone: "+1 (512) 555-0101",
      property_street1: "1 Main St",
      property_city: "Austin",
      billing_street1: "PO Box 9",
      billing_city: "Dallas",
      billing_same_as_property: true,
      service_type: "lawn",
    };
    const lead = {
      name: "Lee",
      email: `Lee-${s}@Example.test`,
      phone: "512.555.0102",
      property_street1: "2 Oak Ave",
      priority: "high" as const,
      projected_value: 1200.5,
      stage: "New",
      notes: "call back",
      follow_up_date: "2026-03-01T09:00:00Z",
    };
    const imported = { company: `co_imp_${s}`, customer: `cus_imp_${s}`, lead: `lead_imp_${s}` };
    await importDocument(database.db, {
      companies: [{ id: imported.company, name: "Imported" }],
      customers: [{ id: imported.customer, company_id: imported.company, ...customer }],
      leads: [{ id: imported.lead, company_id: imported.company, ...lead, lead_source: "web" }],
    });
    const company = await createCompany(database.db);
    const ctx = { db: database.db, companyId: company.id, principal: testKeyPrincipal(company.id) };
    const created = {
      customer: (await upsertCustomer({ ctx, input: upsertCustomerBodySchema.parse(customer) })).customer.id,
      lead: (
        await upsertLead({
          ctx,
          input: upsertLeadBodySchema.parse({
            ...lead,
            property_street1: undefined,
            address_street1: lead.property_street1,
            source: "web",
          }),
        })
      ).lead.id,
    };
    // Every column but the keys and the times of writing.
    const stored = async <T extends typeof customers | typeof leads>(
      table: T,
      companyId: string,
      id: string,
    ) => {
      const [row] = await database.db
        .select()
        .from(table as typeof customers)
        .where(and(eq(table.companyId, companyId), eq(table.id, id)));
      const rest: Record<string, unknown> = { ...row };
      for (const key of ["companyId", "id", "createdAt", "updatedAt", "changeXid", "changeSeq"])
        delete rest[key];
      return rest;
    };
    const importedCustomer = await stored(customers, imported.company, imported.customer);
    expect(importedCustomer).toMatchObject({ billingStreet1: "1 Main St", billingCity: "Austin" });
    expect(await stored(customers, company.id, created.customer)).toEqual(importedCustomer);
    expect(await stored(leads, company.id, created.lead)).toEqual(
      await stored(leads, imported.company, imported.lead),
    );
  });
});

import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as upsertCustomerRoute } from "@/app/api/customers/route";
import { POST as archiveCustomerRoute } from "@/app/api/customers/[id]/archive/route";
import { POST as customerNotesRoute } from "@/app/api/customers/[id]/notes/route";
import { POST as unarchiveCustomerRoute } from "@/app/api/customers/[id]/unarchive/route";
import { POST as bulkCustomersRoute } from "@/app/api/customers/bulk/route";
import { POST as undoCustomersRoute } from "@/app/api/customers/bulk/[id]/undo/route";
import { POST as upsertLeadRoute } from "@/app/api/leads/route";
import { POST as archiveLeadRoute } from "@/app/api/leads/[id]/archive/route";
import { POST as convertRoute } from "@/app/api/leads/[id]/convert/route";
import { POST as leadNotesRoute } from "@/app/api/leads/[id]/notes/route";
import { POST as unarchiveLeadRoute } from "@/app/api/leads/[id]/unarchive/route";
import { POST as bulkLeadsRoute } from "@/app/api/leads/bulk/route";
import { POST as undoLeadsRoute } from "@/app/api/leads/bulk/[id]/undo/route";
import { importDocument } from "@/lib/import";
import { errorChain } from "@/lib/values/error-chain";
import { apiRequest, call, createApiKey, createCompany } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

/*
 * extensions.md E3: a change of a lead or customer and its activity entry are written in one
 * transaction. Each writer is run with the entry's insert failing (a trigger raising for the
 * tenant) and must leave every row of the tenant as it was.
 */

const database = setupTestDatabase();

type Body = Record<string, unknown>;
type Route = Parameters<typeof call>[0];

/** Tables a request changes whatever it does (sessions, key use, quota): left out of the comparison. */
const PER_REQUEST_TABLES = ["sessions", "api_keys", "api_key_usage", "sign_in_attempts"];

/** Every row of every table holding the company's data, as comparable text. */
async function tenantRows(companyId: string): Promise<Record<string, string[]>> {
  const { rows: tables } = await database.db.execute<{ table: string }>(
    sql`select table_name as table from information_schema.columns
      where table_schema = 'public' and column_name = 'company_id' order by table_name`,
  );
  const out: Record<string, string[]> = {};
  for (const { table } of tables) {
    if (PER_REQUEST_TABLES.includes(table)) continue;
    const { rows } = await database.db.execute<{ row: string }>(
      sql`select row_to_json(t)::text as row from ${sql.identifier(table)} t
        where company_id = ${companyId} order by 1`,
    );
    out[table] = rows.map((r) => r.row);
  }
  const { rows } = await database.db.execute<{ row: string }>(
    sql`select row_to_json(c)::text as row from companies c where id = ${companyId}`,
  );
  out.companies = rows.map((r) => r.row);
  return out;
}

/** Runs `body` with every activity entry of the company failing to insert. */
async function withActivityFailing(companyId: string, body: () => Promise<void>) {
  const name = `fail_activity_${randomBytes(4).toString("hex")}`;
  await database.db.execute(
    sql.raw(`create function ${name}() returns trigger language plpgsql as $$
    begin raise exception 'injected activity failure'; end $$`),
  );
  await database.db.execute(
    sql.raw(`create trigger ${name} before insert on record_activity
    for each row when (new.company_id = '${companyId}') execute function ${name}()`),
  );
  try {
    await body();
  } finally {
    await database.db.execute(sql.raw(`drop trigger ${name} on record_activity`));
    await database.db.execute(sql.raw(`drop function ${name}()`));
  }
}

type Attempt = () => Promise<{ status: number; text: string }>;

/**
 * Each request, with the activity failing, answers a 500 that tells nothing of the failure and
 * writes nothing of the company (the change, its counters, its bulk operation, its entries); with
 * the activity working again, the same requests succeed and do write, so the 500 was the entry's.
 */
async function expectAllOrNothing(companyId: string, attempts: Attempt[]) {
  const before = await tenantRows(companyId);
  await withActivityFailing(companyId, async () => {
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.status, res.text).toBe(500);
      expect(res.text).not.toMatch(/injected|record_activity|insert/i);
    }
  });
  expect(await tenantRows(companyId)).toEqual(before);
  for (const attempt of attempts) {
    const res = await attempt();
    expect(res.status, res.text).toBeLessThan(300);
  }
  expect(await tenantRows(companyId)).not.toEqual(before);
}

async function tenant() {
  const company = await createCompany(database.db);
  const { key } = await createApiKey(database.db, company.id);
  return { companyId: company.id, key };
}

const send = (route: Route, path: string, key: string, body?: unknown, id?: string) =>
  call<Body>(route, apiRequest(path, { key, method: "POST", body }), id ? { id } : {});

/** An import that must fail with the injected error (the database's, wrapped by Drizzle). */
async function expectInjectedFailure(work: Promise<unknown>) {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(errorChain(error).map((e) => String(e.message))).toContainEqual(
    expect.stringContaining("injected activity failure"),
  );
}

async function newLead(key: string, body: Body) {
  const res = await send(upsertLeadRoute, "/leads", key, body);
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function newCustomer(key: string, body: Body) {
  const res = await send(upsertCustomerRoute, "/customers", key, body);
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe(`each writer's change and its activity in one transaction (${testEngine()})`, () => {
  it("customer create-or-update", async () => {
    const t = await tenant();
    const id = await newCustomer(t.key, { first_name: "Cara", phone: "512-555-0100", tags: ["a"] });
    await expectAllOrNothing(t.companyId, [
      () => send(upsertCustomerRoute, "/customers", t.key, { first_name: "New" }),
      () => send(upsertCustomerRoute, "/customers", t.key, { id, first_name: "Changed", tags: ["b"] }),
      // A match by phone: an update of the matched customer.
      () => send(upsertCustomerRoute, "/customers", t.key, { phone: "(512) 555-0100", last_name: "Matched" }),
    ]);
  });

  it("notes on a lead and on a customer", async () => {
    const t = await tenant();
    const lead = await newLead(t.key, { name: "Noted" });
    const customer = await newCustomer(t.key, { first_name: "Noted" });
    await expectAllOrNothing(t.companyId, [
      () => send(leadNotesRoute, `/leads/${lead}/notes`, t.key, { body: "Call back" }, lead),
      () => send(customerNotesRoute, `/customers/${customer}/notes`, t.key, { body: "Gate code" }, customer),
    ]);
  });

  it("archive and unarchive of a customer, unarchive of a lead", async () => {
    const t = await tenant();
    const lead = await newLead(t.key, { name: "Shelved" });
    const shelved = await newCustomer(t.key, { first_name: "Shelved" });
    const active = await newCustomer(t.key, { first_name: "Active" });
    expect((await send(archiveLeadRoute, `/leads/${lead}/archive`, t.key, undefined, lead)).status).toBe(200);
    expect(
      (await send(archiveCustomerRoute, `/customers/${shelved}/archive`, t.key, undefined, shelved)).status,
    ).toBe(200);
    await expectAllOrNothing(t.companyId, [
      () => send(unarchiveLeadRoute, `/leads/${lead}/unarchive`, t.key, undefined, lead),
      () => send(unarchiveCustomerRoute, `/customers/${shelved}/unarchive`, t.key, undefined, shelved),
      () => send(archiveCustomerRoute, `/customers/${active}/archive`, t.key, undefined, active),
    ]);
  });

  it("conversion of a lead to a new customer or to the customer it matches", async () => {
    const t = await tenant();
    const fresh = await newLead(t.key, { name: "Fresh Lead", phone: "512-555-0111", tags: ["x"] });
    await newCustomer(t.key, { first_name: "Known", email: "known@example.test" });
    const matching = await newLead(t.key, { name: "Known Lead", email: "KNOWN@example.test" });
    await expectAllOrNothing(t.companyId, [
      () => send(convertRoute, `/leads/${fresh}/convert`, t.key, undefined, fresh),
      () => send(convertRoute, `/leads/${matching}/convert`, t.key, undefined, matching),
    ]);
  });

  it("bulk changes of leads and of customers", async () => {
    const t = await tenant();
    const leads = [await newLead(t.key, { name: "A", stage: "new" }), await newLead(t.key, { name: "B" })];
    const customers = [
      await newCustomer(t.key, { first_name: "A" }),
      await newCustomer(t.key, { first_name: "B" }),
    ];
    await expectAllOrNothing(t.companyId, [
      () =>
        send(bulkLeadsRoute, "/leads/bulk", t.key, {
          ids: leads,
          action: { type: "set_stage", stage: "quoted" },
        }),
      () => send(bulkLeadsRoute, "/leads/bulk", t.key, { ids: leads, action: { type: "archive" } }),
      () =>
        send(bulkCustomersRoute, "/customers/bulk", t.key, { ids: customers, action: { type: "archive" } }),
    ]);
  });

  it("undo of a bulk change of leads and of customers", async () => {
    const t = await tenant();
    const leads = [await newLead(t.key, { name: "A", stage: "new" }), await newLead(t.key, { name: "B" })];
    const customers = [
      await newCustomer(t.key, { first_name: "A" }),
      await newCustomer(t.key, { first_name: "B" }),
    ];
    const leadBulk = await send(bulkLeadsRoute, "/leads/bulk", t.key, {
      ids: leads,
      action: { type: "set_stage", stage: "quoted" },
    });
    expect(leadBulk.body).toMatchObject({ changed: 2 });
    const customerBulk = await send(bulkCustomersRoute, "/customers/bulk", t.key, {
      ids: customers,
      action: { type: "archive" },
    });
    expect(customerBulk.body).toMatchObject({ changed: 2 });
    const leadUndo = leadBulk.body.id as string;
    const customerUndo = customerBulk.body.id as string;
    await expectAllOrNothing(t.companyId, [
      () => send(undoLeadsRoute, `/leads/bulk/${leadUndo}/undo`, t.key, undefined, leadUndo),
      () => send(undoCustomersRoute, `/customers/bulk/${customerUndo}/undo`, t.key, undefined, customerUndo),
    ]);
  });

  it("an import, of a new company and over an existing one", async () => {
    const s = randomBytes(4).toString("hex");
    const co = `co_${s}`;
    const doc = (leadName: string) => ({
      companies: [{ id: co, name: `Company ${s}`, created_at: "2026-01-01T00:00:00Z" }],
      customers: [
        { id: `cus_${s}`, company_id: co, first_name: "Carla", created_at: "2026-01-05T00:00:00Z" },
      ],
      leads: [{ id: `lead_${s}`, company_id: co, name: leadName, created_at: "2026-03-01T00:00:00Z" }],
    });
    const expectNothingWritten = async (document: ReturnType<typeof doc>) => {
      const before = await tenantRows(co);
      await withActivityFailing(co, () => expectInjectedFailure(importDocument(database.db, document)));
      expect(await tenantRows(co)).toEqual(before);
    };
    await expectNothingWritten(doc("Larry"));
    expect((await tenantRows(co)).companies).toEqual([]);
    await importDocument(database.db, doc("Larry"));
    await expectNothingWritten(doc("Larry Renamed"));
    const { rows } = await database.db.execute<{ name: string }>(
      sql`select name from leads where company_id = ${co}`,
    );
    expect(rows).toEqual([{ name: "Larry" }]);
    // With the activity working again, the same import renames the lead.
    await importDocument(database.db, doc("Larry Renamed"));
    expect((await database.db.execute(sql`select name from leads where company_id = ${co}`)).rows).toEqual([
      { name: "Larry Renamed" },
    ]);
  });
});

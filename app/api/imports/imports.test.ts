import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listRoute, POST as uploadRoute } from "@/app/api/imports/route";
import { DELETE as deleteRoute, GET as getRoute } from "@/app/api/imports/[id]/route";
import { POST as dryRunRoute } from "@/app/api/imports/[id]/dry-run/route";
import { POST as startRoute } from "@/app/api/imports/[id]/start/route";
import { POST as cancelRoute } from "@/app/api/imports/[id]/cancel/route";
import { GET as problemsRoute } from "@/app/api/imports/[id]/problems/route";
import { GET as exportRoute } from "@/app/api/imports/[id]/problems/export/route";
import {
  customers,
  importRows,
  imports,
  leads,
  recordActivity,
  webhookEndpoints,
  webhookEvents,
} from "@/lib/db/schema";
import { createImport, runImport, runImportJob } from "@/lib/domain/imports";
import { ImportCancelledError } from "@/lib/domain/imports/errors";
import { upsertCustomer } from "@/lib/domain/customers/upsert-customer";
import { upsertLead } from "@/lib/domain/leads/upsert-lead";
import { convertRow } from "@/lib/import/csv/convert";
import { ID_PREFIX, newId } from "@/lib/ids";
import type { ImportResponse } from "@/lib/schemas/imports";
import {
  apiRequest,
  call,
  createApiKey,
  createCompany,
  createSessionCookie,
  createUser,
} from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import type { Scope } from "@/lib/values/scopes";

const database = setupTestDatabase();

type Auth = { key?: string; cookie?: string };
type Body = Record<string, unknown>;

/** A company with a manager signed in and an all-scopes key. */
async function tenant() {
  const company = await createCompany(database.db);
  const { key } = await createApiKey(database.db, company.id);
  const manager = await createUser(database.db, company.id, { role: "manager", name: "Mia Manager" });
  const cookie = await createSessionCookie(database.db, manager);
  return { companyId: company.id, key, manager, cookie, auth: { cookie } as Auth };
}

async function keyWith(companyId: string, scopes: Scope[]) {
  return (await createApiKey(database.db, companyId, { scopes })).key;
}

const upload = (auth: Auth, csv: string | Uint8Array, query = "type=leads&file_name=leads.csv") => {
  const request = apiRequest(`/imports?${query}`, { ...auth, method: "POST" });
  const headers = new Headers(request.headers);
  headers.set("content-type", "text/csv");
  return call<ImportResponse & Body>(
    uploadRoute,
    new Request(request.url, { method: "POST", headers, body: csv as BodyInit }),
  );
};
const get = (auth: Auth, id: string) =>
  call<ImportResponse & Body>(getRoute, apiRequest(`/imports/${id}`, auth), { id });
const dryRun = (auth: Auth, id: string, mapping: (string | null)[]) =>
  call<ImportResponse & Body>(
    dryRunRoute,
    apiRequest(`/imports/${id}/dry-run`, { ...auth, body: { mapping } }),
    { id },
  );
const start = (auth: Auth, id: string) =>
  call<ImportResponse & Body>(startRoute, apiRequest(`/imports/${id}/start`, { ...auth, method: "POST" }), {
    id,
  });
const cancel = (auth: Auth, id: string) =>
  call<ImportResponse & Body>(cancelRoute, apiRequest(`/imports/${id}/cancel`, { ...auth, method: "POST" }), {
    id,
  });
const problems = (auth: Auth, id: string, query = "") =>
  call<{ data: Body[]; pagination: { total: number } }>(
    problemsRoute,
    apiRequest(`/imports/${id}/problems${query}`, auth),
    { id },
  );

/** Runs the job the last dry run or start queued, as the worker would. */
async function runQueued(companyId: string, id: string, options: { batchRows?: number } = {}) {
  const [row] = await database.db
    .select({ status: imports.status })
    .from(imports)
    .where(and(eq(imports.companyId, companyId), eq(imports.id, id)));
  await runImportJob(
    database.db,
    { companyId, importId: id, dryRun: row?.status === "checking" },
    { ...options, log: (message) => console.error(message) },
  );
}

/** Dry run (with this mapping), then the import; answers the import at the end. */
async function importFile(
  t: Awaited<ReturnType<typeof tenant>>,
  csv: string,
  mapping: (string | null)[],
  type: "leads" | "customers" = "leads",
) {
  const uploaded = await upload(t.auth, csv, `type=${type}&file_name=${type}.csv`);
  expect(uploaded.status, uploaded.text).toBe(201);
  const id = uploaded.body.id;
  expect((await dryRun(t.auth, id, mapping)).status).toBe(202);
  await runQueued(t.companyId, id);
  const checked = await get(t.auth, id);
  expect(checked.body.status, checked.text).toBe("checked");
  const started = await start(t.auth, id);
  expect(started.status, started.text).toBe(202);
  await runQueued(t.companyId, id);
  return (await get(t.auth, id)).body;
}

async function leadsOf(companyId: string) {
  return database.db
    .select()
    .from(leads)
    .where(eq(leads.companyId, companyId))
    .orderBy(leads.createdAt, leads.id);
}

async function seedLead(companyId: string, values: Partial<typeof leads.$inferInsert>) {
  const id = newId(ID_PREFIX.lead);
  await database.db.insert(leads).values({ companyId, id, ...values });
  return id;
}

const MAPPING = ["id", "name", "email", "phone", "tags", "stage"];
const HEADER = "Lead ID,Full Name,E-mail,Phone Number,Tags,Lead Status";

describe(`CSV import API (${testEngine()})`, () => {
  it("uploads, guesses, counts a dry run, refuses rows with row, column and reason", async () => {
    const t = await tenant();
    const byPhone = await seedLead(t.companyId, {
      name: "Phil Phone",
      phone: "555-010-0001",
      phoneNormalized: "5550100001",
      tags: ["old"],
    });
    const byEmail = await seedLead(t.companyId, {
      name: "Eve Email",
      email: "eve@example.test",
      emailNormalized: "eve@example.test",
    });
    const byId = await seedLead(t.companyId, { name: "Ida Id" });
    const csv = [
      HEADER,
      `,Ann New,,555-020-0002,a;b,Contacted`,
      `,Phil Renamed,,(555) 010-0001,new,`,
      `,,EVE@example.test,,,`,
      `${byId},Ida Updated,,,,`,
      `,Ann Again,,5550200002,c,`,
      `,Bad Email,not-an-email,,,`,
      `lead_unknown,Nobody,,,,`,
    ].join("\r\n");
    const uploaded = await upload(t.auth, csv);
    expect(uploaded.status, uploaded.text).toBe(201);
    expect(uploaded.body).toMatchObject({
      type: "leads",
      file_name: "leads.csv",
      status: "uploaded",
      encoding: "utf-8",
      delimiter: ",",
      headers: HEADER.split(","),
      row_count: 7,
      result: null,
      created_by: { id: t.manager.id, name: "Mia Manager" },
    });
    expect(uploaded.body.sample).toHaveLength(5);
    expect(uploaded.body.sample[0]).toEqual(["", "Ann New", "", "555-020-0002", "a;b", "Contacted"]);
    // "Lead ID" is not guessed as the id; the others are.
    expect(uploaded.body.mapping.slice(2)).toEqual(["email", "phone", "tags", "stage"]);
    expect(uploaded.body.fields.map((f) => f.field)).toContain("assigned_to");
    const id = uploaded.body.id;

    const badMapping = await dryRun(t.auth, id, ["id", "name", "email", "email", "nonsense", "stage"]);
    expect(badMapping.status).toBe(400);
    expect((badMapping.body.details as { field: string }[]).map((d) => d.field)).toEqual([
      "mapping[3]",
      "mapping[4]",
    ]);

    const queued = await dryRun(t.auth, id, MAPPING);
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body.status).toBe("checking");
    // The run is a job of the import-run queue, for the worker.
    const jobs = await database.db.execute<{ data: { importId: string; dryRun: boolean } }>(
      sql`select data from pgboss.job where name = 'import-run' and data->>'importId' = ${id}`,
    );
    expect(jobs.rows.map((j) => j.data)).toEqual([{ companyId: t.companyId, importId: id, dryRun: true }]);
    await runQueued(t.companyId, id);
    const checked = await get(t.auth, id);
    expect(checked.body.status).toBe("checked");
    expect(checked.body.result).toEqual({
      created: 1,
      updated: 4,
      refused: 2,
      matched_on: { id: 1, phone: 2, email: 1 },
    });
    expect(checked.body.problem_count).toBe(2);
    expect(checked.body.progress).toEqual({ done: 7, total: 7 });
    const listed = await problems(t.auth, id);
    expect(listed.body.data).toEqual([
      { row: 7, column: "E-mail", field: "email", reason: expect.stringMatching(/email/i) },
      { row: 8, column: "Lead ID", field: "id", reason: "no lead with this id" },
    ]);
    expect(listed.body.pagination.total).toBe(2);
    // The dry run wrote nothing.
    const stored = await leadsOf(t.companyId);
    expect(stored.map((l) => l.name).sort()).toEqual(["Eve Email", "Ida Id", "Phil Phone"]);
    expect(stored.find((l) => l.id === byPhone)!.tags).toEqual(["old"]);
    expect(stored.find((l) => l.id === byEmail)!.email).toBe("eve@example.test");

    // Refused rows: the import does not start.
    const refused = await start(t.auth, id);
    expect(refused.status).toBe(409);
    expect(refused.body.error_code).toBe("IMPORT_NOT_CHECKED");

    const exported = await exportRoute(apiRequest(`/imports/${id}/problems/export`, t.auth), {
      params: Promise.resolve({ id }),
    });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toMatch(/^text\/csv/);
    expect((await exported.text()).split("\r\n")).toEqual([
      `${HEADER},row,problems`,
      expect.stringMatching(/^,Bad Email,not-an-email,,,,7,E-mail: .*email/i),
      "lead_unknown,Nobody,,,,,8,Lead ID: no lead with this id",
      "",
    ]);
  });

  it("imports with activity and events, all or nothing; the same file again changes nothing", async () => {
    const t = await tenant();
    await database.db.insert(webhookEndpoints).values({
      companyId: t.companyId,
      id: newId(ID_PREFIX.webhookEndpoint),
      url: "https://93.184.215.14/hook",
      events: ["lead.created", "lead.updated"],
      secret: `whsec_${Buffer.from("x".repeat(24)).toString("base64")}`,
    });
    const existing = await seedLead(t.companyId, {
      name: "Phil Phone",
      phone: "555-010-0001",
      phoneNormalized: "5550100001",
      tags: ["old"],
      stage: "new",
    });
    const csv = [
      HEADER,
      `,Ann New,ann@example.test,555-020-0002,a;b,Contacted`,
      `,,,(555) 010-0001,new,`,
      `,Ann Again,,5550200002,c,`,
    ].join("\n");
    const done = await importFile(t, csv, MAPPING);
    expect(done.status).toBe("done");
    expect(done.result).toEqual({
      created: 1,
      updated: 2,
      refused: 0,
      matched_on: { id: 0, phone: 2, email: 0 },
    });
    const stored = await leadsOf(t.companyId);
    expect(stored).toHaveLength(2);
    const ann = stored.find((l) => l.id !== existing)!;
    expect(ann).toMatchObject({
      name: "Ann Again",
      email: "ann@example.test",
      phone: "5550200002",
      phoneNormalized: "5550200002",
      tags: ["a", "b", "c"],
      stage: "contacted",
    });
    expect(stored.find((l) => l.id === existing)).toMatchObject({
      name: "Phil Phone",
      phone: "(555) 010-0001",
      tags: ["old", "new"],
    });

    const entries = await database.db
      .select()
      .from(recordActivity)
      .where(eq(recordActivity.companyId, t.companyId))
      .orderBy(recordActivity.id);
    // One entry per record: Ann's creation (with the later row's update folded in), Phil's changes.
    expect(entries.map((e) => [e.recordId, e.type, e.actorKind])).toEqual([
      [ann.id, "created", "import"],
      [existing, "updated", "import"],
    ]);
    expect(entries[1]!.changes).toEqual([
      { field: "phone", from: "555-010-0001", to: "(555) 010-0001" },
      { field: "tags", from: ["old"], to: ["old", "new"] },
    ]);
    const events = await database.db
      .select({ type: webhookEvents.type, recordId: webhookEvents.recordId })
      .from(webhookEvents)
      .where(eq(webhookEvents.companyId, t.companyId));
    expect(events).toHaveLength(2);
    expect(events).toEqual(
      expect.arrayContaining([
        { type: "lead.created", recordId: ann.id },
        { type: "lead.updated", recordId: existing },
      ]),
    );

    // The same file again: every row matches, nothing is written.
    const again = await importFile(t, csv, MAPPING);
    expect(again.status).toBe("done");
    expect(again.result).toEqual({
      created: 0,
      updated: 3,
      refused: 0,
      matched_on: { id: 0, phone: 3, email: 0 },
    });
    expect(await leadsOf(t.companyId)).toEqual(stored);
    const [{ n }] = (
      await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from record_activity where company_id = ${t.companyId}`,
      )
    ).rows as [{ n: number }];
    expect(n).toBe(2);
  });

  it("stores exactly what the same rows sent one by one through upsertLead store", async () => {
    const pair = [await tenant(), await tenant()];
    const owners: string[] = [];
    for (const t of pair) {
      owners.push((await createUser(database.db, t.companyId, { role: "sales_rep", name: "Sam" })).id);
      await seedLead(t.companyId, {
        name: "Stored",
        phone: "555-999-0000",
        phoneNormalized: "5559990000",
        email: "stored@example.test",
        emailNormalized: "stored@example.test",
        tags: ["x"],
        stage: "new",
        projectedValue: 10,
      });
    }
    const header = "Name,Email,Phone,Stage,Projected Value,Follow Up,Priority,Tags,Notes,Owner,Street,City";
    const lines = (owner: string) => [
      header,
      `Zed,zed@example.test,555-100-0001,Won,"$1,200.505",2026-03-04,high,"t1, t2",first,${owner},1 Main St,Springfield`,
      `,,555 999 0000,lost,,,,y,,,2 Side St,`,
      `Zed Two,ZED@example.test,,,99.99,03/05/2026,,t3,second,,,Shelbyville`,
      `Quinn,,,,,,,,,,,`,
      `,stored@example.test,555-100-0002,Contacted,0,,low,,,,,`,
    ];
    const mapping = [
      "name",
      "email",
      "phone",
      "stage",
      "projected_value",
      "follow_up_date",
      "priority",
      "tags",
      "notes",
      "assigned_to",
      "address_street1",
      "address_city",
    ];
    const [a, b] = pair as [Awaited<ReturnType<typeof tenant>>, Awaited<ReturnType<typeof tenant>>];
    const done = await importFile(a, lines(owners[0]!).join("\n"), mapping);
    expect(done.status, done.error ?? "").toBe("done");
    const headers = header.split(",");
    const rows = lines(owners[1]!).slice(1);
    for (const [i, line] of rows.entries()) {
      const values = line
        .match(/("([^"]|"")*"|[^,]*)(,|$)/g)!
        .map((v) => v.replace(/,$/, "").replace(/^"|"$/g, ""));
      const converted = convertRow("leads", headers, mapping, {
        row: i + 2,
        values: values.slice(0, headers.length),
      });
      expect(converted.ok, JSON.stringify(converted)).toBe(true);
      if (!converted.ok) continue;
      await upsertLead({
        ctx: {
          db: database.db,
          companyId: b.companyId,
          principal: { kind: "api_key", companyId: b.companyId, keyId: "key_x", scopes: [] },
        },
        input: converted.input,
      });
    }
    const comparable = (rows: (typeof leads.$inferSelect)[], owner: string) =>
      rows
        .map((row) => {
          // What differs between two companies (ids, times, change positions) is left out.
          const rest: Record<string, unknown> = { ...row };
          for (const key of ["id", "companyId", "createdAt", "updatedAt", "changeXid", "changeSeq"])
            delete rest[key];
          rest.assignedTo = row.assignedTo === owner ? "owner" : row.assignedTo;
          return rest;
        })
        .sort((x, y) => String(x.name).localeCompare(String(y.name)));
    const imported = comparable(await leadsOf(a.companyId), owners[0]!);
    const oneByOne = comparable(await leadsOf(b.companyId), owners[1]!);
    expect(imported).toEqual(oneByOne);
    // Stored (updated twice), Zed (created, then updated by email) and Quinn.
    expect(imported.map((l) => l.name)).toEqual(["Quinn", "Stored", "Zed Two"]);
  });

  it("stores customers exactly as upsertCustomer one by one does, billing copies included", async () => {
    const pair = [await tenant(), await tenant()] as const;
    for (const t of pair) {
      await database.db.insert(customers).values({
        companyId: t.companyId,
        id: newId(ID_PREFIX.customer),
        firstName: "Stored",
        phone: "555-777-0000",
        phoneNormalized: "5557770000",
        billingSameAsProperty: true,
        propertyStreet1: "1 Old Rd",
        billingStreet1: "1 Old Rd",
        tags: ["s"],
      });
    }
    const header = "First Name,Last Name,Email,Phone,Street,Billing Street,Same,Status,Tags";
    const rows = [
      "Cat,Cole,cat@example.test,555-777-0001,9 Elm,,yes,,a",
      ",,,(555) 777-0000,2 New Rd,,,inactive,b",
      ",,,5557770000,,7 Bill St,no,,",
      "Cat,,CAT@example.test,,10 Elm,,,,c",
      "Dan,,,,,,,,",
    ];
    const mapping = [
      "first_name",
      "last_name",
      "email",
      "phone",
      "property_street1",
      "billing_street1",
      "billing_same_as_property",
      "status",
      "tags",
    ];
    const done = await importFile(pair[0], [header, ...rows].join("\n"), mapping, "customers");
    expect(done.status, done.error ?? "").toBe("done");
    const headers = header.split(",");
    for (const [i, line] of rows.entries()) {
      const converted = convertRow("customers", headers, mapping, { row: i + 2, values: line.split(",") });
      if (!converted.ok) throw new Error(JSON.stringify(converted.problems));
      await upsertCustomer({
        ctx: {
          db: database.db,
          companyId: pair[1].companyId,
          principal: { kind: "api_key", companyId: pair[1].companyId, keyId: "key_x", scopes: [] },
        },
        input: converted.input,
      });
    }
    const comparable = async (companyId: string) =>
      (await database.db.select().from(customers).where(eq(customers.companyId, companyId)))
        .map((row) => {
          const rest: Record<string, unknown> = { ...row };
          for (const key of ["id", "companyId", "createdAt", "updatedAt", "changeXid", "changeSeq"])
            delete rest[key];
          return rest;
        })
        .sort((x, y) => String(x.firstName).localeCompare(String(y.firstName)));
    const imported = await comparable(pair[0].companyId);
    expect(imported).toEqual(await comparable(pair[1].companyId));
    expect(imported.map((c) => [c.firstName, c.billingStreet1])).toEqual([
      ["Cat", "10 Elm"],
      ["Dan", null],
      ["Stored", "7 Bill St"],
    ]);
  });

  it("crosses batch boundaries: a few thousand rows, duplicates far apart", async () => {
    const t = await tenant();
    const count = 3_000;
    const lines = ["Name,Phone,Email"];
    for (let i = 0; i < count; i++)
      lines.push(`Person ${i},555${String(1_000_000 + i).slice(1)},p${i}@example.test`);
    // Row 3002 updates the record row 2 created (another batch), by email.
    lines.push(`Person Zero Again,,p0@example.test`);
    const uploaded = await upload(t.auth, lines.join("\n"));
    expect(uploaded.status, uploaded.text).toBe(201);
    const id = uploaded.body.id;
    expect(uploaded.body.row_count).toBe(count + 1);
    await dryRun(t.auth, id, ["name", "phone", "email"]);
    await runQueued(t.companyId, id, { batchRows: 700 });
    const checked = (await get(t.auth, id)).body;
    expect(checked.result).toEqual({
      created: count,
      updated: 1,
      refused: 0,
      matched_on: { id: 0, phone: 0, email: 1 },
    });
    expect(await start(t.auth, id)).toMatchObject({ status: 202 });
    await runQueued(t.companyId, id, { batchRows: 700 });
    const done = (await get(t.auth, id)).body;
    expect(done.status).toBe("done");
    expect(done.result).toEqual(checked.result);
    const stored = await leadsOf(t.companyId);
    expect(stored).toHaveLength(count);
    expect(stored.filter((l) => l.email === "p0@example.test").map((l) => l.name)).toEqual([
      "Person Zero Again",
    ]);
  });

  it("dry run: later batches see the records earlier ones created or changed, as the import does", async () => {
    const t = await tenant();
    const moved = await seedLead(t.companyId, {
      name: "Sam Moved",
      phone: "555-000-0001",
      phoneNormalized: "5550000001",
      email: "sam@example.test",
      emailNormalized: "sam@example.test",
    });
    await seedLead(t.companyId, { name: "Kay Kept", phone: "555-000-0002", phoneNormalized: "5550000002" });
    const csv = [
      "Lead ID,Full Name,Phone Number,E-mail",
      // Batch 1: Sam gets a new phone and email; Ann is new.
      `${moved},Sam Moved,555-000-0009,sam.new@example.test`,
      `,Ann New,555-000-0100,ann@example.test`,
      // Batch 2: Sam's old phone names nobody now; his new one names him.
      `,Old Phone,555-000-0001,`,
      `,By New Phone,555-000-0009,`,
      // Batch 3: his new email, his id.
      `,,,sam.new@example.test`,
      `${moved},,,`,
      // Batch 4: Ann by email; Sam's old email names nobody now.
      `,Ann Again,,ann@example.test`,
      `,Old Email,,sam@example.test`,
      // Batch 5: Kay as stored; the record batch 2 created from Sam's old phone.
      `,Kay Again,555-000-0002,`,
      `,Old Phone Again,555-000-0001,`,
    ].join("\n");
    const uploaded = await upload(t.auth, csv);
    expect(uploaded.status, uploaded.text).toBe(201);
    const run = (dryRun: boolean, shadowKeyBits?: number) =>
      runImport(database.db, {
        companyId: t.companyId,
        importId: uploaded.body.id,
        mapping: ["id", "name", "phone", "email"],
        dryRun,
        batchRows: 2,
        shadowKeyBits,
      });
    const expected = { created: 3, updated: 7, refused: 0, matched_on: { id: 2, phone: 3, email: 2 } };
    expect((await run(true)).result).toEqual(expected);
    // Every key hashed alike: each lookup finds every shadow row, and only equal values count.
    expect((await run(true, 1)).result).toEqual(expected);
    expect((await run(false)).result).toEqual(expected);
    const stored = await leadsOf(t.companyId);
    expect(stored.map((l) => l.name).sort()).toEqual([
      "Ann Again",
      "By New Phone",
      "Kay Again",
      "Old Email",
      "Old Phone Again",
    ]);
  });

  it("cancels: a queued run never starts, a running one rolls back; nothing is written", async () => {
    const t = await tenant();
    const lines = ["Name,Phone"];
    for (let i = 0; i < 50; i++) lines.push(`Person ${i},555-300-${String(1000 + i)}`);
    const uploaded = await upload(t.auth, lines.join("\n"));
    const id = uploaded.body.id;
    await dryRun(t.auth, id, ["name", "phone"]);
    const cancelled = await cancel(t.auth, id);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    await runQueued(t.companyId, id);
    expect((await get(t.auth, id)).body.status).toBe("cancelled");

    // The engine itself: aborted after its first batch, it rolls back.
    const controller = new AbortController();
    await expect(
      runImport(database.db, {
        companyId: t.companyId,
        importId: id,
        mapping: ["name", "phone"],
        dryRun: false,
        batchRows: 10,
        signal: controller.signal,
        onProgress: () => controller.abort(),
      }),
    ).rejects.toBeInstanceOf(ImportCancelledError);
    expect(await leadsOf(t.companyId)).toEqual([]);
  });

  it("runs one import per company at a time: a second start is a 409", async () => {
    const t = await tenant();
    const first = (await upload(t.auth, "Name\nOne")).body.id;
    const second = (await upload(t.auth, "Name\nTwo")).body.id;
    expect((await dryRun(t.auth, first, ["name"])).status).toBe(202);
    const refused = await dryRun(t.auth, second, ["name"]);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      error_code: "IMPORT_IN_PROGRESS",
      message: `Another import is running for this company (${first}); try again when it ends`,
    });
    expect(
      (
        await call(deleteRoute, apiRequest(`/imports/${first}`, { ...t.auth, method: "DELETE" }), {
          id: first,
        })
      ).status,
    ).toBe(409);
    await runQueued(t.companyId, first);
    expect((await dryRun(t.auth, second, ["name"])).status).toBe(202);
    // The list shows the running one (the page resumes it after a reload).
    const listed = await call<{ data: ImportResponse[] }>(listRoute, apiRequest("/imports", t.auth));
    expect(listed.body.data.map((i) => [i.id, i.status])).toEqual([
      [second, "checking"],
      [first, "checked"],
    ]);
  });

  it("refuses a file that is not CSV, naming the row, and keeps nothing", async () => {
    const t = await tenant();
    const bad = await upload(t.auth, 'Name,Phone\nAnn,1\n"Bob,2\n');
    expect(bad.status).toBe(400);
    expect(bad.body.error_code).toBe("INVALID_CSV");
    expect(String(bad.body.message)).toMatch(/row \d+/);
    const json = await call(uploadRoute, apiRequest("/imports?type=leads", { ...t.auth, body: { a: 1 } }));
    expect(json.status).toBe(415);
    const declared = await call(
      uploadRoute,
      apiRequest("/imports?type=leads", {
        ...t.auth,
        rawBody: "Name\nAnn",
        contentType: "text/csv",
        headers: { "content-length": String(2 ** 30 + 1) },
      }),
    );
    expect(declared.status).toBe(413);
    expect(declared.body.error_code).toBe("PAYLOAD_TOO_LARGE");
    const tooLarge = createImport(
      database.db,
      {
        companyId: t.companyId,
        type: "leads",
        fileName: "big.csv",
        source: (async function* () {
          yield new TextEncoder().encode("Name\n" + "x\n".repeat(100));
        })(),
        createdBy: null,
      },
      { maxBytes: 50 },
    );
    await expect(tooLarge).rejects.toMatchObject({ name: "ImportTooLargeError" });
    const left = await database.db.select().from(imports).where(eq(imports.companyId, t.companyId));
    expect(left).toEqual([]);
    const staged = await database.db.select().from(importRows).where(eq(importRows.companyId, t.companyId));
    expect(staged).toEqual([]);
  });

  it("imports customers with a customers:write key; permissions by role, scope and company", async () => {
    const t = await tenant();
    const other = await tenant();
    const customersKey = await keyWith(t.companyId, ["customers:write"]);
    const csv =
      "First Name,Last Name,Email,Billing Same As Property,Street\nCat,Cole,cat@example.test,yes,9 Elm";
    const uploaded = await upload({ key: customersKey }, csv, "type=customers&file_name=c.csv");
    expect(uploaded.status, uploaded.text).toBe(201);
    expect(uploaded.body.created_by).toBeNull();
    const id = uploaded.body.id;
    const mapping = ["first_name", "last_name", "email", "billing_same_as_property", "property_street1"];
    expect((await dryRun({ key: customersKey }, id, mapping)).status).toBe(202);
    await runQueued(t.companyId, id);
    expect((await start({ key: customersKey }, id)).status).toBe(202);
    await runQueued(t.companyId, id);
    expect((await get({ key: customersKey }, id)).body.status).toBe("done");
    const [customer] = await database.db.select().from(customers).where(eq(customers.companyId, t.companyId));
    expect(customer).toMatchObject({
      firstName: "Cat",
      lastName: "Cole",
      status: "active",
      billingSameAsProperty: true,
      propertyStreet1: "9 Elm",
      billingStreet1: "9 Elm",
    });

    // A key without leads:write cannot import leads, nor see the customer import's list entry as leads.
    const leadsRefused = await upload({ key: customersKey }, "Name\nX");
    expect(leadsRefused.status).toBe(403);
    expect(leadsRefused.body.error_code).toBe("INSUFFICIENT_SCOPE");
    const readOnly = await keyWith(t.companyId, ["leads:read", "customers:read"]);
    expect((await get({ key: readOnly }, id)).status).toBe(403);
    // A sales rep (who may write leads) may not import.
    const rep = await createUser(database.db, t.companyId, { role: "sales_rep" });
    const repCookie = await createSessionCookie(database.db, rep);
    const repUpload = await upload({ cookie: repCookie }, "Name\nX");
    expect(repUpload.status).toBe(403);
    expect((await get({ cookie: repCookie }, id)).status).toBe(403);
    // Another company finds nothing.
    expect((await get(other.auth, id)).status).toBe(404);
    expect((await dryRun(other.auth, id, mapping)).status).toBe(404);
    expect((await problems(other.auth, id)).status).toBe(404);
    expect((await cancel(other.auth, id)).status).toBe(404);
    const otherList = await call<{ data: unknown[] }>(listRoute, apiRequest("/imports", other.auth));
    expect(otherList.body.data).toEqual([]);
  });
});

import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as upsertCustomerRoute } from "@/app/api/customers/route";
import { GET as customerActivityRoute } from "@/app/api/customers/[id]/activity/route";
import { POST as archiveCustomerRoute } from "@/app/api/customers/[id]/archive/route";
import { POST as customerNotesRoute } from "@/app/api/customers/[id]/notes/route";
import { GET as listLeadsRoute, POST as upsertLeadRoute } from "@/app/api/leads/route";
import { GET as leadActivityRoute } from "@/app/api/leads/[id]/activity/route";
import { POST as archiveLeadRoute } from "@/app/api/leads/[id]/archive/route";
import { POST as leadNotesRoute } from "@/app/api/leads/[id]/notes/route";
import { POST as unarchiveLeadRoute } from "@/app/api/leads/[id]/unarchive/route";
import { POST as bulkRoute } from "@/app/api/leads/bulk/route";
import { POST as undoBulkRoute } from "@/app/api/leads/bulk/[id]/undo/route";
import { listActivityResponseSchema, type ActivityEntry } from "@/lib/schemas/activity";
import {
  apiRequest,
  call,
  createApiKey,
  createCompany,
  createSessionCookie,
  createUser,
} from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

type Auth = { key?: string; cookie?: string };
type Body = Record<string, unknown>;

const upsertLead = (auth: Auth, body: unknown) =>
  call<Body>(upsertLeadRoute, apiRequest("/leads", { ...auth, body }));
const upsertCustomer = (auth: Auth, body: unknown) =>
  call<Body>(upsertCustomerRoute, apiRequest("/customers", { ...auth, body }));
const activity = async (auth: Auth, kind: "leads" | "customers", id: string, query = "") => {
  const route = kind === "leads" ? leadActivityRoute : customerActivityRoute;
  const res = await call<Body>(route, apiRequest(`/${kind}/${id}/activity${query}`, auth), { id });
  if (res.status === 200) listActivityResponseSchema.parse(res.body);
  return res as typeof res & {
    body: { data: ActivityEntry[]; pagination: { total: number; has_more: boolean } };
  };
};
const post = (route: Parameters<typeof call>[0], path: string, auth: Auth, id: string, body?: unknown) =>
  call<Body>(route, apiRequest(path, { ...auth, method: "POST", body }), { id });

/** A company with an all-scopes key (named "test key"), an admin user signed in, and a user id. */
async function tenant() {
  const company = await createCompany(database.db);
  const { id: keyId, key } = await createApiKey(database.db, company.id);
  const admin = await createUser(database.db, company.id, { role: "admin", name: "Ada Admin" });
  const cookie = await createSessionCookie(database.db, admin);
  return { companyId: company.id, key, keyId, admin, cookie };
}

describe(`record activity (${testEngine()})`, () => {
  it("records a creation and each changed field, with the API key or the user as actor", async () => {
    const t = await tenant();
    const created = await upsertLead({ key: t.key }, { name: "Dana Door", stage: "New", tags: ["a"] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await upsertLead({ cookie: t.cookie }, { id, stage: "contacted", tags: ["b"], projected_value: 120.5 });
    // Nothing changes: no entry.
    await upsertLead({ key: t.key }, { id, stage: "Contacted" });

    const res = await activity({ key: t.key }, "leads", id);
    expect(res.status).toBe(200);
    expect(res.body.pagination.total).toBe(2);
    const [updated, made] = res.body.data;
    expect(made).toMatchObject({
      type: "created",
      actor: { kind: "api_key", id: t.keyId, name: "test key" },
      changes: [],
      note: null,
    });
    expect(updated).toMatchObject({
      type: "updated",
      actor: { kind: "user", id: t.admin.id, name: "Ada Admin" },
    });
    expect(updated!.changes).toEqual([
      { field: "projected_value", from: null, to: 120.5 },
      { field: "stage", from: "new", to: "contacted" },
      { field: "tags", from: ["a"], to: ["a", "b"] },
    ]);
    expect(Date.parse(updated!.at)).toBeGreaterThanOrEqual(Date.parse(made!.at));
  });

  it("leaves no entry when the change is refused, and no change when its entry cannot be written", async () => {
    const t = await tenant();
    const id = (await upsertLead({ key: t.key }, { name: "Atomic" })).body.id as string;
    const tooMany = Array.from({ length: 101 }, (_, i) => `t${i}`);
    expect((await upsertLead({ key: t.key }, { id, tags: tooMany })).status).toBe(400);

    // A failure injected between the change and its entry: the entry's insert fails.
    await database.db.execute(
      sql.raw(`create function fail_activity() returns trigger language plpgsql as $$
      begin if new.record_id = '${id}' then raise exception 'injected'; end if; return new; end $$`),
    );
    await database.db.execute(
      sql.raw(`create trigger fail_activity before insert on record_activity
      for each row execute function fail_activity()`),
    );
    try {
      const failed = await upsertLead({ key: t.key }, { id, name: "Changed" });
      expect(failed.status).toBe(500);
      expect(failed.text).not.toMatch(/injected|record_activity|insert/i);
      const archived = await post(archiveLeadRoute, `/leads/${id}/archive`, { key: t.key }, id);
      expect(archived.status).toBe(500);
    } finally {
      await database.db.execute(sql`drop trigger fail_activity on record_activity`);
      await database.db.execute(sql`drop function fail_activity()`);
    }
    const stored = await database.db.execute<{ name: string; archived: boolean }>(
      sql`select name, archived from leads where company_id = ${t.companyId} and id = ${id}`,
    );
    expect(stored.rows[0]).toEqual({ name: "Atomic", archived: false });
    const res = await activity({ key: t.key }, "leads", id);
    expect(res.body.data.map((e) => e.type)).toEqual(["created"]);
  });

  it("adds notes with who and when, and refuses empty, too long or unknown ones", async () => {
    const t = await tenant();
    const id = (await upsertLead({ key: t.key }, { name: "Noted" })).body.id as string;
    const note = await post(leadNotesRoute, `/leads/${id}/notes`, { cookie: t.cookie }, id, {
      body: "Wants a quote for the yard",
    });
    expect(note.status).toBe(201);
    expect(note.body.data).toMatchObject({
      type: "note",
      note: "Wants a quote for the yard",
      actor: { kind: "user", id: t.admin.id, name: "Ada Admin" },
    });
    for (const body of [{ body: "   " }, { body: "x".repeat(10_001) }, {}]) {
      const bad = await post(leadNotesRoute, `/leads/${id}/notes`, { key: t.key }, id, body);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error_code: "VALIDATION_ERROR", details: [{ field: "body" }] });
    }
    expect(
      (await post(leadNotesRoute, `/leads/${id}/notes`, { key: t.key }, id, { body: "x".repeat(10_000) }))
        .status,
    ).toBe(201);
    const other = await tenant();
    const foreign = await post(leadNotesRoute, `/leads/${id}/notes`, { key: other.key }, id, { body: "hi" });
    expect(foreign.status).toBe(404);
    expect((await activity({ key: other.key }, "leads", id)).status).toBe(404);
    const res = await activity({ key: t.key }, "leads", id);
    expect(res.body.data.map((e) => e.type)).toEqual(["note", "note", "created"]);

    // The leads list finds a lead by its notes' text, in any case, with its other filters.
    await upsertLead({ key: t.key }, { name: "Yard-less" });
    const found = async (query: string) =>
      (
        await call<{ data: { id: string }[]; pagination: { total: number } }>(
          listLeadsRoute,
          apiRequest(`/leads${query}`, { key: t.key }),
        )
      ).body;
    expect(await found("?note=QUOTE%20for")).toMatchObject({ data: [{ id }], pagination: { total: 1 } });
    expect((await found("?note=quote&search=Noted")).data.map((l) => l.id)).toEqual([id]);
    expect((await found("?note=quote&search=Yard-less")).data).toEqual([]);
    expect((await found("?note=nothing-like-it")).pagination.total).toBe(0);

    const customer = (await upsertCustomer({ key: t.key }, { first_name: "Cara" })).body.id as string;
    const customerNote = await post(
      customerNotesRoute,
      `/customers/${customer}/notes`,
      { key: t.key },
      customer,
      {
        body: "Gate code 1234",
      },
    );
    expect(customerNote.status).toBe(201);
    const story = await activity({ key: t.key }, "customers", customer);
    expect(story.body.data.map((e) => [e.type, e.note])).toEqual([
      ["note", "Gate code 1234"],
      ["created", null],
    ]);
  });

  it("pages a long history newest first", async () => {
    const t = await tenant();
    const id = (await upsertLead({ key: t.key }, { name: "Busy" })).body.id as string;
    for (let i = 1; i <= 7; i++) await upsertLead({ key: t.key }, { id, notes: `v${i}` });
    const first = await activity({ key: t.key }, "leads", id, "?limit=3");
    expect(first.body.pagination).toMatchObject({ total: 8, has_more: true });
    expect(first.body.data.map((e) => e.changes[0]?.to)).toEqual(["v7", "v6", "v5"]);
    const last = await activity({ key: t.key }, "leads", id, "?limit=3&page=3");
    expect(last.body.data.map((e) => e.type)).toEqual(["updated", "created"]);
    expect(last.body.pagination.has_more).toBe(false);
    const bad = await activity({ key: t.key }, "leads", id, "?limit=0");
    expect(bad.status).toBe(400);
  });

  it("gives entries random ids that reveal no counter across companies (issue #54)", async () => {
    const [t, other] = [await tenant(), await tenant()];
    const id = (await upsertLead({ key: t.key }, { name: "Counted" })).body.id as string;
    const elsewhere = (await upsertLead({ key: other.key }, { name: "Elsewhere" })).body.id as string;
    for (let i = 1; i <= 3; i++) await upsertLead({ key: t.key }, { id, notes: `v${i}` });
    const note = await post(leadNotesRoute, `/leads/${id}/notes`, { key: t.key }, id, { body: "hi" });
    const ids = [
      ...(await activity({ key: t.key }, "leads", id)).body.data.map((e) => e.id),
      ...(await activity({ key: other.key }, "leads", elsewhere)).body.data.map((e) => e.id),
    ];
    expect(ids).toHaveLength(6);
    expect(ids).toContain((note.body.data as ActivityEntry).id);
    expect(new Set(ids).size).toBe(6);
    // `act_` and 32 random hex digits: no sequence number, so neighbours share no long prefix.
    for (const entry of ids) expect(entry).toMatch(/^act_[0-9a-f]{32}$/);
    const shared = (a: string, b: string) => [...a].findIndex((ch, i) => ch !== b[i]);
    expect(Math.max(...ids.slice(1).map((entry, i) => shared(entry, ids[i]!)))).toBeLessThan(4 + 8);
  });

  it("archives and unarchives a lead or customer once each, recorded", async () => {
    const t = await tenant();
    const id = (await upsertLead({ key: t.key }, { name: "Shelved" })).body.id as string;
    const archived = await post(archiveLeadRoute, `/leads/${id}/archive`, { key: t.key }, id);
    expect(archived.status).toBe(200);
    expect(archived.body.data).toMatchObject({ id, archived: true, archived_at: expect.any(String) });
    expect((await post(archiveLeadRoute, `/leads/${id}/archive`, { key: t.key }, id)).status).toBe(200);
    const back = await post(unarchiveLeadRoute, `/leads/${id}/unarchive`, { cookie: t.cookie }, id);
    expect(back.body.data).toMatchObject({ archived: false, archived_at: null });
    const res = await activity({ key: t.key }, "leads", id);
    expect(res.body.data.map((e) => e.type)).toEqual(["unarchived", "archived", "created"]);
    expect(
      (await post(archiveLeadRoute, `/leads/lead_nope/archive`, { key: t.key }, "lead_nope")).status,
    ).toBe(404);

    const customer = (await upsertCustomer({ key: t.key }, { first_name: "Old" })).body.id as string;
    const gone = await post(archiveCustomerRoute, `/customers/${customer}/archive`, { key: t.key }, customer);
    expect(gone.body.data).toMatchObject({ id: customer, archived: true, archived_at: expect.any(String) });
    const story = await activity({ key: t.key }, "customers", customer);
    expect(story.body.data.map((e) => e.type)).toEqual(["archived", "created"]);
  });

  it("records each lead a bulk change or its undo changed, and only those", async () => {
    const t = await tenant();
    const ids: string[] = [];
    for (const stage of ["new", "new", "quoted"]) {
      ids.push((await upsertLead({ key: t.key }, { name: `Bulk ${stage}`, stage })).body.id as string);
    }
    const bulk = await call<Body>(
      bulkRoute,
      apiRequest("/leads/bulk", {
        cookie: t.cookie,
        body: { ids, action: { type: "set_stage", stage: "quoted" } },
      }),
    );
    expect(bulk.body).toMatchObject({ matched: 3, changed: 2 });
    const undoId = bulk.body.id as string;
    const archive = await call<Body>(
      bulkRoute,
      apiRequest("/leads/bulk", { key: t.key, body: { ids: [ids[0]], action: { type: "archive" } } }),
    );
    expect(archive.body.changed).toBe(1);
    expect(
      // Its author undoes it (issue #54: an undo belongs to its author, an admin or a manager).
      (
        await call(
          undoBulkRoute,
          apiRequest(`/leads/bulk/${undoId}/undo`, { cookie: t.cookie, method: "POST" }),
          {
            id: undoId,
          },
        )
      ).status,
    ).toBe(200);

    const first = await activity({ key: t.key }, "leads", ids[0]!);
    expect(first.body.data.map((e) => [e.type, e.actor.kind, e.changes])).toEqual([
      ["updated", "user", [{ field: "stage", from: "quoted", to: "new" }]],
      ["archived", "api_key", []],
      ["updated", "user", [{ field: "stage", from: "new", to: "quoted" }]],
      ["created", "api_key", []],
    ]);
    const unchanged = await activity({ key: t.key }, "leads", ids[2]!);
    expect(unchanged.body.data.map((e) => e.type)).toEqual(["created"]);
  });
});

describe(`record activity by role (${testEngine()})`, () => {
  it("lets each role read and write the activity of what its role reads and writes", async () => {
    const t = await tenant();
    const lead = (await upsertLead({ key: t.key }, { name: "Role lead" })).body.id as string;
    const customer = (await upsertCustomer({ key: t.key }, { first_name: "Role" })).body.id as string;
    const cookieOf = async (role: "manager" | "sales_rep" | "technician") =>
      createSessionCookie(database.db, await createUser(database.db, t.companyId, { role, name: role }));
    const expected = {
      manager: { leadRead: 200, leadNote: 201, customerRead: 200, customerNote: 201, archive: 200 },
      sales_rep: { leadRead: 200, leadNote: 201, customerRead: 200, customerNote: 201, archive: 200 },
      technician: { leadRead: 403, leadNote: 403, customerRead: 200, customerNote: 403, archive: 403 },
    } as const;
    for (const [role, want] of Object.entries(expected) as [
      keyof typeof expected,
      (typeof expected)["manager"],
    ][]) {
      const cookie = await cookieOf(role);
      const got = {
        leadRead: (await activity({ cookie }, "leads", lead)).status,
        leadNote: (await post(leadNotesRoute, `/leads/${lead}/notes`, { cookie }, lead, { body: role }))
          .status,
        customerRead: (await activity({ cookie }, "customers", customer)).status,
        customerNote: (
          await post(customerNotesRoute, `/customers/${customer}/notes`, { cookie }, customer, { body: role })
        ).status,
        archive: (await post(archiveCustomerRoute, `/customers/${customer}/archive`, { cookie }, customer))
          .status,
      };
      expect(got, role).toEqual(want);
    }
  });
});

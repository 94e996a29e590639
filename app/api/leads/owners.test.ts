import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listLeadsRoute, POST as upsertLeadRoute } from "@/app/api/leads/route";
import { GET as stageTotalsRoute } from "@/app/api/leads/stage-totals/route";
import { GET as listUsersRoute, POST as postUsers } from "@/app/api/users/route";
import { leads } from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import { listAssignableUsersResponseSchema } from "@/lib/schemas/lead-owners";
import {
  apiRequest,
  call,
  createApiKey,
  createSessionCookie,
  createTenant,
  createUser,
} from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

type Body = Record<string, unknown>;
type Auth = { key?: string; cookie?: string };
type ErrorBody = { error_code?: string; details?: { field: string }[] };

const upsert = (auth: Auth, body: unknown) =>
  call<Body>(upsertLeadRoute, apiRequest("/leads", { ...auth, body }));
const list = (auth: Auth, query: string) =>
  call<{ data: Body[]; pagination: { total: number } }>(listLeadsRoute, apiRequest(`/leads${query}`, auth));
const totals = (auth: Auth, query: string) =>
  call<{ totals: { count: number }; data: { stage: string | null; count: number }[] }>(
    stageTotalsRoute,
    apiRequest(`/leads/stage-totals${query}`, auth),
  );
const badFields = (res: { body: unknown }) => ((res.body as ErrorBody).details ?? []).map((d) => d.field);

/** A tenant with a key, an admin, a sales rep and a deactivated technician. */
async function ownersTenant() {
  const { companyId, key } = await createTenant(database.db);
  const admin = await createUser(database.db, companyId, { role: "admin", name: "Alice Admin" });
  const rep = await createUser(database.db, companyId, { role: "sales_rep", name: "Rita Rep" });
  const gone = await createUser(database.db, companyId, {
    role: "technician",
    name: "Gus Gone",
    active: false,
  });
  return { companyId, key, admin, rep, gone };
}

async function insertLead(companyId: string, values: Partial<typeof leads.$inferInsert> = {}) {
  const id = newId(ID_PREFIX.lead);
  await database.db.insert(leads).values({ name: "Owned lead", ...values, companyId, id });
  return id;
}

async function storedOwner(companyId: string, id: string) {
  const [row] = await database.db
    .select({ assignedTo: leads.assignedTo })
    .from(leads)
    .where(and(eq(leads.companyId, companyId), eq(leads.id, id)));
  return row?.assignedTo;
}

describe(`lead owners: assigned_to (${testEngine()})`, () => {
  it("sets, keeps and clears the owner on create-or-update", async () => {
    const t = await ownersTenant();
    const created = await upsert({ key: t.key }, { name: "Owned", assigned_to: t.rep.id });
    expect(created.status).toBe(201);
    expect(created.body.assigned_to).toBe(t.rep.id);
    const id = created.body.id as string;
    const kept = await upsert({ key: t.key }, { id, notes: "no owner field" });
    expect(kept.body.assigned_to).toBe(t.rep.id);
    // A deactivated user is still a user of the company: a lead written back unchanged keeps them.
    const toGone = await upsert({ key: t.key }, { id, assigned_to: t.gone.id });
    expect([toGone.status, toGone.body.assigned_to]).toEqual([200, t.gone.id]);
    const cleared = await upsert({ key: t.key }, { id, assigned_to: null });
    expect(cleared.body.assigned_to).toBeNull();
    await upsert({ key: t.key }, { id, assigned_to: t.admin.id });
    const emptied = await upsert({ key: t.key }, { id, assigned_to: "" });
    expect(emptied.body.assigned_to).toBeNull();
    expect(await storedOwner(t.companyId, id)).toBeNull();
  });

  it("refuses another company's user, an unknown id and a malformed value: 400 naming assigned_to", async () => {
    const t = await ownersTenant();
    const other = await ownersTenant();
    const id = await insertLead(t.companyId, { assignedTo: t.rep.id });
    for (const value of [other.rep.id, "usr_unknown", 42, ["x"], { id: t.rep.id }, "x".repeat(256)]) {
      const res = await upsert({ key: t.key }, { id, assigned_to: value });
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect((res.body as ErrorBody).error_code).toBe("VALIDATION_ERROR");
      expect(badFields(res)).toEqual(["assigned_to"]);
    }
    expect(await storedOwner(t.companyId, id)).toBe(t.rep.id);
    // Nothing is created either.
    const created = await upsert({ key: t.key }, { name: "New", assigned_to: other.admin.id });
    expect(created.status).toBe(400);
    expect((await list({ key: t.key }, "?search=New")).body.pagination.total).toBe(0);
    // A bad value is a 400 before an unknown id is a 404 (contract section 2's order).
    const unknown = await upsert({ key: t.key }, { id: "lead_missing", assigned_to: "usr_unknown" });
    expect(unknown.status).toBe(400);
  });

  it("filters the list and the stage totals by owner: a user, none, and me with a session", async () => {
    const t = await ownersTenant();
    const repLeads = [
      await insertLead(t.companyId, { assignedTo: t.rep.id, stage: "new", projectedValue: 10 }),
      await insertLead(t.companyId, { assignedTo: t.rep.id, stage: "won", projectedValue: 5 }),
    ];
    await insertLead(t.companyId, { assignedTo: t.rep.id, stage: "new", archived: true });
    const adminLead = await insertLead(t.companyId, { assignedTo: t.admin.id, stage: "new" });
    const unassigned = await insertLead(t.companyId, { stage: "new", tags: ["vip"] });
    const ids = (res: { body: { data: Body[] } }) => res.body.data.map((l) => l.id).sort();

    const byRep = await list({ key: t.key }, `?assigned_to=${t.rep.id}`);
    expect(ids(byRep)).toEqual([...repLeads].sort());
    expect(byRep.body.pagination.total).toBe(2);
    expect((await list({ key: t.key }, `?assigned_to=${t.rep.id}&archived=true`)).body.pagination.total).toBe(
      3,
    );
    const none = await list({ key: t.key }, "?assigned_to=none");
    expect([ids(none), none.body.pagination.total]).toEqual([[unassigned], 1]);
    expect((await list({ key: t.key }, "?assigned_to=none&tags=vip&stage=new")).body.pagination.total).toBe(
      1,
    );
    expect((await list({ key: t.key }, `?assigned_to=${t.rep.id}&stage=won`)).body.pagination.total).toBe(1);
    expect((await list({ key: t.key }, "?assigned_to=usr_nobody")).body.pagination.total).toBe(0);

    const repCookie = await createSessionCookie(database.db, t.rep);
    const mine = await list({ cookie: repCookie }, "?assigned_to=me");
    expect(ids(mine)).toEqual([...repLeads].sort());
    const adminCookie = await createSessionCookie(database.db, t.admin);
    expect(ids(await list({ cookie: adminCookie }, "?assigned_to=me"))).toEqual([adminLead]);

    // The stage totals share the list's filter.
    const repTotals = await totals({ key: t.key }, `?assigned_to=${t.rep.id}`);
    expect(repTotals.status).toBe(200);
    expect(repTotals.body.data.map((r) => [r.stage, r.count])).toEqual([
      ["new", 1],
      ["won", 1],
    ]);
    expect((await totals({ cookie: repCookie }, "?assigned_to=me&archived=true")).body.totals.count).toBe(3);
    expect((await totals({ key: t.key }, "?assigned_to=none")).body.totals.count).toBe(1);
  });

  it("answers 400 naming assigned_to for me with an API key, and for an empty value", async () => {
    const t = await ownersTenant();
    for (const res of [
      await list({ key: t.key }, "?assigned_to=me"),
      await totals({ key: t.key }, "?assigned_to=me"),
      await list({ key: t.key }, "?assigned_to="),
    ]) {
      expect(res.status).toBe(400);
      expect(badFields(res)).toEqual(["assigned_to"]);
    }
  });
});

describe(`GET /api/users (${testEngine()})`, () => {
  it("lists the company's active users by name: id, name and role, no emails", async () => {
    const t = await ownersTenant();
    await ownersTenant();
    const res = await call(listUsersRoute, apiRequest("/users", { key: t.key }));
    expect(res.status).toBe(200);
    const body = listAssignableUsersResponseSchema.strict().parse(res.body);
    expect(body.data).toEqual([
      { id: t.admin.id, name: "Alice Admin", role: "admin" },
      { id: t.rep.id, name: "Rita Rep", role: "sales_rep" },
    ]);
    expect(res.text).not.toContain("@");
  });

  it("needs leads:read: a sales rep's session reads it, a technician's does not", async () => {
    const t = await ownersTenant();
    const { key } = await createApiKey(database.db, t.companyId, { scopes: ["customers:read"] });
    const refused = await call(listUsersRoute, apiRequest("/users", { key }));
    expect([refused.status, (refused.body as ErrorBody).error_code]).toEqual([403, "INSUFFICIENT_SCOPE"]);
    const rep = await call(
      listUsersRoute,
      apiRequest("/users", { cookie: await createSessionCookie(database.db, t.rep) }),
    );
    expect(rep.status).toBe(200);
    const tech = await createUser(database.db, t.companyId, { role: "technician" });
    const techRes = await call(
      listUsersRoute,
      apiRequest("/users", { cookie: await createSessionCookie(database.db, tech) }),
    );
    expect(techRes.status).toBe(403);
    expect((await call(postUsers, apiRequest("/users", { key: t.key, body: {} }))).status).toBe(405);
  });
});

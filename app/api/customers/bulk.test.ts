import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as upsertCustomerRoute } from "@/app/api/customers/route";
import { GET as customerActivityRoute } from "@/app/api/customers/[id]/activity/route";
import { POST as bulkRoute } from "@/app/api/customers/bulk/route";
import { POST as undoRoute } from "@/app/api/customers/bulk/[id]/undo/route";
import { POST as bulkLeadsRoute } from "@/app/api/leads/bulk/route";
import { POST as upsertLeadRoute } from "@/app/api/leads/route";
import { bulkCustomersResponseSchema, undoBulkCustomersResponseSchema } from "@/lib/schemas/customer-bulk";
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

const bulk = async (auth: Auth, body: unknown) => {
  const res = await call<Body>(bulkRoute, apiRequest("/customers/bulk", { ...auth, method: "POST", body }));
  if (res.status === 200) bulkCustomersResponseSchema.parse(res.body);
  return res;
};

const undo = async (auth: Auth, id: unknown) => {
  const path = `/customers/bulk/${String(id)}/undo`;
  const res = await call<Body>(undoRoute, apiRequest(path, { ...auth, method: "POST" }), { id: String(id) });
  if (res.status === 200) undoBulkCustomersResponseSchema.parse(res.body);
  return res;
};

async function tenantWithCustomers(count: number) {
  const company = await createCompany(database.db);
  const { key } = await createApiKey(database.db, company.id);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await call<Body>(
      upsertCustomerRoute,
      apiRequest("/customers", { key, body: { first_name: `Bulk ${i}`, email: `bulk${i}@example.com` } }),
    );
    ids.push(res.body.id as string);
  }
  return { companyId: company.id, key, ids };
}

const archivedOf = async (companyId: string) =>
  (
    await database.db.execute<{ id: string; archived: boolean; archived_at: string | null }>(
      sql`select id, archived, archived_at from customers where company_id = ${companyId} order by id`,
    )
  ).rows;

describe(`POST /customers/bulk (${testEngine()})`, () => {
  it("archives the named customers once each, records it, and its undo restores them", async () => {
    const t = await tenantWithCustomers(3);
    const [a, b, c] = t.ids as [string, string, string];
    // b is archived already: the bulk archive leaves it (and its time) as it was.
    await bulk({ key: t.key }, { ids: [b], action: { type: "archive" } });
    const before = await archivedOf(t.companyId);

    const res = await bulk({ key: t.key }, { ids: [a, b, c, a], action: { type: "archive" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "success", matched: 3, changed: 2 });
    expect(res.body.changed_ids).toEqual([a, c].sort());
    const after = await archivedOf(t.companyId);
    expect(after.every((row) => row.archived)).toBe(true);
    expect(after.find((row) => row.id === b)?.archived_at).toEqual(
      before.find((row) => row.id === b)?.archived_at,
    );

    const log = await call<Body>(
      customerActivityRoute,
      apiRequest(`/customers/${a}/activity`, { key: t.key }),
      { id: a },
    );
    expect((log.body.data as { type: string }[]).map((entry) => entry.type)).toEqual(["archived", "created"]);

    expect(res.body.undo).toEqual({ method: "POST", path: `/customers/bulk/${res.body.id as string}/undo` });

    const undone = await undo({ key: t.key }, res.body.id);
    expect([undone.status, undone.body]).toEqual([
      200,
      { status: "success", id: res.body.id, restored: 2, skipped: 0, skipped_ids: [] },
    ]);
    expect(await archivedOf(t.companyId)).toEqual(before);
    const logAfter = await call<Body>(
      customerActivityRoute,
      apiRequest(`/customers/${a}/activity`, { key: t.key }),
      { id: a },
    );
    expect((logAfter.body.data as { type: string }[]).map((entry) => entry.type)).toEqual([
      "unarchived",
      "archived",
      "created",
    ]);

    // Once only, as the leads' undo.
    const again = await undo({ key: t.key }, res.body.id);
    expect([again.status, again.body.error_code]).toEqual([409, "CONFLICT"]);
    expect(await archivedOf(t.companyId)).toEqual(before);
  });

  it("undoes an unarchive exactly: each customer gets its archived_at back", async () => {
    const t = await tenantWithCustomers(2);
    await bulk({ key: t.key }, { ids: t.ids, action: { type: "archive" } });
    const before = await archivedOf(t.companyId);
    const res = await bulk({ key: t.key }, { ids: t.ids, action: { type: "unarchive" } });
    expect(res.body).toMatchObject({ matched: 2, changed: 2 });
    expect((await archivedOf(t.companyId)).every((row) => !row.archived && row.archived_at === null)).toBe(
      true,
    );
    const undone = await undo({ key: t.key }, res.body.id);
    expect(undone.body).toMatchObject({ restored: 2, skipped: 0, skipped_ids: [] });
    expect(await archivedOf(t.companyId)).toEqual(before);
  });

  it("undo restores only the customers still as the operation left them, and lists the others", async () => {
    const t = await tenantWithCustomers(3);
    const [a, b, c] = t.ids as [string, string, string];
    await bulk({ key: t.key }, { ids: [c], action: { type: "archive" } });
    const cArchivedAt = (await archivedOf(t.companyId)).find((row) => row.id === c)?.archived_at;
    const unarchived = await bulk({ key: t.key }, { ids: t.ids, action: { type: "unarchive" } });
    expect(unarchived.body).toMatchObject({ changed: 1 });
    const archived = await bulk({ key: t.key }, { ids: [a, b], action: { type: "archive" } });
    // Since the archive: a is unarchived and archived again (a later archive, its own time), b is
    // unarchived. Neither holds what the operation set any more: the undo leaves both as they are.
    await bulk({ key: t.key }, { ids: [a, b], action: { type: "unarchive" } });
    await bulk({ key: t.key }, { ids: [a], action: { type: "archive" } });
    const before = await archivedOf(t.companyId);
    const undone = await undo({ key: t.key }, archived.body.id);
    expect([undone.status, undone.body]).toEqual([
      200,
      { status: "success", id: archived.body.id, restored: 0, skipped: 2, skipped_ids: [a, b].sort() },
    ]);
    expect(await archivedOf(t.companyId)).toEqual(before);
    // The unarchive's undo: c is still active, so it is archived again with its old time.
    const undoneUnarchive = await undo({ key: t.key }, unarchived.body.id);
    expect(undoneUnarchive.body).toMatchObject({ restored: 1, skipped: 0, skipped_ids: [] });
    expect((await archivedOf(t.companyId)).find((row) => row.id === c)).toEqual({
      id: c,
      archived: true,
      archived_at: cArchivedAt,
    });
  });

  it("selects by the list's filter: needs the read scope, refuses unknown keys and an empty filter", async () => {
    const t = await tenantWithCustomers(3);
    const action = { type: "archive" };
    const before = await archivedOf(t.companyId);
    const writeOnly = await createApiKey(database.db, t.companyId, { scopes: ["customers:write"] });
    const byFilter = { filter: { search: "bulk1@" }, action };
    const refused = await bulk({ key: writeOnly.key }, byFilter);
    expect([refused.status, refused.body.error_code, refused.body.message]).toEqual([
      403,
      "INSUFFICIENT_SCOPE",
      "Insufficient scope: this endpoint also requires the leads:read scope",
    ]);
    for (const [body, field, text] of [
      [{ filter: { stauts: "inactive" }, action }, "filter", '"stauts"'],
      [{ filter: {}, action }, "filter", '"all": true'],
      [{ filter: { archived: true }, action }, "filter", '"all": true'],
      [{ filter: { status: "active" }, all: true, action }, "all", "empty filter"],
      [{ ids: t.ids, all: true, action }, "all", "not with ids"],
    ] as const) {
      const res = await bulk({ key: t.key }, body);
      const details = res.body.details as { field: string; message: string }[];
      expect([res.status, details.map((d) => d.field)], JSON.stringify(body)).toEqual([400, [field]]);
      expect(details[0]!.message).toContain(text);
    }
    expect(await archivedOf(t.companyId)).toEqual(before);

    const readWrite = await createApiKey(database.db, t.companyId, {
      scopes: ["customers:read", "customers:write"],
    });
    const one = await bulk({ key: readWrite.key }, byFilter);
    expect([one.status, one.body.matched, one.body.changed_ids]).toEqual([200, 1, [t.ids[1]]]);
    const every = await bulk({ key: t.key }, { filter: {}, all: true, action });
    expect(every.body).toMatchObject({ matched: 2, changed: 2 });
    expect((await archivedOf(t.companyId)).every((row) => row.archived)).toBe(true);
    expect((await undo({ key: t.key }, every.body.id)).body).toMatchObject({ restored: 2, skipped: 0 });
  });

  it("undo: only by its author, an admin or a manager, within 24 hours", async () => {
    const t = await tenantWithCustomers(2);
    const users = {
      rep: await createUser(database.db, t.companyId, { role: "sales_rep" }),
      otherRep: await createUser(database.db, t.companyId, { role: "sales_rep" }),
      manager: await createUser(database.db, t.companyId, { role: "manager" }),
      admin: await createUser(database.db, t.companyId, { role: "admin" }),
    };
    const cookie = async (user: keyof typeof users) => ({
      cookie: await createSessionCookie(database.db, users[user]),
    });
    const otherKey = await createApiKey(database.db, t.companyId, { scopes: ["customers:write"] });
    const body = { ids: t.ids, action: { type: "archive" } };
    const byRep = await bulk(await cookie("rep"), body);
    for (const auth of [await cookie("otherRep"), { key: otherKey.key }, { key: t.key }]) {
      const refused = await undo(auth, byRep.body.id);
      expect([refused.status, refused.body.error_code, refused.body.message]).toEqual([
        403,
        "FORBIDDEN",
        "Only the author of a bulk change, an admin or a manager may undo it",
      ]);
    }
    expect((await archivedOf(t.companyId)).every((row) => row.archived)).toBe(true);
    expect((await undo(await cookie("manager"), byRep.body.id)).status).toBe(200);
    const byKey = await bulk({ key: t.key }, body);
    expect((await undo(await cookie("admin"), byKey.body.id)).status).toBe(200);

    // 24 hours after the change, no one may undo it any more, its author included.
    const late = await bulk({ key: t.key }, body);
    const before = await archivedOf(t.companyId);
    await database.db.execute(
      sql`update lead_bulk_operations set created_at = now() - interval '24 hours 1 minute' where id = ${late.body.id}`,
    );
    for (const auth of [{ key: t.key }, await cookie("admin")]) {
      const expired = await undo(auth, late.body.id);
      expect([expired.status, expired.body.error_code]).toEqual([409, "CONFLICT"]);
      expect(expired.body.message).toMatch(/within 24 hours/);
    }
    expect(await archivedOf(t.companyId)).toEqual(before);
  });

  it("concurrent undos of one operation: exactly one restores, the others get a 409", async () => {
    const t = await tenantWithCustomers(3);
    const before = await archivedOf(t.companyId);
    const res = await bulk({ key: t.key }, { ids: t.ids, action: { type: "archive" } });
    const results = await Promise.all(Array.from({ length: 4 }, () => undo({ key: t.key }, res.body.id)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(results.find((r) => r.status === 200)?.body).toMatchObject({ restored: 3, skipped: 0 });
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.body).toMatchObject({
        error_code: "CONFLICT",
        message: "This bulk operation has already been undone",
      });
    }
    expect(await archivedOf(t.companyId)).toEqual(before);
    const [entries] = (
      await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from record_activity where company_id = ${t.companyId} and type = 'unarchived'`,
      )
    ).rows;
    expect(entries?.n).toBe(3);
  });

  it("undoes an operation that changed nothing: nothing to restore", async () => {
    const t = await tenantWithCustomers(1);
    const res = await bulk({ key: t.key }, { ids: t.ids, action: { type: "unarchive" } });
    expect(res.body).toMatchObject({ matched: 1, changed: 0, changed_ids: [] });
    const undone = await undo({ key: t.key }, res.body.id);
    expect([undone.status, undone.body.restored]).toEqual([200, 0]);
  });

  it("undo: an unknown id, another company's operation or a leads' one is not found", async () => {
    const t = await tenantWithCustomers(1);
    const other = await tenantWithCustomers(1);
    const theirs = await bulk({ key: other.key }, { ids: other.ids, action: { type: "archive" } });
    const lead = await call<Body>(
      upsertLeadRoute,
      apiRequest("/leads", { key: t.key, body: { name: "Bulk lead" } }),
    );
    const leadsBulk = await call<Body>(
      bulkLeadsRoute,
      apiRequest("/leads/bulk", { key: t.key, body: { ids: [lead.body.id], action: { type: "archive" } } }),
    );
    expect(leadsBulk.status).toBe(200);
    for (const id of ["blk_missing", theirs.body.id, leadsBulk.body.id]) {
      const res = await undo({ key: t.key }, id);
      expect([res.status, res.body.message]).toEqual([404, "Bulk operation not found"]);
    }
    expect((await archivedOf(other.companyId)).every((row) => row.archived)).toBe(true);
  });

  it("refuses unknown ids (another company's too) and changes nothing", async () => {
    const t = await tenantWithCustomers(2);
    const other = await tenantWithCustomers(1);
    const res = await bulk(
      { key: t.key },
      { ids: [t.ids[0], other.ids[0], "cus_nope"], action: { type: "archive" } },
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: "VALIDATION_ERROR" });
    const fields = (res.body.details as { field: string }[]).map((d) => d.field).sort();
    expect(fields).toEqual(["ids[1]", "ids[2]"]);
    expect((await archivedOf(t.companyId)).some((row) => row.archived)).toBe(false);
    expect((await archivedOf(other.companyId)).some((row) => row.archived)).toBe(false);
  });

  it("validates the body", async () => {
    const t = await tenantWithCustomers(1);
    const empty = await bulk({ key: t.key }, { ids: [], action: { type: "archive" } });
    expect(empty.status).toBe(400);
    const badAction = await bulk({ key: t.key }, { ids: t.ids, action: { type: "delete" } });
    expect(badAction.status).toBe(400);
    const tooMany = await bulk(
      { key: t.key },
      { ids: Array.from({ length: 1001 }, (_, i) => `c${i}`), action: { type: "archive" } },
    );
    expect(tooMany.status).toBe(400);
  });

  it("needs customers:write: a technician may not, a sales rep may", async () => {
    const t = await tenantWithCustomers(1);
    const tech = await createUser(database.db, t.companyId, { role: "technician" });
    const rep = await createUser(database.db, t.companyId, { role: "sales_rep" });
    const body = { ids: t.ids, action: { type: "archive" } };
    expect((await bulk({ cookie: await createSessionCookie(database.db, tech) }, body)).status).toBe(403);
    const done = await bulk({ cookie: await createSessionCookie(database.db, rep) }, body);
    expect(done.status).toBe(200);
    expect((await undo({ cookie: await createSessionCookie(database.db, tech) }, done.body.id)).status).toBe(
      403,
    );
    const readOnly = await createApiKey(database.db, t.companyId, { scopes: ["customers:read"] });
    expect((await undo({ key: readOnly.key }, done.body.id)).status).toBe(403);
    expect((await undo({ cookie: await createSessionCookie(database.db, rep) }, done.body.id)).status).toBe(
      200,
    );
  });
});

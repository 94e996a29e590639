import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as bulkRoute } from "@/app/api/leads/bulk/route";
import { POST as undoRoute } from "@/app/api/leads/bulk/[id]/undo/route";
import { POST as archiveRoute } from "@/app/api/leads/[id]/archive/route";
import { POST as convertRoute } from "@/app/api/leads/[id]/convert/route";
import { POST as upsertLeadRoute } from "@/app/api/leads/route";
import { POST as unarchiveRoute } from "@/app/api/leads/[id]/unarchive/route";
import { leads, recordActivity } from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { undoBulkLeadsResponseSchema, UNDO_SKIPPED_IDS_LISTED } from "@/lib/schemas/lead-bulk";
import {
  apiRequest,
  call,
  createApiKey,
  createSessionCookie,
  createTenant,
  createUser,
} from "@/lib/testing/factories";
import { connectWithLockTimeout, setupTestDatabase, testEngine } from "@/lib/testing/test-database";

/*
 * Issue #54 (Safety II), bulk changes: a selection by filter needs the list's read scope, a filter
 * is never half-read, and an undo is its author's (or an admin's or manager's), within 24 hours,
 * and never reverts a later write; concurrent undos and an undo racing a bulk change stay exact.
 */

const database = setupTestDatabase();

type Auth = { key?: string; cookie?: string };
type ErrorBody = { error_code?: string; message: string; details?: { field: string; message: string }[] };
type BulkBody = { id: string; matched: number; changed: number };
type UndoBody = { restored: number; skipped: number; skipped_ids: string[] };

const bulk = (auth: Auth, body: unknown) =>
  call<BulkBody & ErrorBody>(bulkRoute, apiRequest("/leads/bulk", { ...auth, body }));
const undo = async (auth: Auth, id: string) => {
  const res = await call<UndoBody & ErrorBody>(
    undoRoute,
    apiRequest(`/leads/bulk/${id}/undo`, { ...auth, method: "POST" }),
    { id },
  );
  if (res.status === 200) undoBulkLeadsResponseSchema.strict().parse(res.body);
  return res;
};
const onLead = (handler: typeof archiveRoute, auth: Auth, id: string, path: string) =>
  call(handler, apiRequest(`/leads/${id}/${path}`, { ...auth, method: "POST" }), { id });

/** A tenant with `count` active leads in stage "new", ids in order. */
async function tenant(count: number) {
  const { companyId, key } = await createTenant(database.db);
  const ids = Array.from({ length: count }, () => newId(ID_PREFIX.lead)).sort();
  await database.db.insert(leads).values(
    ids.map((id, i) => ({
      companyId,
      id,
      name: `Safe ${i}`,
      phone: `555010${String(i).padStart(4, "0")}`,
      stage: "new",
      tags: ["base"],
    })),
  );
  return { companyId, key, ids };
}

async function rows(companyId: string) {
  return database.db
    .select({
      id: leads.id,
      stage: leads.stage,
      tags: leads.tags,
      assignedTo: leads.assignedTo,
      archived: leads.archived,
      archivedAt: leads.archivedAt,
    })
    .from(leads)
    .where(eq(leads.companyId, companyId))
    .orderBy(asc(leads.id));
}
const stages = async (companyId: string) => (await rows(companyId)).map((r) => r.stage);

describe(`POST /api/leads/bulk safety (${testEngine()})`, () => {
  it("a selection by filter needs leads:read: a write-only key gets a 403 naming it, no count", async () => {
    const t = await tenant(3);
    const writeOnly = await createApiKey(database.db, t.companyId, { scopes: ["leads:write"] });
    const before = await rows(t.companyId);
    for (const selection of [
      { filter: { search: "555010" } },
      { filter: { stage: "new" } },
      { filter: {}, all: true },
    ]) {
      const res = await bulk(
        { key: writeOnly.key },
        { ...selection, action: { type: "set_stage", stage: "quoted" } },
      );
      expect([res.status, res.body.error_code, res.body.message]).toEqual([
        403,
        "INSUFFICIENT_SCOPE",
        "Insufficient scope: this endpoint also requires the leads:read scope",
      ]);
      expect(res.body).not.toHaveProperty("matched");
    }
    expect(await rows(t.companyId)).toEqual(before);
    // By ids it reads nothing it was not given: leads:write is enough.
    const byIds = await bulk(
      { key: writeOnly.key },
      { ids: t.ids, action: { type: "set_stage", stage: "x" } },
    );
    expect([byIds.status, byIds.body.changed]).toEqual([200, 3]);
    const readWrite = await createApiKey(database.db, t.companyId, { scopes: ["leads:read", "leads:write"] });
    const byFilter = await bulk(
      { key: readWrite.key },
      { filter: { search: "555010" }, action: { type: "set_stage", stage: "y" } },
    );
    expect([byFilter.status, byFilter.body.matched]).toEqual([200, 3]);

    // The OpenAPI document says it, from the same declaration.
    const document = buildOpenApiDocument([["POST", "/leads/bulk", { POST: bulkRoute }]]) as {
      paths: Record<string, { post: { description: string; "x-input-scopes": unknown } }>;
    };
    const operation = document.paths["/leads/bulk"]!.post;
    expect(operation["x-input-scopes"]).toEqual([
      { when: "A selection by `filter`", scopes: ["leads:read"] },
    ]);
    expect(operation.description).toContain(
      "A selection by `filter` needs `leads:read` as well: without it a 403 INSUFFICIENT_SCOPE names it.",
    );
  });

  it("a filter key GET /leads does not know is a 400 naming it, and nothing changes", async () => {
    const t = await tenant(3);
    const before = await rows(t.companyId);
    for (const [filter, named] of [
      [{ stag: "won" }, '"stag"'],
      [{ stage: "new", Tags: ["vip"] }, '"Tags"'],
      [{ search: "safe", page: 2, limit: 1 }, '"page", "limit"'],
    ] as const) {
      const res = await bulk({ key: t.key }, { filter, action: { type: "set_stage", stage: "won" } });
      expect([res.status, res.body.error_code], JSON.stringify(filter)).toEqual([400, "VALIDATION_ERROR"]);
      expect(res.body.details).toHaveLength(1);
      expect(res.body.details![0]!.field).toBe("filter");
      expect(res.body.details![0]!.message).toContain(named);
    }
    expect(await rows(t.companyId)).toEqual(before);
  });

  it('a filter that narrows nothing needs "all": true; all goes with nothing else', async () => {
    const t = await tenant(3);
    await onLead(archiveRoute, { key: t.key }, t.ids[2]!, "archive");
    const before = await rows(t.companyId);
    const action = { type: "set_stage", stage: "won" };
    const cases: [unknown, string][] = [
      [{ filter: {}, action }, "filter"],
      [{ filter: { archived: true }, action }, "filter"],
      [{ filter: { search: "   ", tags: [] }, action }, "filter"],
      [{ filter: {}, all: false, action }, "filter"],
      [{ ids: t.ids, all: true, action }, "all"],
      [{ filter: { stage: "new" }, all: true, action }, "all"],
    ];
    for (const [body, field] of cases) {
      const res = await bulk({ key: t.key }, body);
      expect([res.status, res.body.details?.map((d) => d.field)], JSON.stringify(body)).toEqual([
        400,
        [field],
      ]);
    }
    const empty = await bulk({ key: t.key }, { filter: {}, action });
    expect(empty.body.details![0]!.message).toMatch(/"all": true/);
    expect(await rows(t.companyId)).toEqual(before);
    // Confirmed: every active lead (the archived one too with archived: true).
    const every = await bulk({ key: t.key }, { filter: {}, all: true, action });
    expect([every.status, every.body.matched, every.body.changed]).toEqual([200, 2, 2]);
    const withArchived = await bulk(
      { key: t.key },
      { filter: { archived: true }, all: true, action: { type: "add_tags", tags: ["all"] } },
    );
    expect([withArchived.status, withArchived.body.matched]).toEqual([200, 3]);
  });

  it("undo: only by its author, an admin or a manager (403 otherwise)", async () => {
    const t = await tenant(2);
    const user = (role: "admin" | "manager" | "sales_rep") => createUser(database.db, t.companyId, { role });
    const [admin, manager, rep, otherRep] = [
      await user("admin"),
      await user("manager"),
      await user("sales_rep"),
      await user("sales_rep"),
    ];
    const as = async (u: { companyId: string; id: string }) => ({
      cookie: await createSessionCookie(database.db, u),
    });
    const otherKey = await createApiKey(database.db, t.companyId);
    const byAdmin = await bulk(await as(admin), { ids: t.ids, action: { type: "set_stage", stage: "won" } });
    for (const auth of [await as(rep), { key: otherKey.key }, { key: t.key }]) {
      const refused = await undo(auth, byAdmin.body.id);
      expect([refused.status, refused.body.error_code, refused.body.message]).toEqual([
        403,
        "FORBIDDEN",
        "Only the author of a bulk change, an admin or a manager may undo it",
      ]);
    }
    expect(await stages(t.companyId)).toEqual(["won", "won"]);
    expect((await undo(await as(manager), byAdmin.body.id)).status).toBe(200);
    expect(await stages(t.companyId)).toEqual(["new", "new"]);

    const byRep = await bulk(await as(rep), { ids: t.ids, action: { type: "set_stage", stage: "lost" } });
    expect((await undo(await as(otherRep), byRep.body.id)).status).toBe(403);
    expect((await undo(await as(rep), byRep.body.id)).status).toBe(200);
    const byKey = await bulk({ key: t.key }, { ids: t.ids, action: { type: "set_stage", stage: "lost" } });
    expect((await undo(await as(rep), byKey.body.id)).status).toBe(403);
    expect((await undo(await as(admin), byKey.body.id)).status).toBe(200);
  });

  it("undo: within 24 hours of the change; after that a 409 and nothing changes", async () => {
    const t = await tenant(2);
    const ageBy = (id: string, interval: string) =>
      database.db.execute(
        sql`update lead_bulk_operations set created_at = created_at - ${interval}::interval
          where company_id = ${t.companyId} and id = ${id}`,
      );
    const recent = await bulk({ key: t.key }, { ids: t.ids, action: { type: "set_stage", stage: "won" } });
    await ageBy(recent.body.id, "23 hours 59 minutes");
    expect((await undo({ key: t.key }, recent.body.id)).body).toMatchObject({ restored: 2 });

    const old = await bulk({ key: t.key }, { ids: t.ids, action: { type: "add_tags", tags: ["old"] } });
    await ageBy(old.body.id, "24 hours 1 minute");
    const before = await rows(t.companyId);
    const admin = await createUser(database.db, t.companyId, { role: "admin" });
    for (const auth of [{ key: t.key }, { cookie: await createSessionCookie(database.db, admin) }]) {
      const expired = await undo(auth, old.body.id);
      expect([expired.status, expired.body.error_code, expired.body.message]).toEqual([
        409,
        "CONFLICT",
        "This bulk operation can no longer be undone: an undo is allowed within 24 hours of the change",
      ]);
    }
    expect(await rows(t.companyId)).toEqual(before);
  });

  it("undo restores a field only where it still holds the operation's value, and lists the others", async () => {
    const t = await tenant(4);
    const auth = { key: t.key };
    const [a, b, c, d] = t.ids as [string, string, string, string];

    // stage → convert (a gets the won stage) and an edit (b) → undo: only c and d go back to "new".
    const staged = await bulk(auth, { ids: t.ids, action: { type: "set_stage", stage: "quoted" } });
    expect((await onLead(convertRoute, auth, a, "convert")).status).toBe(201);
    await call(upsertLeadRoute, apiRequest("/leads", { ...auth, body: { id: b, stage: "lost" } }));
    const undoneStage = await undo(auth, staged.body.id);
    expect(undoneStage.body).toMatchObject({ restored: 2, skipped: 2, skipped_ids: [a, b] });
    expect(await stages(t.companyId)).toEqual(["won", "lost", "new", "new"]);

    // Tags: a tag added since (c) makes the lead's tags no longer the operation's.
    const tagged = await bulk(auth, { ids: [c, d], action: { type: "add_tags", tags: ["spring"] } });
    await call(upsertLeadRoute, apiRequest("/leads", { ...auth, body: { id: c, tags: ["later"] } }));
    expect((await undo(auth, tagged.body.id)).body).toMatchObject({ restored: 1, skipped_ids: [c] });
    expect((await rows(t.companyId)).map((r) => r.tags)).toEqual([
      ["base"],
      ["base"],
      ["base", "spring", "later"],
      ["base"],
    ]);

    // Owner: reassigned since (d) is kept.
    const rep = await createUser(database.db, t.companyId, { role: "sales_rep" });
    const other = await createUser(database.db, t.companyId, { role: "sales_rep" });
    const assigned = await bulk(auth, { ids: [c, d], action: { type: "assign", assigned_to: rep.id } });
    await call(upsertLeadRoute, apiRequest("/leads", { ...auth, body: { id: d, assigned_to: other.id } }));
    expect((await undo(auth, assigned.body.id)).body).toMatchObject({ restored: 1, skipped_ids: [d] });
    expect((await rows(t.companyId)).map((r) => r.assignedTo)).toEqual([null, null, null, other.id]);

    // Archive: unarchived and archived again since (c) is a later archive, kept; d is unarchived.
    const archived = await bulk(auth, { ids: [c, d], action: { type: "archive" } });
    await onLead(unarchiveRoute, auth, c, "unarchive");
    await onLead(archiveRoute, auth, c, "archive");
    const before = (await rows(t.companyId)).find((r) => r.id === c);
    expect((await undo(auth, archived.body.id)).body).toMatchObject({ restored: 1, skipped_ids: [c] });
    const after = await rows(t.companyId);
    expect(after.find((r) => r.id === c)).toEqual(before);
    expect(after.find((r) => r.id === d)).toMatchObject({ archived: false, archivedAt: null });
  });

  it(`skipped_ids lists the first ${UNDO_SKIPPED_IDS_LISTED} skipped leads, skipped counts them all`, async () => {
    const t = await tenant(UNDO_SKIPPED_IDS_LISTED + 3);
    const first = await bulk({ key: t.key }, { ids: t.ids, action: { type: "set_stage", stage: "quoted" } });
    await bulk({ key: t.key }, { ids: t.ids, action: { type: "set_stage", stage: "won" } });
    const res = await undo({ key: t.key }, first.body.id);
    expect(res.body).toMatchObject({
      restored: 0,
      skipped: UNDO_SKIPPED_IDS_LISTED + 3,
      skipped_ids: t.ids.slice(0, UNDO_SKIPPED_IDS_LISTED),
    });
    expect(new Set(await stages(t.companyId))).toEqual(new Set(["won"]));
  });

  it("concurrent undos of one operation: exactly one restores, the others get a 409", async () => {
    const t = await tenant(5);
    const res = await bulk({ key: t.key }, { ids: t.ids, action: { type: "set_stage", stage: "quoted" } });
    const results = await Promise.all(Array.from({ length: 4 }, () => undo({ key: t.key }, res.body.id)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    expect(results.find((r) => r.status === 200)!.body).toMatchObject({ restored: 5, skipped: 0 });
    for (const refused of results.filter((r) => r.status === 409)) {
      expect([refused.body.error_code, refused.body.message]).toEqual([
        "CONFLICT",
        "This bulk operation has already been undone",
      ]);
    }
    expect(await stages(t.companyId)).toEqual(t.ids.map(() => "new"));
    // Applied once: each lead has the bulk change's entry and one undo entry.
    const entries = await database.db
      .select({ id: recordActivity.recordId, n: sql<number>`count(*)::int` })
      .from(recordActivity)
      .where(
        and(
          eq(recordActivity.companyId, t.companyId),
          inArray(recordActivity.recordId, t.ids),
          eq(recordActivity.type, "updated"),
        ),
      )
      .groupBy(recordActivity.recordId);
    expect(entries.map((e) => e.n)).toEqual(t.ids.map(() => 2));
  });

  it("an undo racing a new bulk change of the same leads: consistent either way, no lost write", async () => {
    for (let round = 0; round < 3; round++) {
      const t = await tenant(6);
      const auth = { key: t.key };
      const first = await bulk(auth, { ids: t.ids, action: { type: "set_stage", stage: "quoted" } });
      // On PostgreSQL another connection holds the leads until both requests wait for them, so
      // they truly overlap; PGlite runs one transaction at a time, in either order.
      const holder = database.engine === "postgres" ? await connectWithLockTimeout(database) : undefined;
      if (holder) {
        await holder.query("begin");
        await holder.query("select 1 from leads where company_id = $1 order by id for update", [t.companyId]);
      }
      const racing = Promise.all([
        undo(auth, first.body.id),
        bulk(auth, { ids: t.ids, action: { type: "set_stage", stage: "lost" } }),
      ]);
      if (holder) {
        await waitForLockWaiters(holder, 2);
        await holder.query("commit");
        await holder.end();
      }
      const [undone, second] = await racing;
      expect([undone.status, second.status]).toEqual([200, 200]);
      // The later bulk change is never lost: every lead ends in its stage.
      expect(await stages(t.companyId)).toEqual(t.ids.map(() => "lost"));
      const undoFirst = undone.body.skipped === 0;
      // Either the undo went first (restored all, the change then moved "new" → "lost"), or the
      // change did ("quoted" → "lost", and the undo skipped every lead): nothing in between.
      expect(undone.body).toEqual(
        undoFirst
          ? { status: "success", id: first.body.id, restored: 6, skipped: 0, skipped_ids: [] }
          : { status: "success", id: first.body.id, restored: 0, skipped: 6, skipped_ids: t.ids },
      );
      expect(second.body.changed).toBe(6);
      // The second change saved what it replaced: its undo gives back exactly that.
      expect((await undo(auth, second.body.id)).body).toMatchObject({ restored: 6, skipped: 0 });
      expect(await stages(t.companyId)).toEqual(t.ids.map(() => (undoFirst ? "new" : "quoted")));
    }
  });
});

/** Waits until `count` other sessions wait for a lock (the racing requests, queued behind `holder`). */
async function waitForLockWaiters(
  holder: { query: (text: string) => Promise<{ rows: unknown[] }> },
  count: number,
) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { rows } = await holder.query(
      "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
    );
    if (rows.length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`expected ${count} requests waiting for the leads' locks`);
}

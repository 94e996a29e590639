import { and, asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as bulkRoute } from "@/app/api/leads/bulk/route";
import { POST as undoRoute } from "@/app/api/leads/bulk/[id]/undo/route";
import { GET as listLeadsRoute } from "@/app/api/leads/route";
import { GET as stageTotalsRoute } from "@/app/api/leads/stage-totals/route";
import type { Scope } from "@/lib/values/scopes";
import { leads, recordActivity } from "@/lib/db/schema";
import { leadFilter, type LeadFilterInput } from "@/lib/domain/leads/list-leads";
import { ID_PREFIX, newId } from "@/lib/ids";
import { bulkLeadsResponseSchema, BULK_IDS_MAX } from "@/lib/schemas/lead-bulk";
import { BULK_UPDATE_CHUNK } from "@/lib/domain/leads/bulk-leads";
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

type Auth = { key?: string; cookie?: string };
type ErrorBody = { error_code?: string; details?: { field: string; message: string }[] };
type BulkBody = { id: string; matched: number; changed: number; undo: { path: string } };

const bulk = (auth: Auth, body: unknown) =>
  call<BulkBody>(bulkRoute, apiRequest("/leads/bulk", { ...auth, body }));
const undo = (auth: Auth, id: string) =>
  call<{ restored: number }>(undoRoute, apiRequest(`/leads/bulk/${id}/undo`, { ...auth, method: "POST" }), {
    id,
  });
const fields = (res: { body: unknown }) => ((res.body as ErrorBody).details ?? []).map((d) => d.field);

/** A tenant with users and a spread of leads over stages, tags, owners and archived. */
async function bulkTenant(scopes?: readonly Scope[]) {
  const { companyId, key } = await createTenant(database.db, { scopes });
  const admin = await createUser(database.db, companyId, { role: "admin" });
  const rep = await createUser(database.db, companyId, { role: "sales_rep" });
  const rows: Partial<typeof leads.$inferInsert>[] = [
    {
      name: "Ann North",
      stage: "new",
      tags: ["vip"],
      assignedTo: rep.id,
      projectedValue: 100,
      followUpDate: new Date("2026-03-01T15:00:00Z"),
    },
    { name: "Bob North", stage: "new", tags: [], projectedValue: 50.25 },
    {
      name: "Cid South",
      stage: "won",
      tags: ["vip", "spring"],
      assignedTo: admin.id,
      followUpDate: new Date("2026-03-02T09:00:00Z"),
    },
    { name: "Dee South", stage: null, tags: ["spring"] },
    {
      name: "Eve North",
      stage: "new",
      tags: ["vip"],
      archived: true,
      archivedAt: new Date("2026-01-02T00:00:00Z"),
    },
  ];
  const ids: string[] = [];
  for (const [i, row] of rows.entries()) {
    const id = newId(ID_PREFIX.lead);
    ids.push(id);
    await database.db.insert(leads).values({
      ...row,
      companyId,
      id,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
      updatedAt: new Date("2026-01-01T00:00:00Z"),
    });
  }
  return { companyId, key, admin, rep, ids };
}

/** The columns a bulk action sets, and updated_at, of the tenant's leads by id. */
async function snapshot(companyId: string) {
  return database.db
    .select({
      id: leads.id,
      assignedTo: leads.assignedTo,
      stage: leads.stage,
      lostReason: leads.lostReason,
      tags: leads.tags,
      archived: leads.archived,
      archivedAt: leads.archivedAt,
      updatedAt: leads.updatedAt,
    })
    .from(leads)
    .where(eq(leads.companyId, companyId))
    .orderBy(asc(leads.id));
}
const withoutUpdatedAt = (rows: Awaited<ReturnType<typeof snapshot>>) =>
  rows.map((row) => ({ ...row, updatedAt: undefined }));

/**
 * The kept totals (the list's total and the board's stage totals, read from the counters) equal a
 * fresh count(*) of the leads matching the same filters.
 */
async function expectCountersExact(t: { companyId: string; key: string }) {
  const filters: (Partial<LeadFilterInput> & { query: string })[] = [
    { query: "" },
    { query: "?archived=true", archived: true },
    { query: "?stage=new", stage: "new" },
    { query: "?stage=won&archived=true", stage: "won", archived: true },
    { query: "?tags=vip", tags: ["vip"] },
    { query: "?tags=vip,added&archived=true", tags: ["vip", "added"], archived: true },
    { query: "?tags=added&stage=lost", tags: ["added"], stage: "lost" },
  ];
  for (const { query, ...filter } of filters) {
    const listed = await call<{ pagination: { total: number } }>(
      listLeadsRoute,
      apiRequest(`/leads${query}`, { key: t.key }),
    );
    const [fresh] = (
      await database.db.execute<{ n: number; v: string | number }>(
        sql`select count(*)::int as n, coalesce(sum(projected_value), 0)::float8 as v from leads
          where ${leadFilter(t.companyId, { archived: false, ...filter })}`,
      )
    ).rows;
    expect(listed.body.pagination.total, query).toBe(fresh!.n);
    const board = await call<{ totals: { count: number; projected_value: number } }>(
      stageTotalsRoute,
      apiRequest(`/leads/stage-totals${query}`, { key: t.key }),
    );
    expect(board.body.totals, query).toEqual({ count: fresh!.n, projected_value: Number(fresh!.v) });
  }
}

describe(`POST /api/leads/bulk (${testEngine()})`, () => {
  it("applies each action by ids, counts what changed, keeps the counters exact, and undo restores exactly", async () => {
    const t = await bulkTenant();
    const auth = { key: t.key };
    const actions = [
      { type: "assign", assigned_to: t.admin.id },
      { type: "assign", assigned_to: null },
      { type: "set_stage", stage: "lost" },
      { type: "set_stage", stage: null },
      { type: "add_tags", tags: ["added", "vip"] },
      { type: "archive" },
      { type: "unarchive" },
    ];
    for (const action of actions) {
      const before = await snapshot(t.companyId);
      const res = await bulk(auth, { ids: t.ids, action });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const body = bulkLeadsResponseSchema.strict().parse(res.body);
      expect(body.matched).toBe(5);
      expect(body.undo).toEqual({ method: "POST", path: `/leads/bulk/${body.id}/undo` });
      const after = await snapshot(t.companyId);
      const changed = after.filter(
        (row, i) =>
          JSON.stringify(withoutUpdatedAt([row])) !== JSON.stringify(withoutUpdatedAt([before[i]!])),
      );
      expect(body.changed, JSON.stringify(action)).toBe(changed.length);
      // Only the changed leads get a new updated_at.
      for (const [i, row] of after.entries()) {
        const moved = row.updatedAt.getTime() !== before[i]!.updatedAt.getTime();
        expect(moved, `${JSON.stringify(action)} ${row.id}`).toBe(changed.some((c) => c.id === row.id));
      }
      if (action.type === "assign")
        expect(after.every((r) => r.assignedTo === action.assigned_to)).toBe(true);
      if (action.type === "set_stage") expect(after.every((r) => r.stage === action.stage)).toBe(true);
      if (action.type === "archive") expect(after.every((r) => r.archived && r.archivedAt)).toBe(true);
      if (action.type === "unarchive") expect(after.every((r) => !r.archived && !r.archivedAt)).toBe(true);
      await expectCountersExact(t);

      // Undo, then check the values are back exactly; then redo, to leave the action applied.
      const undone = await undo(auth, body.id);
      expect([undone.status, undone.body.restored]).toEqual([200, body.changed]);
      expect(withoutUpdatedAt(await snapshot(t.companyId))).toEqual(withoutUpdatedAt(before));
      await expectCountersExact(t);
      const again = await undo(auth, body.id);
      expect([again.status, (again.body as ErrorBody).error_code]).toEqual([409, "CONFLICT"]);
      expect((await bulk(auth, { ids: t.ids, action })).status).toBe(200);
    }
    const tags = (await snapshot(t.companyId)).map((r) => r.tags);
    // Merged as create-or-update merges: the stored tags, then the new ones not yet present.
    expect(tags).toContainEqual(["vip", "spring", "added"]);
    expect(tags).toContainEqual(["added", "vip"]);
  });

  it("changes and restores more leads than one statement updates, all of them", async () => {
    const t = await bulkTenant();
    const count = BULK_UPDATE_CHUNK * 2 + 7;
    const many = Array.from({ length: count }, (_, i) => ({
      companyId: t.companyId,
      id: newId(ID_PREFIX.lead),
      name: `Many ${i}`,
      stage: i % 3 === 0 ? "won" : "new",
    }));
    for (let i = 0; i < many.length; i += 1000)
      await database.db.insert(leads).values(many.slice(i, i + 1000));
    const ids = many.map((l) => l.id);
    const stages = async () => {
      const rows = await database.db
        .select({ id: leads.id, stage: leads.stage })
        .from(leads)
        .where(and(eq(leads.companyId, t.companyId), sql`${leads.name} like 'Many %'`));
      return new Map(rows.map((r) => [r.id, r.stage]));
    };
    const before = await stages();
    const res = await bulk({ key: t.key }, { ids, action: { type: "set_stage", stage: "won" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const changed = many.filter((l) => l.stage !== "won").length;
    expect([res.body.matched, res.body.changed]).toEqual([count, changed]);
    expect([...(await stages()).values()].every((stage) => stage === "won")).toBe(true);
    await expectCountersExact(t);
    const undone = await undo({ key: t.key }, res.body.id);
    expect([undone.status, undone.body.restored], JSON.stringify(undone.body)).toEqual([200, changed]);
    expect(await stages()).toEqual(before);
    await expectCountersExact(t);
  });

  it("a move to a stage that is not lost clears the lost reason, as one lead's move does; undo restores it", async () => {
    const t = await bulkTenant();
    const auth = { key: t.key };
    const [ann, bob, cid] = t.ids as [string, string, string];
    const lostReasons = async () =>
      new Map(
        (
          await database.db
            .select({ id: leads.id, stage: leads.stage, lostReason: leads.lostReason })
            .from(leads)
            .where(eq(leads.companyId, t.companyId))
        ).map((r) => [r.id, `${r.stage}/${r.lostReason}`]),
      );
    await database.db
      .update(leads)
      .set({ stage: "lost", lostReason: "Chose a competitor" })
      .where(and(eq(leads.companyId, t.companyId), eq(leads.id, ann)));
    await database.db
      .update(leads)
      .set({ stage: "lost", lostReason: "Too expensive" })
      .where(and(eq(leads.companyId, t.companyId), eq(leads.id, bob)));
    // A lead already in the new stage that still has a reason: the move clears it too.
    await database.db
      .update(leads)
      .set({ stage: "contacted", lostReason: "Stale" })
      .where(and(eq(leads.companyId, t.companyId), eq(leads.id, cid)));

    // To a lost stage (named by its label): the reasons stay, and the lost leads are unchanged.
    const toLost = await bulk(auth, { ids: [ann, bob], action: { type: "set_stage", stage: "Lost" } });
    expect([toLost.status, toLost.body.changed]).toEqual([200, 0]);
    const before = await lostReasons();
    expect([before.get(ann), before.get(bob), before.get(cid)]).toEqual([
      "lost/Chose a competitor",
      "lost/Too expensive",
      "contacted/Stale",
    ]);

    const reopened = await bulk(auth, {
      ids: [ann, bob, cid],
      action: { type: "set_stage", stage: "contacted" },
    });
    expect([reopened.status, reopened.body.matched, reopened.body.changed]).toEqual([200, 3, 3]);
    const after = await lostReasons();
    expect([after.get(ann), after.get(bob), after.get(cid)]).toEqual([
      "contacted/null",
      "contacted/null",
      "contacted/null",
    ]);
    // The activity says so, as for one lead's move.
    const logged = await database.db
      .select({ id: recordActivity.recordId, changes: recordActivity.changes })
      .from(recordActivity)
      .where(and(eq(recordActivity.companyId, t.companyId), eq(recordActivity.recordId, ann)));
    expect(logged.map((a) => a.changes)).toContainEqual([
      { field: "stage", from: "lost", to: "contacted" },
      { field: "lost_reason", from: "Chose a competitor", to: null },
    ]);
    const cidLogged = await database.db
      .select({ changes: recordActivity.changes })
      .from(recordActivity)
      .where(and(eq(recordActivity.companyId, t.companyId), eq(recordActivity.recordId, cid)));
    expect(cidLogged.map((a) => a.changes)).toContainEqual([
      { field: "lost_reason", from: "Stale", to: null },
    ]);

    const undone = await undo(auth, reopened.body.id);
    expect([undone.status, undone.body.restored]).toEqual([200, 3]);
    expect(await lostReasons()).toEqual(before);

    // Clearing the stage clears the reason too; other actions leave it alone.
    await bulk(auth, { ids: [ann], action: { type: "assign", assigned_to: t.admin.id } });
    expect((await lostReasons()).get(ann)).toBe("lost/Chose a competitor");
    await bulk(auth, { ids: [ann], action: { type: "set_stage", stage: null } });
    expect((await lostReasons()).get(ann)).toBe("null/null");
    await expectCountersExact(t);
  });

  it("stores a pipeline stage named by its label or in another case as its key", async () => {
    const t = await bulkTenant();
    const auth = { key: t.key };
    for (const [given, stored] of [
      ["Quoted", "quoted"],
      ["  WON ", "won"],
      ["Site visit", "Site visit"],
    ] as const) {
      const res = await bulk(auth, { ids: t.ids, action: { type: "set_stage", stage: given } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await snapshot(t.companyId)).map((r) => r.stage)).toEqual(t.ids.map(() => stored));
    }
  });

  it("selects by the list's filters, with the list's meaning", async () => {
    const t = await bulkTenant();
    const cookie = await createSessionCookie(database.db, t.rep);
    const cases: { filter: Record<string, unknown>; query: string; auth: Auth }[] = [
      { filter: {}, query: "", auth: { key: t.key } },
      { filter: { archived: true }, query: "?archived=true", auth: { key: t.key } },
      { filter: { search: "" }, query: "?search=", auth: { key: t.key } },
      { filter: { search: "north" }, query: "?search=north", auth: { key: t.key } },
      { filter: { search: "no" }, query: "?search=no", auth: { key: t.key } },
      { filter: { stage: "new", tags: ["vip"] }, query: "?stage=new&tags=vip", auth: { key: t.key } },
      { filter: { assigned_to: "none" }, query: "?assigned_to=none", auth: { key: t.key } },
      { filter: { assigned_to: t.admin.id }, query: `?assigned_to=${t.admin.id}`, auth: { key: t.key } },
      { filter: { follow_up_to: "2026-03-01" }, query: "?follow_up_to=2026-03-01", auth: { key: t.key } },
      {
        filter: { follow_up_from: "2026-03-01T16:00:00Z", follow_up_to: "2026-03-02" },
        query: "?follow_up_from=2026-03-01T16:00:00Z&follow_up_to=2026-03-02",
        auth: { key: t.key },
      },
      {
        filter: { assigned_to: "me", archived: true },
        query: "?assigned_to=me&archived=true",
        auth: { cookie },
      },
    ];
    for (const { filter, query, auth } of cases) {
      const listed = await call<{ data: { id: string }[] }>(
        listLeadsRoute,
        apiRequest(`/leads${query}`, auth),
      );
      const expected = listed.body.data.map((l) => l.id).sort();
      const tag = `picked-${expected.length}-${Math.random().toString(36).slice(2, 6)}`;
      // A filter that narrows nothing selects every lead: it must say so with all: true.
      const everyLead = ["", "?archived=true", "?search="].includes(query);
      const res = await bulk(auth, {
        filter,
        ...(everyLead ? { all: true } : {}),
        action: { type: "add_tags", tags: [tag] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect([res.body.matched, res.body.changed], query).toEqual([expected.length, expected.length]);
      const tagged = (await snapshot(t.companyId)).filter((r) => r.tags.includes(tag)).map((r) => r.id);
      expect(tagged.sort(), query).toEqual(expected);
    }
    await expectCountersExact(t);
  });

  it("is all or nothing: an unknown id, another company's lead, or too many tags change nothing", async () => {
    const t = await bulkTenant();
    const other = await bulkTenant();
    const before = await snapshot(t.companyId);
    const unknown = await bulk(
      { key: t.key },
      { ids: [...t.ids, "lead_missing"], action: { type: "archive" } },
    );
    expect([unknown.status, (unknown.body as ErrorBody).error_code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(fields(unknown)).toEqual(["ids[5]"]);
    const foreign = await bulk(
      { key: t.key },
      { ids: [other.ids[0], t.ids[0]], action: { type: "set_stage", stage: "x" } },
    );
    expect([foreign.status, fields(foreign)]).toEqual([400, ["ids[0]"]]);
    expect(await snapshot(t.companyId)).toEqual(before);
    const crowded = Array.from({ length: 99 }, (_, i) => `t${i}`);
    await database.db
      .update(leads)
      .set({ tags: crowded })
      .where(and(eq(leads.companyId, t.companyId), eq(leads.id, t.ids[1]!)));
    const snapshotBefore = await snapshot(t.companyId);
    const tooMany = await bulk(
      { key: t.key },
      { ids: t.ids, action: { type: "add_tags", tags: ["a", "b"] } },
    );
    expect([tooMany.status, fields(tooMany)]).toEqual([400, ["action.tags"]]);
    expect(await snapshot(t.companyId)).toEqual(snapshotBefore);
    await expectCountersExact(t);
  });

  it("validates the body: ids or filter, the action, owners of the company, me only with a session", async () => {
    const t = await bulkTenant();
    const other = await bulkTenant();
    const before = await snapshot(t.companyId);
    const cases: [unknown, string[]][] = [
      [{ action: { type: "archive" } }, ["ids", "filter"]],
      [{ ids: t.ids, filter: {}, action: { type: "archive" } }, ["ids", "filter"]],
      [{ ids: [], action: { type: "archive" } }, ["ids"]],
      [
        { ids: Array.from({ length: BULK_IDS_MAX + 1 }, (_, i) => `lead_${i}`), action: { type: "archive" } },
        ["ids"],
      ],
      [{ ids: t.ids, action: { type: "delete" } }, ["action.type"]],
      [{ ids: t.ids, action: { type: "add_tags", tags: [] } }, ["action.tags"]],
      [{ ids: t.ids, action: { type: "assign", assigned_to: other.rep.id } }, ["action.assigned_to"]],
      [{ ids: t.ids, action: { type: "assign", assigned_to: "usr_nobody" } }, ["action.assigned_to"]],
      [{ filter: { assigned_to: "me" }, action: { type: "archive" } }, ["filter.assigned_to"]],
      [{ filter: { search: "x".repeat(256) }, action: { type: "archive" } }, ["filter.search"]],
    ];
    for (const [body, expected] of cases) {
      const res = await bulk({ key: t.key }, body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(fields(res).sort(), JSON.stringify(body).slice(0, 200)).toEqual(expected.sort());
    }
    expect(await snapshot(t.companyId)).toEqual(before);
  });

  it("needs leads:write: admins, managers and sales reps; not technicians nor read-only keys", async () => {
    const t = await bulkTenant(["leads:read"]);
    const body = { ids: t.ids.slice(0, 1), action: { type: "set_stage", stage: "quoted" } };
    const readOnly = await bulk({ key: t.key }, body);
    expect([readOnly.status, (readOnly.body as ErrorBody).error_code]).toEqual([403, "INSUFFICIENT_SCOPE"]);
    for (const role of ["admin", "manager", "sales_rep"] as const) {
      const user = await createUser(database.db, t.companyId, { role });
      const res = await bulk({ cookie: await createSessionCookie(database.db, user) }, body);
      expect(res.status, role).toBe(200);
      const undone = await undo({ cookie: await createSessionCookie(database.db, user) }, res.body.id);
      expect(undone.status, role).toBe(200);
    }
    const tech = await createUser(database.db, t.companyId, { role: "technician" });
    const cookie = await createSessionCookie(database.db, tech);
    expect((await bulk({ cookie }, body)).status).toBe(403);
    const { key } = await createApiKey(database.db, t.companyId, { scopes: ["leads:write"] });
    const done = await bulk({ key }, body);
    expect((await undo({ cookie }, done.body.id)).status).toBe(403);
  });

  it("undo: an unknown id or another company's operation is not found", async () => {
    const t = await bulkTenant();
    const other = await bulkTenant();
    const theirs = await bulk({ key: other.key }, { ids: other.ids, action: { type: "archive" } });
    for (const id of ["blk_missing", theirs.body.id]) {
      const res = await undo({ key: t.key }, id);
      expect([res.status, (res.body as unknown as { message: string }).message]).toEqual([
        404,
        "Bulk operation not found",
      ]);
    }
    expect((await snapshot(other.companyId)).every((r) => r.archived)).toBe(true);
  });
});

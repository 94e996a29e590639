import { describe, expect, it } from "vitest";
import { POST as postPin } from "@/app/api/pins/route";
import { GET as getPinRoute } from "@/app/api/pins/[id]/route";
import { apiRequest, call, createSessionCookie, createTenant, createUser } from "@/lib/testing/factories";
import { insertPinType } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import type { GetPinResponse, PinUpsertResponse } from "@/lib/schemas/pins";

const database = setupTestDatabase();

async function scenario() {
  const db = database.db;
  const tenant = await createTenant(db);
  const rep = await createUser(db, tenant.companyId, { role: "sales_rep", name: "Rita Rep" });
  const other = await createUser(db, tenant.companyId, { role: "sales_rep", name: "Olga Other" });
  const notHome = await insertPinType(db, tenant.companyId, { label: "Not home", color: "#888888" });
  const sold = await insertPinType(db, tenant.companyId, { label: "Sold", color: "#00aa00" });
  const later = await insertPinType(db, tenant.companyId, { label: "Come back", color: "#0000aa" });
  return {
    ...tenant,
    rep,
    notHome,
    sold,
    later,
    repCookie: await createSessionCookie(db, rep),
    otherCookie: await createSessionCookie(db, other),
  };
}

const post = (cookie: string, body: unknown) =>
  call<PinUpsertResponse & { details?: { field: string; message: string }[] }>(
    postPin,
    apiRequest("/pins", { cookie, body }),
  );
const visits = async (cookie: string, id: string) =>
  (await call<GetPinResponse>(getPinRoute, apiRequest(`/pins/${id}`, { cookie }), { id })).body.data.visits;
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

describe(`POST /api/pins visited_at (${testEngine()})`, () => {
  it("refuses a visited_at more than 5 minutes ahead, more than 7 days old, or not a date-time", async () => {
    const s = await scenario();
    for (const [visited_at, message] of [
      [minutesAgo(-6), "must not be more than 5 minutes ahead of the server's clock"],
      [minutesAgo(7 * 24 * 60 + 1), "must not be more than 7 days old"],
      ["2026-03-02", "must be an ISO 8601 date-time with an offset"],
      ["yesterday", "must be an ISO 8601 date-time with an offset"],
    ] as const) {
      const res = await post(s.repCookie, { location: [1, 2], pin_type_id: s.notHome.id, visited_at });
      expect(res.status, visited_at).toBe(400);
      expect(res.body.details, visited_at).toEqual([{ field: "visited_at", message }]);
    }
    // Inside the bounds: 4 minutes ahead (a phone's clock a little fast) and 6 days back.
    for (const visited_at of [minutesAgo(-4), minutesAgo(6 * 24 * 60)]) {
      const res = await post(s.repCookie, { location: [1, 2], pin_type_id: s.notHome.id, visited_at });
      expect(res.status, visited_at).toBe(201);
    }
  });

  it("dates the pin's created_at, its first visit and a later outcome change by visited_at", async () => {
    const s = await scenario();
    const knockedAt = minutesAgo(90);
    const created = await post(s.repCookie, {
      location: [1, 2],
      pin_type_id: s.notHome.id,
      visited_at: knockedAt,
      client_id: "queued-1",
    });
    expect(created.status).toBe(201);
    expect(created.body.created_at).toBe(knockedAt);
    expect(created.body.last_visit_at).toBe(knockedAt);
    // updated_at is when the server wrote it, so sync by updated_since still sees it.
    expect(Date.parse(created.body.updated_at)).toBeGreaterThan(Date.parse(knockedAt));

    const changedAt = minutesAgo(30);
    const changed = await post(s.repCookie, {
      id: created.body.id,
      pin_type_id: s.sold.id,
      visited_at: changedAt,
    });
    expect(changed.body).toMatchObject({ visit_count: 2, last_visit_at: changedAt });
    expect((await visits(s.repCookie, created.body.id)).map((v) => [v.at, v.pin_type.id])).toEqual([
      [changedAt, s.sold.id],
      [knockedAt, s.notHome.id],
    ]);

    // An older change sent late is a visit at its time, and leaves last_visit_at at the newest.
    const olderAt = minutesAgo(60);
    const older = await post(s.otherCookie, {
      id: created.body.id,
      pin_type_id: s.later.id,
      visited_at: olderAt,
    });
    expect(older.body).toMatchObject({ visit_count: 3, last_visit_at: changedAt });
  });

  it("measures the 10-minute correction window from visited_at, not from arrival", async () => {
    const s = await scenario();
    const created = await post(s.repCookie, {
      location: [1, 2],
      pin_type_id: s.notHome.id,
      visited_at: minutesAgo(60),
    });
    // Sent now, but made 5 minutes after the knock: a correction of that visit.
    const fixed = await post(s.repCookie, {
      id: created.body.id,
      pin_type_id: s.sold.id,
      visited_at: minutesAgo(55),
    });
    expect(fixed.body.visit_count).toBe(1);
    // Made 20 minutes after it: a new knock, though it arrives right after.
    const again = await post(s.repCookie, {
      id: created.body.id,
      pin_type_id: s.later.id,
      visited_at: minutesAgo(35),
    });
    expect(again.body.visit_count).toBe(2);
  });

  it("records a replayed outcome change once, even after someone else changed the pin", async () => {
    const s = await scenario();
    const created = await post(s.repCookie, {
      location: [1, 2],
      pin_type_id: s.notHome.id,
      visited_at: minutesAgo(120),
    });
    const id = created.body.id;
    const change = { id, pin_type_id: s.sold.id, visited_at: minutesAgo(30) };
    const first = await post(s.repCookie, change);
    expect(first.body.visit_count).toBe(2);
    // The answer was lost; meanwhile another rep records a later outcome.
    const theirs = await post(s.otherCookie, { id, pin_type_id: s.later.id });
    expect(theirs.body.visit_count).toBe(3);
    const replay = await post(s.repCookie, change);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ visit_count: 3, pin_type: { id: s.later.id } });
    expect((await visits(s.repCookie, id)).map((v) => v.pin_type.id)).toEqual([
      s.later.id,
      s.sold.id,
      s.notHome.id,
    ]);
    // The same outcome at another time is another knock.
    const another = await post(s.repCookie, { ...change, visited_at: minutesAgo(1) });
    expect(another.body.visit_count).toBe(4);
  });
});

import { describe, expect, it } from "vitest";
import { GET as listPins } from "@/app/api/pins/route";
import { apiRequest, call, createApiKey, createTenant, createUser } from "@/lib/testing/factories";
import { insertPin, insertPinType } from "@/lib/testing/plan-job-fixtures";
import { testEngine } from "@/lib/testing/test-database";
import { listPinsResponseSchema, type ListPinsResponse } from "@/lib/schemas/pins";
import { fileTestDatabase } from "@/lib/testing/file-database";

const database = fileTestDatabase();

/** Two types, two users, four pins (newest first: d, c, b, a). */
async function pinScenario() {
  const tenant = await createTenant(database.db);
  const db = database.db;
  const rita = await createUser(db, tenant.companyId, { name: "Rita Rep", email: "rita@example.test" });
  const sam = await createUser(db, tenant.companyId, { name: "Sam Rep", email: "sam@example.test" });
  const sold = await insertPinType(db, tenant.companyId, { label: "Sold", color: "#00aa00" });
  const away = await insertPinType(db, tenant.companyId, { label: "Not Home", color: "#abc" });
  const pin = (
    id: string,
    type: { id: string },
    user: { id: string },
    createdAt: string,
    lat: number,
    lng: number,
  ) =>
    insertPin(db, tenant.companyId, {
      id: `${tenant.companyId}_${id}`,
      pinTypeId: type.id,
      createdBy: user.id,
      createdAt,
      latitude: lat,
      longitude: lng,
    });
  const a = await pin("a", sold, rita, "2026-03-01T10:00:00Z", 30.2672, -97.7431);
  const b = await pin("b", away, rita, "2026-03-02T10:00:00Z", -33.8688, 151.2093);
  const c = await pin("c", sold, sam, "2026-03-03T10:00:00Z", 0, 0);
  const d = await pin("d", away, sam, "2026-03-04T10:00:00.5Z", 90, -180);
  return { ...tenant, rita, sam, sold, away, pins: { a, b, c, d } };
}

const get = (path: string, key: string) => call<ListPinsResponse>(listPins, apiRequest(path, { key }));
const ids = (body: ListPinsResponse) => body.data.map((p) => p.id);

describe(`GET /api/pins (${testEngine()})`, () => {
  it("lists pins newest first with location, creator and type", async () => {
    const s = await pinScenario();
    const res = await get("/pins", s.key);
    expect(res.status).toBe(200);
    expect(listPinsResponseSchema.parse(res.body)).toEqual(res.body);
    expect(ids(res.body)).toEqual([s.pins.d.id, s.pins.c.id, s.pins.b.id, s.pins.a.id]);
    expect(res.body.pagination).toEqual({ has_more: false, limit: 50, page: 1, total: 4 });
    expect(res.body.data[0]).toEqual({
      id: s.pins.d.id,
      created_at: "2026-03-04T10:00:00.500Z",
      created_by: { email: "sam@example.test", name: "Sam Rep", user_id: s.sam.id },
      location: [90, -180],
      pin_type: { id: s.away.id, color: "#abc", label: "Not Home" },
    });
    expect(res.body.data[2]?.location).toEqual([-33.8688, 151.2093]);
  });

  it("filters by pin type and by creator, alone and together", async () => {
    const s = await pinScenario();
    expect(ids((await get(`/pins?pin_type_id=${s.sold.id}`, s.key)).body)).toEqual([
      s.pins.c.id,
      s.pins.a.id,
    ]);
    expect(ids((await get(`/pins?user_id=${s.rita.id}`, s.key)).body)).toEqual([s.pins.b.id, s.pins.a.id]);
    const both = await get(`/pins?user_id=${s.rita.id}&pin_type_id=${s.away.id}`, s.key);
    expect(ids(both.body)).toEqual([s.pins.b.id]);
    expect(both.body.pagination.total).toBe(1);
    const none = await get("/pins?pin_type_id=pt_unknown", s.key);
    expect(none.body).toMatchObject({ data: [], pagination: { total: 0, has_more: false } });
  });

  it("paginates with exact totals", async () => {
    const s = await pinScenario();
    const page = await get("/pins?limit=3&page=2", s.key);
    expect(ids(page.body)).toEqual([s.pins.a.id]);
    expect(page.body.pagination).toEqual({ has_more: false, limit: 3, page: 2, total: 4 });
    const first = await get("/pins?limit=3", s.key);
    expect(first.body.pagination.has_more).toBe(true);
    // Past the last page: no rows to carry the counters' total, which is then read on its own.
    const past = await get("/pins?limit=1&page=5", s.key);
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination).toEqual({ has_more: false, limit: 1, page: 5, total: 4 });
    const pastOfType = await get(`/pins?pin_type_id=${s.sold.id}&limit=2&page=2`, s.key);
    expect(pastOfType.body).toMatchObject({ data: [], pagination: { has_more: false, total: 2 } });
    // A creator's pins are counted beside the page.
    const pastOfCreator = await get(`/pins?user_id=${s.rita.id}&limit=2&page=3`, s.key);
    expect(pastOfCreator.body).toMatchObject({ data: [], pagination: { has_more: false, total: 2 } });
  });

  it.each([
    ["limit=1001", "limit"],
    ["page=0", "page"],
    ["limit=x", "limit"],
  ])("answers 400 naming the parameter for %s", async (query, field) => {
    const s = await createTenant(database.db);
    const res = await call(listPins, apiRequest(`/pins?${query}`, { key: s.key }));
    expect(res.status).toBe(400);
    expect((res.body.details as { field: string }[]).map((d) => d.field)).toEqual([field]);
  });

  it("requires pins:read (leads:read is not enough)", async () => {
    const s = await pinScenario();
    const { key } = await createApiKey(database.db, s.companyId, {
      scopes: ["leads:read", "pin_types:read"],
    });
    const res = await call(listPins, apiRequest("/pins", { key }));
    expect(res.status).toBe(403);
    expect(res.body.message).toContain("pins:read");
  });

  it("never shows another company's pins", async () => {
    const s = await pinScenario();
    const other = await pinScenario();
    const res = await get(`/pins?pin_type_id=${other.sold.id}`, s.key);
    expect(res.body.pagination.total).toBe(0);
    const all = await get("/pins", s.key);
    expect(all.body.data.every((p) => p.id.startsWith(s.companyId))).toBe(true);
  });
});

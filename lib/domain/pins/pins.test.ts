import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { GET as listPins } from "@/app/api/pins/route";
import { POST as postLead } from "@/app/api/leads/route";
import { pinListWhere } from "./list";
import { getPinsQuerySchema } from "@/lib/schemas/pins";
import { apiRequest, call, createApiKey, createTenant, createUser } from "@/lib/testing/factories";
import { insertPin, insertPinType } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { listPinsResponseSchema, type ListPinsResponse } from "@/lib/schemas/pins";

const database = setupTestDatabase();

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
  await db.execute(sql`update pins set updated_at = created_at where company_id = ${tenant.companyId}`);
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
      address: { street1: null, city: null, state: null, zip: null },
      notes: null,
      lead_id: null,
      updated_at: "2026-03-04T10:00:00.500Z",
      visit_count: 0,
      last_visit_at: null,
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

/** A territory row as the territories API would store it: the GeoJSON ring and the same native polygon. */
async function insertTerritory(companyId: string, ring: [number, number][]) {
  const id = `ter_${Math.random().toString(36).slice(2)}`;
  const geo = { type: "Polygon", coordinates: [[...ring, ring[0]!]] };
  const area = `(${ring.map(([lng, lat]) => `(${lng},${lat})`).join(",")})`;
  await database.db.execute(sql`insert into territories (company_id, id, name, color, polygon, area)
    values (${companyId}, ${id}, 'Area', '#ff0000', ${JSON.stringify(geo)}::jsonb, ${area}::polygon)`);
  return id;
}

const fields = (body: unknown) =>
  ((body as { details?: { field: string }[] }).details ?? []).map((d) => d.field);

describe(`GET /api/pins filters of the field (${testEngine()})`, () => {
  it("filters by bbox, edges included, across the antimeridian when west > east", async () => {
    const s = await pinScenario();
    const { a, b, c, d } = s.pins;
    const cases: [string, string[]][] = [
      ["30,-98,31,-97", [a.id]],
      // A box of one point: its edges are inside.
      ["30.2672,-97.7431,30.2672,-97.7431", [a.id]],
      ["0,0,0,0", [c.id]],
      ["-90,-180,90,180", [d.id, c.id, b.id, a.id]],
      [" -40 , 150 , 90 , -179 ", [d.id, b.id]],
      ["-40,150,-30,160", [b.id]],
      ["10,10,20,20", []],
    ];
    for (const [bbox, expected] of cases) {
      const res = await get(`/pins?bbox=${encodeURIComponent(bbox)}`, s.key);
      expect(res.status, bbox).toBe(200);
      expect(ids(res.body), bbox).toEqual(expected);
      expect(res.body.pagination.total, bbox).toBe(expected.length);
    }
    const sold = await get(`/pins?bbox=-90,-180,90,180&pin_type_id=${s.sold.id}&limit=1`, s.key);
    expect(ids(sold.body)).toEqual([c.id]);
    expect(sold.body.pagination).toEqual({ has_more: true, limit: 1, page: 1, total: 2 });
  });

  it.each(["1,2,3", "a,b,c,d", "1,2,3,4,5", "91,0,92,1", "10,0,5,1", "0,-181,1,0", "0,0,1,180.5", "1,,2,3"])(
    "answers 400 naming bbox for %s",
    async (bbox) => {
      const s = await createTenant(database.db);
      const res = await call(listPins, apiRequest(`/pins?bbox=${encodeURIComponent(bbox)}`, { key: s.key }));
      expect(res.status).toBe(400);
      expect(fields(res.body)).toEqual(["bbox"]);
    },
  );

  it("filters by territory, and answers 404 for an unknown or another company's territory", async () => {
    const s = await pinScenario();
    const austin = await insertTerritory(s.companyId, [
      [-98, 30],
      [-97, 30],
      [-97, 31],
      [-98, 31],
    ]);
    const res = await get(`/pins?territory_id=${austin}`, s.key);
    expect(ids(res.body)).toEqual([s.pins.a.id]);
    expect(res.body.pagination.total).toBe(1);
    const none = await get(`/pins?territory_id=${austin}&user_id=${s.sam.id}`, s.key);
    expect(none.body).toMatchObject({ data: [], pagination: { total: 0 } });
    const other = await pinScenario();
    for (const id of ["ter_unknown", austin]) {
      const missing = await call(listPins, apiRequest(`/pins?territory_id=${id}`, { key: other.key }));
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ message: "Territory not found" });
    }
  });

  it("filters by updated_since, created_by and lead_id, combined", async () => {
    const s = await pinScenario();
    const { a, b, c, d } = s.pins;
    await database.db.execute(sql`update pins set updated_at = '2026-03-10T00:00:00Z' where id = ${b.id}`);
    // A walk of the changes (extensions.md E10): oldest change first, so b, changed last, comes last.
    const since = await get("/pins?updated_since=2026-03-03T10:00:00Z", s.key);
    expect([...ids(since.body)].sort()).toEqual([b.id, c.id, d.id].sort());
    expect(ids(since.body).at(-1)).toBe(b.id);
    expect(since.body.pagination).toMatchObject({ total: 3, has_more: false, next_cursor: null });
    expect(ids((await get("/pins?updated_since=2026-03-05", s.key)).body)).toEqual([b.id]);
    expect(ids((await get(`/pins?created_by=${s.rita.id}`, s.key)).body)).toEqual([b.id, a.id]);
    const both = await get(`/pins?created_by=${s.rita.id}&updated_since=2026-03-05`, s.key);
    expect(both.body).toMatchObject({ pagination: { total: 1 } });
    expect(ids(both.body)).toEqual([b.id]);
    expect(
      (await get(`/pins?created_by=${s.rita.id}&user_id=${s.sam.id}`, s.key)).body.pagination.total,
    ).toBe(0);

    const lead = await call<{ id: string }>(
      postLead,
      apiRequest("/leads", { key: s.key, body: { name: "Door" } }),
    );
    await database.db.execute(sql`update pins set lead_id = ${lead.body.id} where id = ${c.id}`);
    const ofLead = await get(`/pins?lead_id=${lead.body.id}`, s.key);
    expect(ids(ofLead.body)).toEqual([c.id]);
    expect(ofLead.body.data[0]?.lead_id).toBe(lead.body.id);
    expect(ofLead.body.pagination.total).toBe(1);
  });

  it.each(["yesterday", "2026-13-01", "2026-03-01T25:00:00Z"])(
    "answers 400 naming updated_since for %s",
    async (value) => {
      const s = await createTenant(database.db);
      const res = await call(listPins, apiRequest(`/pins?updated_since=${value}`, { key: s.key }));
      expect(res.status).toBe(400);
      expect(fields(res.body)).toEqual(["updated_since"]);
    },
  );

  it("answers the place filters from the GiST index pins_location_idx", async () => {
    const s = await pinScenario();
    // Enough pins in the company for the planner to prefer the index: a grid around Austin. One
    // bulk statement, allowed longer than the server's request timeout on a busy machine.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local statement_timeout = 0`);
      await tx.execute(sql`insert into pins (company_id, id, pin_type_id, created_by, latitude, longitude, created_at)
        select ${s.companyId}, 'pin_grid_' || g, ${s.sold.id}, ${s.rita.id},
          30 + (g % 200) * 0.005, -98 + (g / 200) * 0.005, now() - g * interval '1 minute'
        from generate_series(1, 20000) g`);
    });
    await database.db.execute(sql`analyze pins`);
    const block = await insertTerritory(s.companyId, [
      [-97.75, 30.26],
      [-97.74, 30.26],
      [-97.74, 30.27],
      [-97.75, 30.27],
    ]);
    for (const query of [
      "bbox=30.26,-97.75,30.27,-97.74",
      `territory_id=${block}`,
      "bbox=30.26,179,30.27,-179",
    ]) {
      const input = getPinsQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)));
      const { where } = await pinListWhere({ db: database.db, companyId: s.companyId }, input);
      for (const statement of [
        sql`select count(*) from pins p where ${where}`,
        sql`select p.id from pins p where ${where} order by p.created_at desc, p.id desc limit 50`,
      ]) {
        const { rows } = await database.db.execute<Record<string, string>>(sql`explain ${statement}`);
        const plan = rows.map((row) => Object.values(row)[0]).join("\n");
        expect(plan, `${query}\n${plan}`).toContain("pins_location_idx");
      }
    }
    const page = await get("/pins?bbox=30.26,-97.75,30.27,-97.74&limit=1000", s.key);
    expect(page.body.pagination.total).toBeGreaterThan(0);
    expect(
      page.body.data.every(
        ({ location: [lat, lng] }) => lat >= 30.26 && lat <= 30.27 && lng >= -97.75 && lng <= -97.74,
      ),
    ).toBe(true);
  });
});

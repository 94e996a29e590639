import { describe, expect, it } from "vitest";
import { DELETE as deleteTerritoryRoute } from "@/app/api/territories/[id]/route";
import { GET as listTerritoriesRoute, POST as upsertTerritoryRoute } from "@/app/api/territories/route";
import { GET as listLeadsRoute } from "@/app/api/leads/route";
import { GET as stageTotalsRoute } from "@/app/api/leads/stage-totals/route";
import { POST as bulkLeadsRoute } from "@/app/api/leads/bulk/route";
import { leads } from "@/lib/db/schema";
import { TERRITORY_MAX_POINTS } from "@/lib/values/polygon";
import { ID_PREFIX, newId } from "@/lib/ids";
import {
  listTerritoriesResponseSchema,
  upsertTerritoryResponseSchema,
  type Territory,
} from "@/lib/schemas/territories";
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
type ErrorBody = { error_code?: string; message: string; details?: { field: string; message: string }[] };
type Ring = [number, number][];

/** A square of Austin, open (as a drawing tool may send it). */
const SQUARE: Ring = [
  [-97.8, 30.2],
  [-97.7, 30.2],
  [-97.7, 30.3],
  [-97.8, 30.3],
];
const polygon = (ring: Ring, ...holes: Ring[]) => ({ type: "Polygon", coordinates: [ring, ...holes] });
const closed = (ring: Ring): Ring => [...ring, ring[0]!];

const upsert = (auth: Auth, body: unknown) =>
  call<{ message: string; data: Territory } & ErrorBody>(
    upsertTerritoryRoute,
    apiRequest("/territories", { ...auth, body }),
  );
const list = (auth: Auth, query = "") =>
  call<{ data: Territory[] } & ErrorBody>(listTerritoriesRoute, apiRequest(`/territories${query}`, auth));
const remove = (auth: Auth, id: string) =>
  call<ErrorBody | null>(
    deleteTerritoryRoute,
    apiRequest(`/territories/${id}`, { ...auth, method: "DELETE" }),
    { id },
  );
const problems = (res: { body: unknown }) => (res.body as ErrorBody).details ?? [];

/** A company with a key and a signed-in user of each role. */
async function territoryTenant() {
  const { companyId, key } = await createTenant(database.db);
  const session = async (role: "admin" | "manager" | "sales_rep" | "technician") => {
    const user = await createUser(database.db, companyId, { role, name: `${role} user` });
    return { ...user, cookie: await createSessionCookie(database.db, user) };
  };
  return {
    companyId,
    key,
    admin: await session("admin"),
    manager: await session("manager"),
    rep: await session("sales_rep"),
    tech: await session("technician"),
  };
}

async function insertLead(companyId: string, location: [number, number] | null, name = "Lead") {
  const id = newId(ID_PREFIX.lead);
  await database.db.insert(leads).values({
    companyId,
    id,
    name,
    stage: "new",
    latitude: location?.[1] ?? null,
    longitude: location?.[0] ?? null,
  });
  return id;
}

describe(`territories API (${testEngine()})`, () => {
  it("creates, lists by name, updates and deletes a territory", async () => {
    const t = await territoryTenant();
    const admin = { cookie: t.admin.cookie };
    const created = await upsert(admin, {
      name: "  North ",
      color: "#0a0",
      polygon: polygon(SQUARE),
      assigned_to: [t.rep.id, t.tech.id, t.rep.id],
    });
    expect(created.status).toBe(201);
    upsertTerritoryResponseSchema.parse(created.body);
    expect(created.body.message).toBe("Territory created");
    const north = created.body.data;
    expect(north).toEqual({
      id: expect.stringMatching(/^ter_/),
      name: "North",
      color: "#0a0",
      // An open ring is stored closed.
      polygon: { type: "Polygon", coordinates: [closed(SQUARE)] },
      assigned_to: [t.rep.id, t.tech.id].sort(),
    });
    const south = await upsert(
      { cookie: t.manager.cookie },
      { name: "Alpha", polygon: polygon(closed(SQUARE)) },
    );
    expect(south.status).toBe(201);
    expect(south.body.data.color).toBe("#2563eb");
    expect(south.body.data.assigned_to).toEqual([]);

    const listed = await list({ key: t.key });
    expect(listed.status).toBe(200);
    listTerritoriesResponseSchema.parse(listed.body);
    expect(listed.body.data.map((x) => x.name)).toEqual(["Alpha", "North"]);
    expect(listed.body.data[1]).toEqual(north);

    // Fields given replace, fields left out are kept; assigned_to replaces the list.
    const moved: Ring = [
      [-97.75, 30.25],
      [-97.6, 30.25],
      [-97.6, 30.4],
    ];
    const updated = await upsert(admin, {
      id: north.id,
      color: "#123456",
      polygon: polygon(moved),
      assigned_to: [t.admin.id],
    });
    expect([updated.status, updated.body.message]).toEqual([200, "Territory updated"]);
    expect(updated.body.data).toEqual({
      ...north,
      color: "#123456",
      polygon: { type: "Polygon", coordinates: [closed(moved)] },
      assigned_to: [t.admin.id],
    });
    const renamed = await upsert(admin, { id: north.id, name: "Zulu" });
    expect(renamed.body.data).toEqual({ ...updated.body.data, name: "Zulu" });
    const unassigned = await upsert(admin, { id: north.id, assigned_to: [] });
    expect(unassigned.body.data.assigned_to).toEqual([]);

    const unknown = await upsert(admin, { id: "ter_nope", name: "X" });
    expect([unknown.status, unknown.body.message]).toEqual([404, "Territory not found"]);

    const deleted = await remove(admin, north.id);
    expect([deleted.status, deleted.text]).toEqual([204, ""]);
    expect((await list({ key: t.key })).body.data.map((x) => x.id)).toEqual([south.body.data.id]);
    const again = await remove({ cookie: t.manager.cookie }, north.id);
    expect([again.status, again.body?.message]).toEqual([404, "Territory not found"]);
  });

  it("filters by assignee: a user id, or me for a session", async () => {
    const t = await territoryTenant();
    const admin = { cookie: t.admin.cookie };
    const mine = await upsert(admin, { name: "Rep's", polygon: polygon(SQUARE), assigned_to: [t.rep.id] });
    await upsert(admin, { name: "Tech's", polygon: polygon(SQUARE), assigned_to: [t.tech.id] });
    const names = async (auth: Auth, query: string) => (await list(auth, query)).body.data.map((x) => x.name);
    expect(await names({ cookie: t.rep.cookie }, "?assigned_to=me")).toEqual(["Rep's"]);
    expect(await names({ cookie: t.tech.cookie }, "?assigned_to=me")).toEqual(["Tech's"]);
    expect(await names({ key: t.key }, `?assigned_to=${t.rep.id}`)).toEqual(["Rep's"]);
    expect(await names({ key: t.key }, "?assigned_to=usr_nobody")).toEqual([]);
    expect(await names({ cookie: t.admin.cookie }, "")).toEqual(["Rep's", "Tech's"]);
    const keyMe = await list({ key: t.key }, "?assigned_to=me");
    expect([keyMe.status, keyMe.body.error_code, problems(keyMe)[0]?.field]).toEqual([
      400,
      "VALIDATION_ERROR",
      "assigned_to",
    ]);
    expect(mine.body.data.assigned_to).toEqual([t.rep.id]);
  });

  it("refuses a bad polygon with a 400 naming polygon", async () => {
    const t = await territoryTenant();
    const admin = { cookie: t.admin.cookie };
    const refused = async (value: unknown) => {
      const res = await upsert(admin, { name: "Bad", polygon: value });
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_ERROR");
      const details = problems(res);
      expect(details.length).toBeGreaterThan(0);
      for (const detail of details) expect(detail.field).toMatch(/^polygon/);
      return details.map((d) => d.message).join("; ");
    };
    const circle = (n: number): Ring =>
      Array.from({ length: n }, (_, i) => [
        -97.7 + 0.1 * Math.cos((2 * Math.PI * i) / n),
        30.3 + 0.1 * Math.sin((2 * Math.PI * i) / n),
      ]);
    // A bow-tie: its two diagonals cross.
    const bowTie: Ring = [
      [0, 0],
      [1, 1],
      [1, 0],
      [0, 1],
    ];
    expect(await refused(polygon(bowTie))).toMatch(/must not intersect itself/);
    // A ring that comes back to touch one of its own corners.
    expect(
      await refused(
        polygon([
          [0, 0],
          [2, 0],
          [1, 1],
          [2, 2],
          [0, 2],
          [1, 1],
        ]),
      ),
    ).toMatch(/must not intersect itself/);
    // A spike: an edge folding back over its neighbour.
    expect(
      await refused(
        polygon([
          [0, 0],
          [2, 0],
          [2, 2],
          [2, 1],
          [0, 2],
        ]),
      ),
    ).toMatch(/must not intersect itself/);
    expect(await refused(polygon(circle(TERRITORY_MAX_POINTS + 1)))).toMatch(/at most 1,000 positions/);
    expect(await refused(polygon(closed(circle(TERRITORY_MAX_POINTS + 1))))).toMatch(
      /at most 1,000 positions/,
    );
    expect(
      await refused(
        polygon([
          [0, 0],
          [1, 1],
          [0, 0],
        ]),
      ),
    ).toMatch(/at least 3 distinct positions/);
    expect(
      await refused(
        polygon([
          [0, 0],
          [1, 1],
          [2, 2],
        ]),
      ),
    ).toMatch(/must enclose an area/);
    expect(await refused(polygon([[-181, 0], ...SQUARE.slice(1)]))).toMatch(/longitude must be between/);
    expect(await refused(polygon([[0, 90.5], ...SQUARE.slice(1)]))).toMatch(/latitude must be between/);
    expect(await refused(polygon([["-97", 30], ...SQUARE.slice(1)] as never))).toBeTruthy();
    expect(await refused(polygon([[-97.8, 30.2, 5], ...SQUARE.slice(1)] as never))).toBeTruthy();
    expect(await refused(polygon(SQUARE, SQUARE))).toMatch(/exactly one ring/);
    expect(await refused({ type: "Polygon", coordinates: [] })).toMatch(/exactly one ring/);
    expect(await refused({ type: "MultiPolygon", coordinates: [[SQUARE]] })).toMatch(/Polygon/);
    expect(await refused("((0,0),(1,1),(1,0))")).toBeTruthy();

    // The largest ring allowed, given closed, and a ring whose repeated positions are merged.
    const largest = await upsert(admin, {
      name: "Round",
      polygon: polygon(closed(circle(TERRITORY_MAX_POINTS))),
    });
    expect(largest.status).toBe(201);
    expect(largest.body.data.polygon.coordinates[0]).toHaveLength(TERRITORY_MAX_POINTS + 1);
    const repeated = await upsert(admin, {
      name: "Repeats",
      polygon: polygon([SQUARE[0]!, SQUARE[0]!, SQUARE[1]!, SQUARE[2]!, SQUARE[2]!, SQUARE[3]!, SQUARE[0]!]),
    });
    expect(repeated.body.data.polygon.coordinates[0]).toEqual(closed(SQUARE));
    // Nothing half-written: the refused requests left only these two.
    expect((await list(admin)).body.data.map((x) => x.name)).toEqual(["Repeats", "Round"]);
  });

  it("refuses other bad fields, naming them", async () => {
    const t = await territoryTenant();
    const other = await territoryTenant();
    const admin = { cookie: t.admin.cookie };
    const fields = async (body: unknown) => {
      const res = await upsert(admin, body);
      expect([res.status, res.body.error_code]).toEqual([400, "VALIDATION_ERROR"]);
      return problems(res).map((p) => p.field);
    };
    expect(await fields({ polygon: polygon(SQUARE) })).toEqual(["name"]);
    expect(await fields({ name: "No ring" })).toEqual(["polygon"]);
    expect(await fields({ name: "x".repeat(101), polygon: polygon(SQUARE) })).toEqual(["name"]);
    expect(await fields({ name: "  ", polygon: polygon(SQUARE) })).toEqual(["name"]);
    expect(await fields({ name: "Red", color: "red", polygon: polygon(SQUARE) })).toEqual(["color"]);
    expect(await fields({ name: "Red", color: "#12345", polygon: polygon(SQUARE) })).toEqual(["color"]);
    const unknownUser = await upsert(admin, {
      name: "A",
      polygon: polygon(SQUARE),
      assigned_to: ["usr_nobody"],
    });
    expect(problems(unknownUser)).toEqual([
      { field: "assigned_to", message: "must be user ids of the company; unknown: usr_nobody" },
    ]);
    // Another company's user is no user of this one.
    expect(await fields({ name: "A", polygon: polygon(SQUARE), assigned_to: [other.rep.id] })).toEqual([
      "assigned_to",
    ]);
    expect(await fields({ name: "A", polygon: polygon(SQUARE), assigned_to: "usr_x" })).toEqual([
      "assigned_to",
    ]);
    expect((await list(admin)).body.data).toEqual([]);
  });

  it("lets admins and managers write, every role and keys read", async () => {
    const t = await territoryTenant();
    const made = await upsert({ cookie: t.manager.cookie }, { name: "M", polygon: polygon(SQUARE) });
    expect(made.status).toBe(201);
    const id = made.body.data.id;
    for (const user of [t.rep, t.tech]) {
      const create = await upsert({ cookie: user.cookie }, { name: "Mine", polygon: polygon(SQUARE) });
      expect([create.status, create.body.error_code]).toEqual([403, "FORBIDDEN"]);
      const update = await upsert({ cookie: user.cookie }, { id, name: "Mine" });
      expect(update.status).toBe(403);
      const del = await remove({ cookie: user.cookie }, id);
      expect([del.status, del.body?.error_code]).toEqual([403, "FORBIDDEN"]);
      expect((await list({ cookie: user.cookie })).body.data.map((x) => x.name)).toEqual(["M"]);
    }
    const keyWrite = await upsert({ key: t.key }, { name: "Key", polygon: polygon(SQUARE) });
    expect([keyWrite.status, keyWrite.body.error_code]).toEqual([403, "FORBIDDEN"]);
    expect((await remove({ key: t.key }, id)).status).toBe(403);
    const readOnly = await createApiKey(database.db, t.companyId, { scopes: ["pins:read"] });
    expect((await list({ key: readOnly.key })).status).toBe(200);
    const noPins = await createApiKey(database.db, t.companyId, { scopes: ["leads:write"] });
    const refused = await list({ key: noPins.key });
    expect([refused.status, refused.body.error_code]).toEqual([403, "INSUFFICIENT_SCOPE"]);
    expect((await remove({ cookie: t.admin.cookie }, id)).status).toBe(204);
  });

  it("keeps each company's territories to itself", async () => {
    const a = await territoryTenant();
    const b = await territoryTenant();
    const aTerritory = (await upsert({ cookie: a.admin.cookie }, { name: "A's", polygon: polygon(SQUARE) }))
      .body.data;
    await insertLead(a.companyId, [-97.75, 30.25]);
    expect((await list({ key: b.key })).body.data).toEqual([]);
    const update = await upsert({ cookie: b.admin.cookie }, { id: aTerritory.id, name: "Taken" });
    expect(update.status).toBe(404);
    expect((await remove({ cookie: b.admin.cookie }, aTerritory.id)).status).toBe(404);
    const filtered = await call<ErrorBody>(
      listLeadsRoute,
      apiRequest(`/leads?territory_id=${aTerritory.id}`, { key: b.key }),
    );
    expect([filtered.status, filtered.body.message]).toEqual([404, "Territory not found"]);
    expect((await list({ key: a.key })).body.data).toEqual([aTerritory]);
  });
});

describe(`GET /leads?territory_id= (${testEngine()})`, () => {
  it("lists, totals and bulk-selects the leads whose location lies inside", async () => {
    const t = await territoryTenant();
    const territory = (await upsert({ cookie: t.admin.cookie }, { name: "Square", polygon: polygon(SQUARE) }))
      .body.data;
    const inside = await insertLead(t.companyId, [-97.75, 30.25], "Inside");
    const corner = await insertLead(t.companyId, [-97.8, 30.2], "On the corner");
    const edge = await insertLead(t.companyId, [-97.75, 30.3], "On the edge");
    await insertLead(t.companyId, [-97.65, 30.25], "Outside");
    await insertLead(t.companyId, [-97.75, 30.35], "North of it");
    await insertLead(t.companyId, null, "Nowhere");

    const listed = await call<{ data: { id: string }[]; pagination: { total: number } }>(
      listLeadsRoute,
      apiRequest(`/leads?territory_id=${territory.id}`, { key: t.key }),
    );
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((lead) => lead.id).sort()).toEqual([inside, corner, edge].sort());
    expect(listed.body.pagination.total).toBe(3);

    // Combined with the other filters.
    const searched = await call<{ data: { id: string }[] }>(
      listLeadsRoute,
      apiRequest(`/leads?territory_id=${territory.id}&search=edge`, { key: t.key }),
    );
    expect(searched.body.data.map((lead) => lead.id)).toEqual([edge]);

    const totals = await call<{ totals: { count: number } }>(
      stageTotalsRoute,
      apiRequest(`/leads/stage-totals?territory_id=${territory.id}`, { key: t.key }),
    );
    expect(totals.body.totals.count).toBe(3);

    const bulk = await call<{ matched: number }>(
      bulkLeadsRoute,
      apiRequest("/leads/bulk", {
        key: t.key,
        body: { filter: { territory_id: territory.id }, action: { type: "add_tags", tags: ["door"] } },
      }),
    );
    expect([bulk.status, bulk.body.matched]).toEqual([200, 3]);

    for (const [route, path, body] of [
      [listLeadsRoute, "/leads?territory_id=ter_unknown", undefined],
      [stageTotalsRoute, "/leads/stage-totals?territory_id=ter_unknown", undefined],
      [
        bulkLeadsRoute,
        "/leads/bulk",
        { filter: { territory_id: "ter_unknown" }, action: { type: "add_tags", tags: ["x"] } },
      ],
    ] as const) {
      const res = await call<ErrorBody>(route, apiRequest(path, { key: t.key, body }));
      expect([res.status, res.body.message]).toEqual([404, "Territory not found"]);
    }
  });
});

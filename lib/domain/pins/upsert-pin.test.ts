import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { GET as listPinsRoute, POST as postPin } from "@/app/api/pins/route";
import { GET as getPinRoute } from "@/app/api/pins/[id]/route";
import { POST as postLead } from "@/app/api/leads/route";
import { GET as getLeadRoute } from "@/app/api/leads/[id]/route";
import { GET as fieldActivityRoute } from "@/app/api/reports/field-activity/route";
import type { FieldActivityReport } from "@/lib/schemas/reports";
import {
  apiRequest,
  call,
  createApiKey,
  createSessionCookie,
  createTenant,
  createUser,
} from "@/lib/testing/factories";
import { insertPinType } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import {
  getPinResponseSchema,
  listPinsResponseSchema,
  pinSchema,
  pinUpsertResponseSchema,
  type GetPinResponse,
  type PinUpsertResponse,
} from "@/lib/schemas/pins";

const database = setupTestDatabase();

/** A company with two pin types, a rep and a technician (each signed in) and an all-scopes key. */
async function knockScenario() {
  const db = database.db;
  const tenant = await createTenant(db);
  const rep = await createUser(db, tenant.companyId, {
    role: "sales_rep",
    name: "Rita Rep",
    email: "rita@example.test",
  });
  const tech = await createUser(db, tenant.companyId, { role: "technician", name: "Tom Tech" });
  const notHome = await insertPinType(db, tenant.companyId, { label: "Not home", color: "#888888" });
  const sold = await insertPinType(db, tenant.companyId, { label: "Sold", color: "#00aa00" });
  return {
    ...tenant,
    rep,
    tech,
    notHome,
    sold,
    repCookie: await createSessionCookie(db, rep),
    techCookie: await createSessionCookie(db, tech),
  };
}

type Auth = { key: string } | { cookie: string };
const post = (auth: Auth, body: unknown) =>
  call<PinUpsertResponse>(postPin, apiRequest("/pins", { ...auth, body }));
const getPin = (auth: Auth, id: string) =>
  call<GetPinResponse>(getPinRoute, apiRequest(`/pins/${id}`, auth), { id });
const fields = (body: unknown) =>
  ((body as { details?: { field: string }[] }).details ?? []).map((d) => d.field);

async function storedPin(id: string) {
  const { rows } = await database.db.execute<{
    visit_count: number;
    last_visit_at: unknown;
    updated_at: unknown;
  }>(sql`select visit_count, last_visit_at, updated_at from pins where id = ${id}`);
  return rows[0]!;
}

/** Moves the pin's visits back in time, as if they were made that long ago. */
async function ageVisits(pinId: string, by: string) {
  await database.db.execute(sql`update pin_visits set at = at - ${by}::interval where pin_id = ${pinId}`);
}

describe(`POST /api/pins (${testEngine()})`, () => {
  it("creates a pin for the signed-in rep with its first visit", async () => {
    const s = await knockScenario();
    const res = await post(
      { cookie: s.repCookie },
      {
        location: [30.2672, -97.7431],
        pin_type_id: s.notHome.id,
        notes: "Dog in the yard",
        address: { street1: "1 Main St", city: "Austin", state: "TX", zip: "78701" },
        created_by: s.tech.id,
      },
    );
    expect(res.status).toBe(201);
    expect(pinUpsertResponseSchema.parse(res.body)).toEqual(res.body);
    expect(res.body).toMatchObject({
      status: "success",
      message: "Pin created",
      location: [30.2672, -97.7431],
      // A session's own user, whatever the body says.
      created_by: { user_id: s.rep.id, name: "Rita Rep", email: "rita@example.test" },
      pin_type: { id: s.notHome.id, label: "Not home", color: "#888888" },
      notes: "Dog in the yard",
      address: { street1: "1 Main St", city: "Austin", state: "TX", zip: "78701" },
      lead_id: null,
      visit_count: 1,
    });
    expect(res.body.id).toMatch(/^pin_/);
    expect(res.body.last_visit_at).toBe(res.body.created_at);
    expect(res.body.updated_at).toBe(res.body.created_at);

    const detail = await getPin({ key: s.key }, res.body.id);
    expect(detail.status).toBe(200);
    expect(getPinResponseSchema.parse(detail.body)).toEqual(detail.body);
    const record = pinSchema.parse(res.body);
    expect(detail.body.data).toEqual({
      ...record,
      visits: [
        {
          at: res.body.created_at,
          by: { user_id: s.rep.id, name: "Rita Rep", email: "rita@example.test" },
          pin_type: { id: s.notHome.id, label: "Not home", color: "#888888" },
        },
      ],
    });
  });

  it("records a visit for each change of pin type, none for other changes or a no-op", async () => {
    const s = await knockScenario();
    const created = await post({ cookie: s.repCookie }, { location: [10, 20], pin_type_id: s.notHome.id });
    const id = created.body.id;

    const same = await post({ cookie: s.techCookie }, { id, pin_type_id: s.notHome.id, location: [10, 20] });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({
      message: "Pin updated",
      visit_count: 1,
      updated_at: created.body.updated_at,
    });

    const noted = await post(
      { cookie: s.techCookie },
      { id, notes: "Back Tuesday", address: { city: "Austin" } },
    );
    expect(noted.body).toMatchObject({
      visit_count: 1,
      notes: "Back Tuesday",
      address: { street1: null, city: "Austin", state: null, zip: null },
    });
    expect(noted.body.last_visit_at).toBe(created.body.last_visit_at);

    const sold = await post({ cookie: s.techCookie }, { id, pin_type_id: s.sold.id });
    expect(sold.status).toBe(200);
    expect(sold.body).toMatchObject({
      visit_count: 2,
      pin_type: { id: s.sold.id },
      // The creator stays; the visit is the technician's.
      created_by: { user_id: s.rep.id },
      notes: "Back Tuesday",
    });
    expect(sold.body.last_visit_at).toBe(sold.body.updated_at);

    const detail = await getPin({ cookie: s.repCookie }, id);
    expect(detail.body.data.visits.map((v) => [v.by.user_id, v.pin_type.id])).toEqual([
      [s.tech.id, s.sold.id],
      [s.rep.id, s.notHome.id],
    ]);
    expect(detail.body.data.visits[0]!.at).toBe(sold.body.last_visit_at);
    expect(await storedPin(id)).toMatchObject({ visit_count: 2 });

    // A key's change is the given user's visit, else the pin's creator's (their visits now old
    // enough to be new knocks, not corrections).
    await ageVisits(id, "1 hour");
    const back = await post({ key: s.key }, { id, pin_type_id: s.notHome.id });
    const moved = await post({ key: s.key }, { id, pin_type_id: s.sold.id, created_by: s.tech.id });
    expect([back.body.visit_count, moved.body.visit_count]).toEqual([3, 4]);
    const history = await getPin({ key: s.key }, id);
    expect(history.body.data.visits.slice(0, 2).map((v) => v.by.user_id)).toEqual([s.tech.id, s.rep.id]);
  });

  it("moves, clears and links: null clears notes, address parts and lead_id", async () => {
    const s = await knockScenario();
    const lead = await call<{ id: string }>(
      postLead,
      apiRequest("/leads", { key: s.key, body: { name: "Door" } }),
    );
    const created = await post(
      { key: s.key },
      {
        location: [1, 2],
        pin_type_id: s.sold.id,
        created_by: s.rep.id,
        notes: "x",
        address: { street1: "2 Elm", zip: "78702" },
        lead_id: lead.body.id,
      },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ lead_id: lead.body.id, created_by: { user_id: s.rep.id } });
    const moved = await post(
      { key: s.key },
      { id: created.body.id, location: [1.5, -2.5], address: { zip: null } },
    );
    expect(moved.body).toMatchObject({ location: [1.5, -2.5], address: { street1: "2 Elm", zip: null } });
    const cleared = await post(
      { key: s.key },
      { id: created.body.id, notes: "", address: null, lead_id: null },
    );
    expect(cleared.body).toMatchObject({
      notes: null,
      lead_id: null,
      address: { street1: null, city: null, state: null, zip: null },
      visit_count: 1,
    });
    const byLead = await call(listPinsRoute, apiRequest(`/pins?lead_id=${lead.body.id}`, { key: s.key }));
    expect(listPinsResponseSchema.parse(byLead.body).pagination.total).toBe(0);
  });

  it("answers a create retried with a seen client_id with the same pin, writing nothing", async () => {
    const s = await knockScenario();
    const body = { location: [30, -97], pin_type_id: s.notHome.id, client_id: "device-1:knock-7" };
    const first = await post({ cookie: s.repCookie }, body);
    expect(first.status).toBe(201);
    const again = await post({ cookie: s.repCookie }, { ...body, notes: "changed offline" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      id: first.body.id,
      message: "Pin created",
      notes: null,
      visit_count: 1,
    });
    // Client ids are the company's own: another company may use the same one.
    const other = await knockScenario();
    const elsewhere = await post({ cookie: other.repCookie }, { ...body, pin_type_id: other.notHome.id });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.id).not.toBe(first.body.id);
  });

  it("makes one pin of two concurrent creates with the same client_id", async () => {
    const s = await knockScenario();
    const body = { location: [30, -97], pin_type_id: s.sold.id, client_id: "race-1" };
    const answers = await Promise.all([
      post({ cookie: s.repCookie }, body),
      post({ cookie: s.repCookie }, body),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers[0]!.body.id).toBe(answers[1]!.body.id);
    const { rows } = await database.db.execute<{ pins: number; visits: number }>(
      sql`select (select count(*)::int from pins where company_id = ${s.companyId}) as pins,
        (select count(*)::int from pin_visits where company_id = ${s.companyId}) as visits`,
    );
    expect(rows[0]).toEqual({ pins: 1, visits: 1 });
  });

  it("keeps the list's kept total in step with creates and type changes", async () => {
    const s = await knockScenario();
    const a = await post({ key: s.key }, { location: [0, 0], pin_type_id: s.sold.id, created_by: s.rep.id });
    await post({ key: s.key }, { location: [0, 1], pin_type_id: s.sold.id, created_by: s.rep.id });
    await post({ key: s.key }, { id: a.body.id, pin_type_id: s.notHome.id });
    const total = async (query: string) =>
      listPinsResponseSchema.parse(
        (await call(listPinsRoute, apiRequest(`/pins${query}`, { key: s.key }))).body,
      ).pagination.total;
    expect(await total("")).toBe(2);
    expect(await total(`?pin_type_id=${s.sold.id}`)).toBe(1);
    expect(await total(`?pin_type_id=${s.notHome.id}`)).toBe(1);
  });

  it.each([
    [{}, ["location", "pin_type_id", "created_by"]],
    [{ location: [91, 0], pin_type_id: "x", created_by: "u" }, ["location.0"]],
    [{ location: [0, -181], pin_type_id: "x", created_by: "u" }, ["location.1"]],
    [{ location: [0], pin_type_id: "x", created_by: "u" }, ["location"]],
    [{ location: "0,0", pin_type_id: "x", created_by: "u" }, ["location"]],
    [{ location: [0, 0], pin_type_id: "", created_by: "u" }, ["pin_type_id"]],
    [{ location: [0, 0], pin_type_id: "x", created_by: "u", notes: "n".repeat(10_001) }, ["notes"]],
    [{ location: [0, 0], pin_type_id: "x", created_by: "u", client_id: "c".repeat(101) }, ["client_id"]],
    [{ location: [0, 0], pin_type_id: "x", created_by: "u", address: "1 Main" }, ["address"]],
    [{ location: [0, 0], pin_type_id: "x", created_by: "u", address: { zip: 78701 } }, ["address.zip"]],
  ])("answers 400 naming the fields of %j", async (body, expected) => {
    const s = await createTenant(database.db);
    const res = await post({ key: s.key }, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: "VALIDATION_ERROR" });
    expect(fields(res.body).sort()).toEqual([...expected].sort());
  });

  it("refuses references outside the company", async () => {
    const s = await knockScenario();
    const other = await knockScenario();
    const lead = await call<{ id: string }>(
      postLead,
      apiRequest("/leads", { key: other.key, body: { name: "B" } }),
    );
    const res = await post(
      { key: s.key },
      { location: [0, 0], pin_type_id: other.sold.id, created_by: other.rep.id, lead_id: lead.body.id },
    );
    expect(res.status).toBe(400);
    expect(fields(res.body).sort()).toEqual(["created_by", "lead_id", "pin_type_id"]);
    const mine = await post(
      { key: s.key },
      { location: [0, 0], pin_type_id: s.sold.id, created_by: s.rep.id },
    );
    const update = await post({ key: s.key }, { id: mine.body.id, pin_type_id: other.sold.id });
    expect(update.status).toBe(400);
    expect(fields(update.body)).toEqual(["pin_type_id"]);
    const { rows } = await database.db.execute(sql`select 1 from pins where company_id = ${s.companyId}`);
    expect(rows).toHaveLength(1);
  });

  it("answers 404 for an unknown or another company's pin", async () => {
    const s = await knockScenario();
    const other = await knockScenario();
    const theirs = await post({ cookie: other.repCookie }, { location: [0, 0], pin_type_id: other.sold.id });
    for (const id of ["pin_unknown", theirs.body.id]) {
      const update = await post({ key: s.key }, { id, notes: "mine now" });
      expect(update.status).toBe(404);
      expect(update.body).toMatchObject({ status: "error", message: "Pin not found" });
      expect((await getPin({ key: s.key }, id)).status).toBe(404);
    }
    expect((await getPin({ key: other.key }, theirs.body.id)).body.data.notes).toBeNull();
  });

  it("needs pins:write to write and pins:read to read", async () => {
    const s = await knockScenario();
    const { key: readOnly } = await createApiKey(database.db, s.companyId, { scopes: ["pins:read"] });
    const refused = await post(
      { key: readOnly },
      { location: [0, 0], pin_type_id: s.sold.id, created_by: s.rep.id },
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error_code: "INSUFFICIENT_SCOPE" });
    expect(String(refused.body.message)).toContain("pins:write");
    const made = await post({ cookie: s.techCookie }, { location: [0, 0], pin_type_id: s.sold.id });
    expect(made.status).toBe(201);
    const { key: writeOnly } = await createApiKey(database.db, s.companyId, { scopes: ["pins:write"] });
    const unread = await getPin({ key: writeOnly }, made.body.id);
    expect(unread.status).toBe(403);
    expect((await getPin({ key: readOnly }, made.body.id)).status).toBe(200);
  });

  it("corrects a user's recent visit on a second type change instead of adding knocks", async () => {
    const s = await knockScenario();
    const knocks = async () => {
      const res = await call<FieldActivityReport>(
        fieldActivityRoute,
        apiRequest("/reports/field-activity", { key: s.key }),
      );
      return Object.fromEntries(res.body.data.map((row) => [row.user.user_id, row.knocks]));
    };
    for (const at of [
      [1, 1],
      [1, 2],
      [1, 3],
    ]) {
      await post({ cookie: s.techCookie }, { location: at, pin_type_id: s.notHome.id });
    }
    const theirs = await post({ cookie: s.repCookie }, { location: [2, 2], pin_type_id: s.notHome.id });
    const id = theirs.body.id;
    expect(await knocks()).toEqual({ [s.tech.id]: 3, [s.rep.id]: 1 });
    // The technician flips the rep's pin twenty times: one knock of theirs, with the last outcome.
    let last = theirs;
    for (let i = 0; i < 20; i++) {
      last = await post(
        { cookie: s.techCookie },
        { id, pin_type_id: i % 2 === 0 ? s.sold.id : s.notHome.id },
      );
      expect(last.status).toBe(200);
    }
    expect(await knocks()).toEqual({ [s.tech.id]: 4, [s.rep.id]: 1 });
    expect(last.body).toMatchObject({ visit_count: 2, pin_type: { id: s.notHome.id } });
    const detail = await getPin({ key: s.key }, id);
    expect(detail.body.data.visits.map((v) => [v.by.user_id, v.pin_type.id])).toEqual([
      [s.tech.id, s.notHome.id],
      [s.rep.id, s.notHome.id],
    ]);
    expect(last.body.last_visit_at).toBe(detail.body.data.visits[0]!.at);
    // Another user's change is their own visit; the rep's create is theirs to correct.
    const byRep = await post({ cookie: s.repCookie }, { id, pin_type_id: s.sold.id });
    expect(byRep.body.visit_count).toBe(2);
    // Past the window, a change is a new knock again.
    await ageVisits(id, "11 minutes");
    const later = await post({ cookie: s.techCookie }, { id, pin_type_id: s.notHome.id });
    expect(later.body.visit_count).toBe(3);
    expect(await knocks()).toEqual({ [s.tech.id]: 5, [s.rep.id]: 1 });
  });

  it("needs leads:read to set or clear lead_id, and writes nothing without it", async () => {
    const s = await knockScenario();
    const lead = await call<{ id: string }>(
      postLead,
      apiRequest("/leads", { key: s.key, body: { name: "Door" } }),
    );
    // The technician cannot read the lead, so cannot link it either.
    expect(
      (
        await call(getLeadRoute, apiRequest(`/leads/${lead.body.id}`, { cookie: s.techCookie }), {
          id: lead.body.id,
        })
      ).status,
    ).toBe(403);
    const own = await post({ cookie: s.techCookie }, { location: [0, 0], pin_type_id: s.sold.id });
    const { key: pinsOnly } = await createApiKey(database.db, s.companyId, { scopes: ["pins:write"] });
    const attempts: [Auth, Record<string, unknown>][] = [
      [{ cookie: s.techCookie }, { location: [0, 1], pin_type_id: s.sold.id, lead_id: lead.body.id }],
      [{ cookie: s.techCookie }, { id: own.body.id, lead_id: lead.body.id }],
      [{ cookie: s.techCookie }, { id: own.body.id, lead_id: null }],
      [
        { key: pinsOnly },
        { location: [0, 1], pin_type_id: s.sold.id, created_by: s.tech.id, lead_id: lead.body.id },
      ],
    ];
    for (const [auth, body] of attempts) {
      const res = await post(auth, body);
      expect([res.status, res.body], JSON.stringify(body)).toEqual([
        403,
        {
          status: "error",
          error_code: "INSUFFICIENT_SCOPE",
          message: "Insufficient scope: lead_id requires the leads:read scope",
        },
      ]);
    }
    const { rows } = await database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pins where company_id = ${s.companyId} and lead_id is not null`,
    );
    expect(rows[0]!.n).toBe(0);
    expect((await post({ cookie: s.techCookie }, { id: own.body.id, notes: "no lead" })).status).toBe(200);
    // A rep reads leads, so links one.
    const linked = await post(
      { cookie: s.repCookie },
      { location: [0, 2], pin_type_id: s.sold.id, lead_id: lead.body.id },
    );
    expect([linked.status, linked.body.lead_id]).toEqual([201, lead.body.id]);
  });

  it("moves a lead off another user's pin only for an admin or a manager (409 otherwise)", async () => {
    const s = await knockScenario();
    const newLead = async (name: string) =>
      (await call<{ id: string }>(postLead, apiRequest("/leads", { key: s.key, body: { name } }))).body.id;
    const [leadA, leadB] = [await newLead("A"), await newLead("B")];
    const other = await createUser(database.db, s.companyId, { role: "sales_rep", name: "Otto Rep" });
    const otherCookie = await createSessionCookie(database.db, other);
    const ritas = await post(
      { cookie: s.repCookie },
      { location: [0, 0], pin_type_id: s.sold.id, lead_id: leadA },
    );
    const ottos = await post({ cookie: otherCookie }, { location: [0, 1], pin_type_id: s.sold.id });
    const refusals: [Auth, Record<string, unknown>][] = [
      [{ cookie: otherCookie }, { location: [0, 2], pin_type_id: s.sold.id, lead_id: leadA }],
      [{ cookie: otherCookie }, { id: ottos.body.id, lead_id: leadA }],
      [{ cookie: otherCookie }, { id: ritas.body.id, lead_id: null }],
      [{ cookie: otherCookie }, { id: ritas.body.id, lead_id: leadB }],
      [{ key: s.key }, { id: ottos.body.id, lead_id: leadA, created_by: other.id }],
    ];
    for (const [auth, body] of refusals) {
      const res = await post(auth, body);
      expect([res.status, (res.body as { error_code?: string }).error_code], JSON.stringify(body)).toEqual([
        409,
        "LEAD_ALREADY_LINKED",
      ]);
      expect(String((res.body as { message?: string }).message)).toMatch(/only an admin or a manager/);
    }
    const linked = await database.db.execute<{ id: string; lead_id: string | null }>(
      sql`select id, lead_id from pins where company_id = ${s.companyId} order by id`,
    );
    expect(Object.fromEntries(linked.rows.map((r) => [r.id, r.lead_id]))).toEqual({
      [ritas.body.id]: leadA,
      [ottos.body.id]: null,
    });
    // The pin's creator changes their own pin's lead; a second pin of theirs may share it.
    expect((await post({ cookie: s.repCookie }, { id: ritas.body.id, lead_id: leadB })).status).toBe(200);
    expect(
      (await post({ cookie: s.repCookie }, { location: [0, 3], pin_type_id: s.sold.id, lead_id: leadB }))
        .status,
    ).toBe(201);
    // Anyone who reads leads may link it to another pin of the same user: the credit stays theirs.
    const ritas3 = await post({ cookie: s.repCookie }, { location: [0, 4], pin_type_id: s.sold.id });
    expect((await post({ cookie: otherCookie }, { id: ritas3.body.id, lead_id: leadB })).status).toBe(200);
    // A manager and an admin move it.
    for (const role of ["manager", "admin"] as const) {
      const boss = await createUser(database.db, s.companyId, { role });
      const cookie = await createSessionCookie(database.db, boss);
      const moved = await post({ cookie }, { id: ottos.body.id, lead_id: role === "manager" ? leadB : null });
      expect(moved.status, role).toBe(200);
    }
  });

  it("lets one of two concurrent links of a lead to different users' pins through", async () => {
    const s = await knockScenario();
    const lead = await call<{ id: string }>(
      postLead,
      apiRequest("/leads", { key: s.key, body: { name: "Race" } }),
    );
    const other = await createUser(database.db, s.companyId, { role: "sales_rep" });
    const otherCookie = await createSessionCookie(database.db, other);
    const body = { location: [0, 0], pin_type_id: s.sold.id, lead_id: lead.body.id };
    const answers = await Promise.all([
      post({ cookie: s.repCookie }, body),
      post({ cookie: otherCookie }, body),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const { rows } = await database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pins where company_id = ${s.companyId} and lead_id = ${lead.body.id}`,
    );
    expect(rows[0]!.n).toBe(1);
  });
});

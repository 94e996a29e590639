import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listPinTypes } from "@/app/api/pin-types/route";
import { POST as postPin } from "@/app/api/pins/route";
import { GET as getSettings, PUT as putSettings } from "@/app/api/settings/pin-types/route";
import type { UserRole } from "@/lib/db/schema";
import {
  pinTypeSettingsResponseSchema,
  type ListPinTypesResponse,
  type PinTypeSettingsResponse,
} from "@/lib/schemas/pin-types";
import {
  apiRequest,
  call,
  createApiKey,
  createCompany,
  createSessionCookie,
  createUser,
} from "@/lib/testing/factories";
import { insertPinType } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

type Body = PinTypeSettingsResponse & {
  message?: string;
  error_code?: string;
  details?: { field: string }[];
};

async function signedIn(companyId: string, role: UserRole) {
  const user = await createUser(database.db, companyId, { role });
  return { user, cookie: await createSessionCookie(database.db, user) };
}

/** A company with an admin and three types: Not home, Sold, Come back. */
async function adminTenant() {
  const company = await createCompany(database.db);
  const { user, cookie } = await signedIn(company.id, "admin");
  const notHome = await insertPinType(database.db, company.id, { label: "Not home", color: "#888888" });
  const sold = await insertPinType(database.db, company.id, { label: "Sold", color: "#00aa00" });
  const back = await insertPinType(database.db, company.id, { label: "Come back", color: "#f90" });
  return { companyId: company.id, admin: user, cookie, notHome, sold, back };
}

const put = (cookie: string, pinTypes: unknown) =>
  call<Body>(
    putSettings,
    apiRequest("/settings/pin-types", { method: "PUT", cookie, body: { pin_types: pinTypes } }),
  );
const read = (cookie: string) => call<Body>(getSettings, apiRequest("/settings/pin-types", { cookie }));
const fields = (body: Body) => (body.details ?? []).map((d) => d.field);

describe(`GET/PUT /api/settings/pin-types (${testEngine()})`, () => {
  it("renames, recolors, reorders and adds types; ids stay, the order is saved", async () => {
    const s = await adminTenant();
    const res = await put(s.cookie, [
      { id: s.sold.id, label: "Sold!", color: "#00AA00" },
      { label: "Interested", color: "#00f" },
      { id: s.notHome.id, label: "Not home", color: "#777777" },
      { id: s.back.id, label: "Come back", color: "#f90" },
    ]);
    expect(res.status).toBe(200);
    expect(pinTypeSettingsResponseSchema.parse(res.body)).toEqual(res.body);
    const newId = res.body.data[1]!.id;
    expect(newId).toMatch(/^pt_/);
    expect(res.body.data).toEqual([
      { id: s.sold.id, label: "Sold!", color: "#00aa00", position: 0 },
      { id: newId, label: "Interested", color: "#00f", position: 1 },
      { id: s.notHome.id, label: "Not home", color: "#777777", position: 2 },
      { id: s.back.id, label: "Come back", color: "#f90", position: 3 },
    ]);
    expect((await read(s.cookie)).body).toEqual(res.body);
    // GET /pin-types keeps its order by label, with each type's position.
    const listed = await call<ListPinTypesResponse>(
      listPinTypes,
      apiRequest("/pin-types", { cookie: s.cookie }),
    );
    expect(listed.body.data.map((t) => [t.label, t.position])).toEqual([
      ["Come back", 3],
      ["Interested", 1],
      ["Not home", 2],
      ["Sold!", 0],
    ]);
  });

  it("refuses bad labels and colors, labels twice in any case, unknown or repeated ids, and no type", async () => {
    const s = await adminTenant();
    const other = await adminTenant();
    const cases: [unknown, string[]][] = [
      [[], ["pin_types"]],
      [[{ label: " ", color: "#000" }], ["pin_types.0.label"]],
      [[{ label: "x".repeat(101), color: "#000" }], ["pin_types.0.label"]],
      [[{ label: "A", color: "red" }], ["pin_types.0.color"]],
      [[{ label: "A", color: "#12345" }], ["pin_types.0.color"]],
      [
        [
          { label: "Sold", color: "#000" },
          { label: " SOLD ", color: "#111" },
        ],
        ["pin_types.1.label"],
      ],
      [[{ id: other.sold.id, label: "Theirs", color: "#000" }], ["pin_types.0.id"]],
      [
        [
          { id: s.sold.id, label: "One", color: "#000" },
          { id: s.sold.id, label: "Two", color: "#000" },
        ],
        ["pin_types.1.id"],
      ],
      ["not a list", ["pin_types"]],
    ];
    for (const [body, expected] of cases) {
      const res = await put(s.cookie, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_ERROR");
      expect(fields(res.body), JSON.stringify(body)).toEqual(expected);
    }
    expect((await read(s.cookie)).body.data.map((t) => t.id).sort()).toEqual(
      [s.notHome.id, s.sold.id, s.back.id].sort(),
    );
    expect((await read(other.cookie)).body.data).toHaveLength(3);
  });

  it("refuses to remove a type pins or visits use, naming it and its counts (409), and changes nothing", async () => {
    const s = await adminTenant();
    const pin = (pinTypeId: string) =>
      call<{ id: string }>(
        postPin,
        apiRequest("/pins", { cookie: s.cookie, body: { location: [30, -97], pin_type_id: pinTypeId } }),
      );
    await pin(s.sold.id);
    const moved = await pin(s.sold.id);
    await pin(s.back.id);
    // Visits an hour old: a change within 10 minutes would correct the visit, not add one (E5).
    const backdate = () =>
      database.db.execute(
        sql`update pin_visits set at = at - interval '1 hour' where pin_id = ${moved.body.id}`,
      );
    await backdate();
    // The second Sold pin becomes Come back: Sold keeps 1 pin and 2 visits, Come back has 2 of each.
    await call(
      postPin,
      apiRequest("/pins", { cookie: s.cookie, body: { id: moved.body.id, pin_type_id: s.back.id } }),
    );
    const before = (await read(s.cookie)).body;
    const res = await put(s.cookie, [{ id: s.notHome.id, label: "Not home", color: "#888888" }]);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      status: "error",
      error_code: "PIN_TYPE_IN_USE",
      message:
        'The pin type "Come back" is used by 2 pins and 2 visits; The pin type "Sold" is used by 1 pin and 2 visits: ' +
        "a type in use cannot be removed (rename or recolor it instead)",
    });
    expect((await read(s.cookie)).body).toEqual(before);
    // A type only visits use is in use too: its history names it.
    await backdate();
    await call(
      postPin,
      apiRequest("/pins", { cookie: s.cookie, body: { id: moved.body.id, pin_type_id: s.notHome.id } }),
    );
    const history = await put(s.cookie, [
      { id: s.sold.id, label: "Sold", color: "#00aa00" },
      { id: s.notHome.id, label: "Not home", color: "#888888" },
    ]);
    expect(history.status).toBe(409);
    expect(history.body.message).toContain('"Come back" is used by 1 pin and 2 visits');
    // A type nothing uses can go.
    const fresh = await adminTenant();
    const ok = await put(fresh.cookie, [{ id: fresh.sold.id, label: "Sold", color: "#00aa00" }]);
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((t) => t.id)).toEqual([fresh.sold.id]);
  });

  it("is for admins' sessions only", async () => {
    const s = await adminTenant();
    for (const role of ["manager", "sales_rep", "technician"] as const) {
      const { cookie } = await signedIn(s.companyId, role);
      const res = await put(cookie, [{ label: "Mine", color: "#000" }]);
      expect(res.status, role).toBe(403);
      expect(res.body.error_code).toBe("FORBIDDEN");
      expect((await read(cookie)).status, role).toBe(403);
    }
    const { key } = await createApiKey(database.db, s.companyId);
    const byKey = await call<Body>(
      putSettings,
      apiRequest("/settings/pin-types", {
        method: "PUT",
        key,
        body: { pin_types: [{ label: "K", color: "#000" }] },
      }),
    );
    expect(byKey.status).toBe(403);
    expect((await call(getSettings, apiRequest("/settings/pin-types", { key }))).status).toBe(403);
    expect((await read(s.cookie)).body.data).toHaveLength(3);
  });
});

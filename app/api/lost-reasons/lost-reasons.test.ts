import { describe, expect, it } from "vitest";
import { GET as getLead } from "@/app/api/leads/[id]/route";
import { GET as leadActivity } from "@/app/api/leads/[id]/activity/route";
import { POST as upsertLead } from "@/app/api/leads/route";
import { GET as getLostReasons } from "@/app/api/lost-reasons/route";
import { GET as getSettings, PUT as putSettings } from "@/app/api/settings/lost-reasons/route";
import type { UserRole } from "@/lib/db/schema";
import type { ActivityEntry } from "@/lib/schemas/activity";
import { leadSchema } from "@/lib/schemas/leads";
import type { LostReasonsResponse } from "@/lib/schemas/lost-reasons";
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

type Body = LostReasonsResponse & {
  message?: string;
  error_code?: string;
  details?: { field: string; message: string }[];
};

async function signedIn(companyId: string, role: UserRole) {
  const user = await createUser(database.db, companyId, { role });
  return createSessionCookie(database.db, user);
}

async function adminTenant() {
  const company = await createCompany(database.db);
  return { companyId: company.id, cookie: await signedIn(company.id, "admin") };
}

const put = (cookie: string, reasons: unknown) =>
  call<Body>(putSettings, apiRequest("/settings/lost-reasons", { method: "PUT", cookie, body: { reasons } }));
const read = (auth: { cookie?: string; key?: string }) =>
  call<Body>(getLostReasons, apiRequest("/lost-reasons", auth));
const labels = (body: Body) => body.data.map((r) => r.label);

describe(`GET /api/lost-reasons and GET/PUT /api/settings/lost-reasons (${testEngine()})`, () => {
  it("starts empty, then keeps the list an admin saves, in order, ids kept on rename and move", async () => {
    const { cookie } = await adminTenant();
    expect((await read({ cookie })).body).toEqual({ status: "success", data: [] });

    const saved = await put(cookie, [{ label: " Price too high " }, { label: "No response" }]);
    expect(saved.status).toBe(200);
    expect(labels(saved.body)).toEqual(["Price too high", "No response"]);
    const [price, silent] = saved.body.data;

    const moved = await put(cookie, [
      { id: silent!.id, label: "Never answered" },
      { id: price!.id, label: "Price too high" },
      { label: "Chose a competitor" },
    ]);
    expect(moved.status).toBe(200);
    expect(moved.body.data.slice(0, 2)).toEqual([
      { id: silent!.id, label: "Never answered" },
      { id: price!.id, label: "Price too high" },
    ]);
    const listed = await read({ cookie });
    expect(listed.body).toEqual(moved.body);
    const settings = await call<Body>(getSettings, apiRequest("/settings/lost-reasons", { cookie }));
    expect(settings.body).toEqual(moved.body);

    expect((await put(cookie, [])).body.data).toEqual([]);
    expect((await read({ cookie })).body.data).toEqual([]);
  });

  it("refuses duplicate labels, unknown ids and blank labels, naming the field, and changes nothing", async () => {
    const { cookie } = await adminTenant();
    const first = await put(cookie, [{ label: "Price too high" }]);
    const cases: [unknown, string, string][] = [
      [
        [{ label: "Price" }, { label: "PRICE" }],
        "reasons.1.label",
        'another reason is already named "PRICE"',
      ],
      [[{ id: "lr_nope", label: "Other" }], "reasons.0.id", 'no lost reason has the id "lr_nope"'],
      [[{ label: "  " }], "reasons.0.label", "Enter a reason"],
    ];
    for (const [reasons, field, message] of cases) {
      const res = await put(cookie, reasons);
      expect(res.status, field).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_ERROR");
      expect(res.body.details).toContainEqual(expect.objectContaining({ field, message }));
    }
    // Another company's reason id is unknown here.
    const other = await adminTenant();
    const theirs = await put(other.cookie, [{ label: "Theirs" }]);
    const stolen = await put(cookie, [{ id: theirs.body.data[0]!.id, label: "Mine now" }]);
    expect(stolen.status).toBe(400);
    expect((await read({ cookie })).body).toEqual(first.body);
    expect(labels((await read({ cookie: other.cookie })).body)).toEqual(["Theirs"]);
  });

  it("lets only an admin's session edit the list; reps and keys with pipeline:read read it", async () => {
    const company = await createCompany(database.db);
    for (const role of ["manager", "sales_rep"] as const) {
      const cookie = await signedIn(company.id, role);
      expect((await put(cookie, [{ label: "Mine" }])).status, role).toBe(403);
      expect((await read({ cookie })).status, role).toBe(200);
    }
    const { key } = await createApiKey(database.db, company.id, { scopes: ["pipeline:read"] });
    expect((await read({ key })).status).toBe(200);
    const refused = await call<Body>(
      putSettings,
      apiRequest("/settings/lost-reasons", { method: "PUT", key, body: { reasons: [] } }),
    );
    expect(refused.status).toBe(403);
  });
});

describe(`A lead's lost_reason (${testEngine()})`, () => {
  it("records the reason with the move to Lost, shows it on the lead and in the activity, and clears it on reopening", async () => {
    const { companyId, cookie } = await adminTenant();
    const { key } = await createApiKey(database.db, companyId);
    const post = (body: unknown) =>
      call<Record<string, unknown>>(upsertLead, apiRequest("/leads", { key, body }));

    const created = await post({ name: "Dana Reyes", stage: "quoted" });
    expect(created.status).toBe(201);
    expect(created.body.lost_reason).toBeNull();
    const id = created.body.id as string;

    const lost = await post({ id, stage: "Lost", lost_reason: "Chose a competitor" });
    expect(lost.status).toBe(200);
    expect(lost.body).toMatchObject({ stage: "lost", lost_reason: "Chose a competitor" });

    const got = await call<{ data: unknown }>(getLead, apiRequest(`/leads/${id}`, { cookie }), { id });
    expect(leadSchema.parse(got.body.data)).toMatchObject({
      stage: "lost",
      lost_reason: "Chose a competitor",
    });

    const entries = await call<{ data: ActivityEntry[] }>(
      leadActivity,
      apiRequest(`/leads/${id}/activity`, { cookie }),
      { id },
    );
    expect(entries.body.data[0]?.changes).toEqual(
      expect.arrayContaining([
        { field: "stage", from: "quoted", to: "lost" },
        { field: "lost_reason", from: null, to: "Chose a competitor" },
      ]),
    );

    // A change that leaves the stage alone keeps the reason; a move out of Lost clears it.
    expect((await post({ id, notes: "Call back in spring" })).body.lost_reason).toBe("Chose a competitor");
    const reopened = await post({ id, stage: "contacted" });
    expect(reopened.body).toMatchObject({ stage: "contacted", lost_reason: null });
  });

  it("rejects a lost_reason that is not text, naming the field", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id);
    const res = await call<Body>(
      upsertLead,
      apiRequest("/leads", { key, body: { name: "Sam", stage: "lost", lost_reason: 42 } }),
    );
    expect(res.status).toBe(400);
    expect(res.body.details?.map((d) => d.field)).toContain("lost_reason");
  });
});

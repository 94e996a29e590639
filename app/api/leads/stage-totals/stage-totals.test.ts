import { describe, expect, it } from "vitest";
import { GET, POST } from "@/app/api/leads/stage-totals/route";
import { leads } from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import { leadStageTotalsResponseSchema } from "@/lib/schemas/leads";
import {
  apiRequest,
  call,
  createApiKey,
  createCompany,
  createSessionCookie,
  createTenant,
  createUser,
} from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

type ErrorBody = { status: string; message: string; error_code?: string; details?: { field: string }[] };

const totals = (options: { key?: string; cookie?: string; version?: string | null }, query = "") =>
  call(GET, apiRequest(`/leads/stage-totals${query}`, options));

async function insertLeads(companyId: string, rows: Partial<typeof leads.$inferInsert>[]) {
  await database.db
    .insert(leads)
    .values(rows.map((row) => ({ name: "Board lead", ...row, companyId, id: newId(ID_PREFIX.lead) })));
}

describe(`GET /api/leads/stage-totals (${testEngine()})`, () => {
  it("answers each stage's count and summed projected value, and the totals, with the list's filters", async () => {
    const { companyId, key } = await createTenant(database.db);
    await insertLeads(companyId, [
      { stage: "new", projectedValue: 1200.5, tags: ["vip"] },
      { stage: "new", projectedValue: 0.25 },
      { stage: "won", projectedValue: 99.99, tags: ["vip"] },
      { stage: "Legacy stage", projectedValue: null },
      { stage: null, projectedValue: 10 },
      { stage: "won", projectedValue: 1000, archived: true },
    ]);
    const all = await totals({ key });
    expect(all.status).toBe(200);
    expect(leadStageTotalsResponseSchema.parse(all.body)).toEqual(all.body);
    expect(all.body).toEqual({
      status: "success",
      data: [
        { stage: "Legacy stage", count: 1, projected_value: 0 },
        { stage: "new", count: 2, projected_value: 1200.75 },
        { stage: "won", count: 1, projected_value: 99.99 },
        { stage: null, count: 1, projected_value: 10 },
      ],
      totals: { count: 5, projected_value: 1310.74 },
    });
    expect((await totals({ key }, "?archived=true")).body).toMatchObject({
      totals: { count: 6, projected_value: 2310.74 },
    });
    expect((await totals({ key }, "?tags=vip")).body).toEqual({
      status: "success",
      data: [
        { stage: "new", count: 1, projected_value: 1200.5 },
        { stage: "won", count: 1, projected_value: 99.99 },
      ],
      totals: { count: 2, projected_value: 1300.49 },
    });
    expect((await totals({ key }, "?stage=won&archived=true")).body).toEqual({
      status: "success",
      data: [{ stage: "won", count: 2, projected_value: 1099.99 }],
      totals: { count: 2, projected_value: 1099.99 },
    });
    expect((await totals({ key }, "?search=board&stage=new")).body).toMatchObject({
      data: [{ stage: "new", count: 2, projected_value: 1200.75 }],
    });
    expect((await totals({ key }, "?search=nobody")).body).toEqual({
      status: "success",
      data: [],
      totals: { count: 0, projected_value: 0 },
    });
    // Paging is no filter of the board: page and limit are ignored like any unknown parameter.
    expect((await totals({ key }, "?page=2&limit=1")).body).toMatchObject({ totals: { count: 5 } });
  });

  it("counts only the caller's company", async () => {
    const a = await createTenant(database.db);
    const b = await createTenant(database.db);
    await insertLeads(a.companyId, [{ stage: "new", projectedValue: 5 }]);
    expect((await totals({ key: b.key })).body).toEqual({
      status: "success",
      data: [],
      totals: { count: 0, projected_value: 0 },
    });
  });

  it("follows the contract's checks: 401, 400 version, 403 scope, 400 query, 405", async () => {
    const company = await createCompany(database.db);
    const noKey = await totals({});
    expect(noKey.status).toBe(401);
    expect((noKey.body as ErrorBody).error_code).toBe("AUTHENTICATION_REQUIRED");
    const badKey = await totals({ key: "fcrm_not_a_key" });
    expect(badKey.status).toBe(401);
    expect((badKey.body as ErrorBody).error_code).toBe("INVALID_API_KEY");

    const { key: pinsOnly } = await createApiKey(database.db, company.id, { scopes: ["pins:read"] });
    const noVersion = await totals({ key: pinsOnly, version: null });
    expect(noVersion.status).toBe(400);
    expect((noVersion.body as ErrorBody).error_code).toBe("UNSUPPORTED_API_VERSION");
    const denied = await totals({ key: pinsOnly });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ status: "error", error_code: "INSUFFICIENT_SCOPE" });
    expect((denied.body as ErrorBody).message).toContain("leads:read");

    const { key } = await createApiKey(database.db, company.id, { scopes: ["leads:read"] });
    const bad = await totals({ key }, "?archived=maybe&search=" + "x".repeat(300));
    expect(bad.status).toBe(400);
    expect((bad.body as ErrorBody).error_code).toBe("VALIDATION_ERROR");
    expect(((bad.body as ErrorBody).details ?? []).map((d) => d.field).sort()).toEqual([
      "archived",
      "search",
    ]);
    expect(JSON.stringify(bad.body)).not.toMatch(/select|stack|\/work\//i);

    const post = await call(POST, apiRequest("/leads/stage-totals", { key, body: {} }));
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("gives sessions their role's scopes: a sales_rep reads the board, a technician does not", async () => {
    const company = await createCompany(database.db);
    await insertLeads(company.id, [{ stage: "new", projectedValue: 3.5 }]);
    const rep = await createUser(database.db, company.id, { role: "sales_rep" });
    const repAnswer = await totals({ cookie: await createSessionCookie(database.db, rep) });
    expect(repAnswer.status).toBe(200);
    expect(repAnswer.body).toMatchObject({ totals: { count: 1, projected_value: 3.5 } });
    const technician = await createUser(database.db, company.id, { role: "technician" });
    const techAnswer = await totals({ cookie: await createSessionCookie(database.db, technician) });
    expect(techAnswer.status).toBe(403);
    expect((techAnswer.body as ErrorBody).error_code).toBe("INSUFFICIENT_SCOPE");
  });
});

import { describe, expect, it } from "vitest";
import { GET as exportPlans } from "@/app/api/reports/service-plans/export/route";
import { GET as exportJobs } from "@/app/api/reports/serviced-jobs/export/route";
import { GET as listPlans } from "@/app/api/service-plans/route";
import { apiRequest, call, createApiKey, createUser } from "@/lib/testing/factories";
import {
  createPlanJobScenario,
  insertCustomer,
  insertJob,
  insertPlan,
} from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import type { ListServicePlansResponse } from "@/lib/schemas/service-plans";
import { exportServicedJobsCsv, exportServicePlansCsv, SERVICE_PLAN_CSV_HEADER } from "./exports";

const database = setupTestDatabase();

/** RFC 4180 parser for the tests: rows of cells, split on `separator` outside quotes. */
function parseCsv(text: string, separator = ","): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === separator) {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  expect(cell === "" && row.length === 0).toBe(true);
  return rows;
}

async function download(handler: typeof exportPlans, path: string, key: string) {
  const response = await handler(apiRequest(path, { key }), { params: Promise.resolve({}) });
  const text = await response.text();
  return { response, text, rows: response.status === 200 ? parseCsv(text) : [] };
}

const today = () => new Date().toISOString().slice(0, 10);

describe(`GET /api/reports/service-plans/export (${testEngine()})`, () => {
  it("streams every filtered plan as CSV with the list's numbers", async () => {
    const s = await createPlanJobScenario(database.db);
    const { response, rows } = await download(exportPlans, "/reports/service-plans/export", s.key);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="service-plans-${today()}.csv"`,
    );
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(rows[0]).toEqual([...SERVICE_PLAN_CSV_HEADER]);
    expect(rows.slice(1).map((r) => r[0])).toEqual([
      s.plans.p4.id,
      s.plans.p3.id,
      s.plans.p2.id,
      s.plans.p1.id,
    ]);
    expect(rows[4]).toEqual([
      s.plans.p1.id,
      "2026-01-10T10:00:00.000Z",
      "true",
      s.customers.pat.id,
      "Pat",
      "Doe",
      "",
      "Quarterly",
      "Pest Control",
      s.users.alice.id,
      "Alice Seller",
      "alice@example.test",
      "2026-01-15T00:00:00.000Z",
      "1",
      "3",
      "1",
      "305.50",
      "160.00",
    ]);
    expect(rows[3]?.slice(7, 8)).toEqual(["Every 5 weeks"]);
    const inactive = await download(exportPlans, "/reports/service-plans/export?status=inactive", s.key);
    expect(inactive.rows.slice(1).map((r) => r[0])).toEqual([s.plans.p2.id]);
    const none = await download(exportPlans, "/reports/service-plans/export?frequency=Monthly", s.key);
    expect(none.rows).toEqual([[...SERVICE_PLAN_CSV_HEADER]]);
  });

  it("quotes and neutralises formulas in customer names", async () => {
    const s = await createPlanJobScenario(database.db);
    const customer = await insertCustomer(database.db, s.companyId, {
      firstName: "O'Neil, Jr",
      lastName: '=HYPERLINK("http://evil","x")',
      companyName: "@Risk\nLtd",
    });
    await insertPlan(database.db, s.companyId, {
      customerId: customer.id,
      serviceType: "-Lawn+",
      createdAt: "2027-01-01T00:00:00Z",
    });
    const { rows, text } = await download(exportPlans, "/reports/service-plans/export", s.key);
    expect(rows).toHaveLength(6);
    expect(rows[1]?.slice(4, 7)).toEqual(["O'Neil, Jr", `'=HYPERLINK("http://evil","x")`, "'@Risk\nLtd"]);
    expect(rows[1]?.[8]).toBe("'-Lawn+");
    expect(text).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
  });

  it("quotes every text cell, so a `;` list separator cannot start a formula cell", async () => {
    const s = await createPlanJobScenario(database.db);
    const payload = "x;=cmd|'/C calc'!A0";
    const seller = await createUser(database.db, s.companyId, { name: payload, role: "sales_rep" });
    const customer = await insertCustomer(database.db, s.companyId, { firstName: payload, lastName: "Doe" });
    await insertPlan(database.db, s.companyId, {
      customerId: customer.id,
      soldBy: seller.id,
      createdAt: "2027-01-01T00:00:00Z",
    });
    const { rows, text } = await download(exportPlans, "/reports/service-plans/export", s.key);
    expect(rows[1]?.[4]).toBe(payload);
    expect(rows[1]?.[10]).toBe(payload);
    // Read with `;` as the list separator, the payload's `;` is inside quotes: no cell is a formula.
    const cells = parseCsv(text, ";").flat();
    expect(cells.filter((cell) => cell.includes("cmd"))).toHaveLength(1);
    for (const cell of cells) expect(cell).not.toMatch(/^\s*[=+\-@]/);
  });

  it("crosses keyset batches without repeating or skipping plans created at the same instant", async () => {
    const s = await createPlanJobScenario(database.db);
    const customer = await insertCustomer(database.db, s.companyId);
    for (let i = 0; i < 7; i++) {
      await insertPlan(database.db, s.companyId, {
        id: `${s.companyId}_same_${i}`,
        customerId: customer.id,
        createdAt: "2026-03-01T12:00:00.123456Z",
      });
    }
    const csv = await exportServicePlansCsv({
      ctx: { db: database.db, companyId: s.companyId },
      input: {},
      batchSize: 2,
    });
    const rows = parseCsv(await new Response(csv.stream).text());
    const list = await call<ListServicePlansResponse>(
      listPlans,
      apiRequest("/service-plans?limit=1000", { key: s.key }),
    );
    expect(rows.slice(1).map((r) => r[0])).toEqual(list.body.data.map((p) => p.id));
    expect(rows).toHaveLength(1 + 11);
  });

  it("answers errors before streaming as JSON through the pipeline", async () => {
    const s = await createPlanJobScenario(database.db);
    const bad = await download(
      exportPlans,
      "/reports/service-plans/export?created_at_range_start=soon",
      s.key,
    );
    expect(bad.response.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({
      error_code: "VALIDATION_ERROR",
      details: [{ field: "created_at_range_start" }],
    });
    const { key } = await createApiKey(database.db, s.companyId, { scopes: ["jobs:read"] });
    const denied = await download(exportPlans, "/reports/service-plans/export", key);
    expect(denied.response.status).toBe(403);
    expect(JSON.parse(denied.text).message).toContain("service_plans:read");
  });
});

describe(`GET /api/reports/serviced-jobs/export (${testEngine()})`, () => {
  it("streams the filtered jobs with technicians and money", async () => {
    const s = await createPlanJobScenario(database.db);
    const { response, rows } = await download(exportJobs, "/reports/serviced-jobs/export", s.key);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="serviced-jobs-${today()}.csv"`,
    );
    expect(rows[0]).toEqual([
      "id",
      "created_at",
      "service_date",
      "status",
      "customer_id",
      "customer_first_name",
      "customer_last_name",
      "customer_company_name",
      "service_plan_id",
      "technicians",
      "total",
      "total_received",
      "total_outstanding",
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual([s.jobs.j10.id, s.jobs.j9.id, s.jobs.j8.id, s.jobs.j1.id]);
    expect(rows[4]).toEqual([
      s.jobs.j1.id,
      "2026-01-11T10:00:00.000Z",
      "2026-01-18T14:00:00.000Z",
      "Completed",
      s.customers.pat.id,
      "Pat",
      "Doe",
      "",
      s.plans.p1.id,
      "Tess Tech; Uma Tech; Vic Tech",
      "125.50",
      "80.00",
      "45.50",
    ]);
    const all = await download(exportJobs, "/reports/serviced-jobs/export?only_completed=false", s.key);
    expect(all.rows).toHaveLength(1 + 9);
    const bounded = await download(
      exportJobs,
      "/reports/serviced-jobs/export?only_completed=false&service_date_range_end=2026-03-31",
      s.key,
    );
    expect(bounded.rows.slice(1).map((r) => r[0])).toEqual([
      s.jobs.j8.id,
      s.jobs.j4.id,
      s.jobs.j3.id,
      s.jobs.j1.id,
    ]);
  });

  it("crosses keyset batches over every job and accepts the legacy leads:read scope", async () => {
    const s = await createPlanJobScenario(database.db);
    const customer = await insertCustomer(database.db, s.companyId);
    for (let i = 0; i < 5; i++) {
      await insertJob(database.db, s.companyId, {
        id: `${s.companyId}_job_${i}`,
        customerId: customer.id,
        createdAt: "2026-02-02T10:00:00Z",
        status: "Scheduled",
      });
    }
    const csv = await exportServicedJobsCsv({
      ctx: { db: database.db, companyId: s.companyId },
      input: { only_completed: false },
      batchSize: 3,
    });
    const ids = parseCsv(await new Response(csv.stream).text())
      .slice(1)
      .map((r) => r[0]);
    expect(ids).toHaveLength(14);
    expect(new Set(ids).size).toBe(14);
    const { key } = await createApiKey(database.db, s.companyId, { scopes: ["leads:read"] });
    const legacy = await download(exportJobs, "/reports/serviced-jobs/export?only_completed=false", key);
    expect(legacy.rows.slice(1).map((r) => r[0])).toEqual(ids);
  });
});

import { describe, expect, it } from "vitest";
import { GET as planReport } from "@/app/api/reports/service-plans/route";
import { GET as jobReport } from "@/app/api/reports/serviced-jobs/route";
import { GET as listPlans } from "@/app/api/service-plans/route";
import { GET as listJobs } from "@/app/api/serviced-jobs/route";
import { apiRequest, call, createApiKey, createTenant } from "@/lib/testing/factories";
import { createPlanJobScenario, insertJob } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import {
  servicedJobReportSchema,
  servicePlanReportSchema,
  type ServicedJobReportResponse,
  type ServicePlanReportResponse,
} from "@/lib/schemas/reports";
import type { ServicePlan } from "@/lib/schemas/service-plans";
import type { ServicedJob } from "@/lib/schemas/serviced-jobs";

const database = setupTestDatabase();

const plans = (query: string, key: string) =>
  call<ServicePlanReportResponse>(planReport, apiRequest(`/reports/service-plans${query}`, { key }));
const jobs = (query: string, key: string) =>
  call<ServicedJobReportResponse>(jobReport, apiRequest(`/reports/serviced-jobs${query}`, { key }));

/** Every row of a list endpoint, read page by page as a client would. */
async function allPages<T>(handler: typeof listPlans, path: string, key: string, limit = 3): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await call<{ data: T[]; pagination: { has_more: boolean } }>(
      handler,
      apiRequest(`${path}${sep}limit=${limit}&page=${page}`, { key }),
    );
    expect(res.status).toBe(200);
    rows.push(...res.body.data);
    if (!res.body.pagination.has_more) return rows;
  }
}
const sum = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) * 100) / 100;
const totals = (
  n: number,
  sale: number,
  received: number,
  completed: number,
  scheduled: number,
  pending: number,
) => ({
  plan_count: n,
  sale_value: sale,
  total_received: received,
  collection_rate: sale > 0 ? Math.round((received / sale) * 10_000) / 10_000 : 0,
  num_completed_jobs: completed,
  num_scheduled_jobs: scheduled,
  num_pending_jobs: pending,
});

describe(`GET /api/reports/service-plans (${testEngine()})`, () => {
  it("totals and breaks down every plan, computed by hand", async () => {
    const s = await createPlanJobScenario(database.db);
    const res = await plans("", s.key);
    expect(res.status).toBe(200);
    expect(servicePlanReportSchema.parse(res.body)).toEqual(res.body);
    const alice = { email: "alice@example.test", name: "Alice Seller", user_id: s.users.alice.id };
    const bob = { email: "bob@example.test", name: "Bob Seller", user_id: s.users.bob.id };
    // P1 305.50/160 (1,3,1); P2 179.91/0 (1,1,9); P3 650/0 (0,0,52); P4 160/100 (2,2,0).
    expect(res.body).toEqual({
      status: "success",
      data: {
        ...totals(4, 1295.41, 260, 4, 6, 62),
        collection_rate: 0.2007,
        by_frequency: [
          { frequency: "Annual", ...totals(1, 160, 100, 2, 2, 0) },
          { frequency: "Quarterly", ...totals(1, 305.5, 160, 1, 3, 1) },
          { frequency: "Weekly", ...totals(1, 650, 0, 0, 0, 52) },
          { frequency: "Custom", ...totals(1, 179.91, 0, 1, 1, 9) },
        ],
        by_service_type: [
          { service_type: "", ...totals(1, 650, 0, 0, 0, 52) },
          { service_type: "Pest Control", ...totals(2, 465.5, 260, 3, 5, 1) },
          { service_type: "Lawn", ...totals(1, 179.91, 0, 1, 1, 9) },
        ],
        // By money collected, then sale value: Alice 260; nobody 0 of 650; Bob 0 of 179.91.
        by_sales_rep: [
          { sold_by: alice, ...totals(2, 465.5, 260, 3, 5, 1), collection_rate: 0.5585 },
          { sold_by: { email: "", name: "", user_id: "" }, ...totals(1, 650, 0, 0, 0, 52) },
          { sold_by: bob, ...totals(1, 179.91, 0, 1, 1, 9) },
        ],
      },
    });
  });

  it.each([
    "",
    "?status=active",
    "?status=inactive",
    "?created_at_range_end=2026-03-31",
    "?created_at_range_start=2026-02-01&frequency=Weekly",
    "?service_type=Pest%20Control",
  ])("equals the sum over the list endpoint's pages for %s", async (query) => {
    const s = await createPlanJobScenario(database.db);
    const report = (await plans(query, s.key)).body.data;
    const rows = await allPages<ServicePlan>(listPlans, `/service-plans${query}`, s.key);
    expect(report.plan_count).toBe(rows.length);
    expect(report.sale_value).toBe(sum(rows.map((r) => r.sale_value)));
    expect(report.total_received).toBe(sum(rows.map((r) => r.total_received)));
    expect(report.num_completed_jobs).toBe(sum(rows.map((r) => r.num_completed_jobs)));
    expect(report.num_scheduled_jobs).toBe(sum(rows.map((r) => r.num_scheduled_jobs)));
    expect(report.num_pending_jobs).toBe(sum(rows.map((r) => r.num_pending_jobs)));
    expect(sum(report.by_sales_rep.map((r) => r.plan_count))).toBe(rows.length);
    expect(sum(report.by_frequency.map((r) => r.sale_value))).toBe(report.sale_value);
  });

  it("answers zeros and empty breakdowns for an empty set", async () => {
    const s = await createPlanJobScenario(database.db);
    const res = await plans("?frequency=Monthly", s.key);
    expect(res.body.data).toEqual({
      ...totals(0, 0, 0, 0, 0, 0),
      by_frequency: [],
      by_service_type: [],
      by_sales_rep: [],
    });
  });

  it("sees only the key's company", async () => {
    const s = await createPlanJobScenario(database.db);
    await createPlanJobScenario(database.db);
    expect((await plans("", s.key)).body.data.plan_count).toBe(4);
    const empty = await createTenant(database.db);
    expect((await plans("", empty.key)).body.data.plan_count).toBe(0);
  });

  it("validates its filters and requires service_plans:read", async () => {
    const s = await createTenant(database.db);
    const bad = await call(
      planReport,
      apiRequest("/reports/service-plans?frequency=Daily&status=x", { key: s.key }),
    );
    expect(bad.status).toBe(400);
    expect((bad.body.details as { field: string }[]).map((d) => d.field).sort()).toEqual([
      "frequency",
      "status",
    ]);
    const { key } = await createApiKey(database.db, s.companyId, { scopes: ["leads:read", "jobs:read"] });
    const denied = await call(planReport, apiRequest("/reports/service-plans", { key }));
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain("service_plans:read");
  });
});

describe(`GET /api/reports/serviced-jobs (${testEngine()})`, () => {
  const job = (n: number, total: number, received: number, outstanding: number) => ({
    job_count: n,
    total,
    total_received: received,
    total_outstanding: outstanding,
  });

  it("totals all jobs by month and technician, computed by hand", async () => {
    const s = await createPlanJobScenario(database.db);
    const res = await jobs("?only_completed=false", s.key);
    expect(res.status).toBe(200);
    expect(servicedJobReportSchema.parse(res.body)).toEqual(res.body);
    const user = (u: { id: string }, name: string, email: string) => ({ email, name, user_id: u.id });
    expect(res.body.data).toEqual({
      // J1 125.50/80/45.50, J2 60/0/60, J3 40/10/30, J4 70/70/0, J7 0, J8 19.99/0/19.99,
      // J9 80/0/80, J10 80/100/0, J11 0.
      ...job(9, 475.49, 260, 235.49),
      interval: "month",
      over_time: [
        { period_start: "2026-01-01T00:00:00.000Z", ...job(1, 125.5, 80, 45.5) },
        { period_start: "2026-02-01T00:00:00.000Z", ...job(2, 59.99, 10, 49.99) },
        { period_start: "2026-03-01T00:00:00.000Z", ...job(1, 70, 70, 0) },
        { period_start: "2026-04-01T00:00:00.000Z", ...job(3, 220, 100, 140) },
        { period_start: null, ...job(2, 0, 0, 0) },
      ],
      // Uma: J1, J2, J4; Vic: J1, J2, J8; Tess: J1 (assigned and crew, counted once).
      by_technician: [
        { technician: user(s.users.t2, "Uma Tech", "uma@example.test"), ...job(3, 255.5, 150, 105.5) },
        { technician: user(s.users.t3, "Vic Tech", "vic@example.test"), ...job(3, 205.49, 80, 125.49) },
        { technician: user(s.users.t1, "Tess Tech", "tess@example.test"), ...job(1, 125.5, 80, 45.5) },
      ],
    });
  });

  it("counts a job once per technician, even when the crew holds the assignee", async () => {
    const s = await createPlanJobScenario(database.db);
    const { t1, t2, t3 } = s.users;
    await insertJob(database.db, s.companyId, {
      customerId: s.customers.pat.id,
      status: "Completed",
      assignedTo: t2.id,
      crew: [t3.id, t2.id, t1.id],
      visits: [{ start: "2026-05-01T08:00:00Z" }],
      lineItems: [{ totalPrice: 10 }],
      payments: [{ amount: 4 }],
    });
    const { by_technician } = (await jobs("", s.key)).body.data;
    // Completed jobs before: Tess J1 (125.50/80), Uma J1 (125.50/80), Vic J1 + J8 (145.49/80).
    expect(by_technician.map((t) => [t.technician.user_id, t.job_count, t.total, t.total_received])).toEqual([
      // Equal money: more jobs first, then by name.
      [t3.id, 3, 155.49, 84],
      [t1.id, 2, 135.5, 84],
      [t2.id, 2, 135.5, 84],
    ]);
  });

  it("buckets by week starting Monday (UTC)", async () => {
    const s = await createPlanJobScenario(database.db);
    const res = await jobs("?only_completed=false&interval=week", s.key);
    expect(res.body.data.interval).toBe("week");
    expect(res.body.data.over_time.map((p) => [p.period_start, p.job_count])).toEqual([
      ["2026-01-12T00:00:00.000Z", 1], // J1, Sunday 2026-01-18
      ["2026-02-02T00:00:00.000Z", 1], // J8, Thursday 2026-02-05
      ["2026-02-09T00:00:00.000Z", 1], // J3, Tuesday 2026-02-10
      ["2026-03-30T00:00:00.000Z", 3], // J4 Tuesday 2026-03-31 23:30, J9, J10
      ["2026-04-13T00:00:00.000Z", 1], // J2
      [null, 2],
    ]);
  });

  it("defaults to completed jobs and applies the date bounds", async () => {
    const s = await createPlanJobScenario(database.db);
    const completed = (await jobs("", s.key)).body.data;
    // J1, J8, J9, J10.
    expect(completed).toMatchObject({ ...job(4, 305.49, 180, 145.49), interval: "month" });
    const bounded = (await jobs("?only_completed=false&service_date_range_end=2026-03-31", s.key)).body.data;
    // J1, J3, J4, J8: jobs without a visit are left out.
    expect(bounded).toMatchObject(job(4, 255.49, 160, 95.49));
    expect(bounded.over_time.every((p) => p.period_start !== null)).toBe(true);
  });

  it.each([
    "",
    "?only_completed=false",
    "?only_completed=false&service_date_range_start=2026-02-05",
    "?service_date_range_end=2026-02-05T00:00:00Z",
  ])("equals the sum over the list endpoint's pages for %s", async (query) => {
    const s = await createPlanJobScenario(database.db);
    const report = (await jobs(query, s.key)).body.data;
    const rows = await allPages<ServicedJob>(listJobs, `/serviced-jobs${query}`, s.key, 2);
    expect(report.job_count).toBe(rows.length);
    expect(report.total).toBe(sum(rows.flatMap((r) => r.line_items.map((li) => li.total_price))));
    expect(report.total_received).toBe(sum(rows.map((r) => r.total_received)));
    expect(report.total_outstanding).toBe(sum(rows.map((r) => r.total_outstanding)));
    expect(sum(report.over_time.map((p) => p.job_count))).toBe(rows.length);
    expect(sum(report.over_time.map((p) => p.total_received))).toBe(report.total_received);
    const technicianJobs = rows.reduce((n, r) => n + r.technicians.length, 0);
    expect(sum(report.by_technician.map((t) => t.job_count))).toBe(technicianJobs);
  });

  it("validates interval and the filters", async () => {
    const s = await createTenant(database.db);
    const bad = await call(
      jobReport,
      apiRequest("/reports/serviced-jobs?interval=day&only_completed=maybe", { key: s.key }),
    );
    expect(bad.status).toBe(400);
    expect((bad.body.details as { field: string }[]).map((d) => d.field).sort()).toEqual([
      "interval",
      "only_completed",
    ]);
  });

  it("accepts jobs:read or leads:read, names leads:read, and sees only the key's company", async () => {
    const s = await createPlanJobScenario(database.db);
    await createPlanJobScenario(database.db);
    for (const scope of ["jobs:read", "leads:read"] as const) {
      const { key } = await createApiKey(database.db, s.companyId, { scopes: [scope] });
      const res = await jobs("?only_completed=false", key);
      expect(res.status).toBe(200);
      expect(res.body.data.job_count).toBe(9);
    }
    const { key } = await createApiKey(database.db, s.companyId, { scopes: ["service_plans:read"] });
    const denied = await call(jobReport, apiRequest("/reports/serviced-jobs", { key }));
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain("leads:read");
  });
});

import { describe, expect, it } from "vitest";
import { GET as listPlans } from "@/app/api/service-plans/route";
import { apiRequest, call, createApiKey, createTenant } from "@/lib/testing/factories";
import { createPlanJobScenario, insertCustomer, insertPlan } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import type { ListServicePlansResponse, ServicePlan } from "@/lib/schemas/service-plans";
import { listServicePlansResponseSchema } from "@/lib/schemas/service-plans";

const database = setupTestDatabase();

const get = (path: string, key: string) =>
  call<ListServicePlansResponse>(listPlans, apiRequest(path, { key }));
const ids = (body: ListServicePlansResponse) => body.data.map((p) => p.id);

describe(`GET /api/service-plans (${testEngine()})`, () => {
  it("lists every plan with its fields and hand-computed numbers, newest first", async () => {
    const s = await createPlanJobScenario(database.db);
    const res = await get("/service-plans", s.key);
    expect(res.status).toBe(200);
    expect(listServicePlansResponseSchema.parse(res.body)).toEqual(res.body);
    expect(res.body.pagination).toEqual({ has_more: false, limit: 50, page: 1, total: 4 });
    const [p4, p3, p2, p1] = res.body.data as [ServicePlan, ServicePlan, ServicePlan, ServicePlan];
    const alice = { email: "alice@example.test", name: "Alice Seller", user_id: s.users.alice.id };
    const pat = { id: s.customers.pat.id, company_name: "", first_name: "Pat", last_name: "Doe" };
    expect(p1).toEqual({
      id: s.plans.p1.id,
      active: true,
      created_at: "2026-01-10T10:00:00.000Z",
      customer: pat,
      num_completed_jobs: 1,
      num_pending_jobs: 1,
      num_scheduled_jobs: 3,
      sale_value: 305.5,
      service_frequency: "Quarterly",
      service_type: "Pest Control",
      sold_by: alice,
      start_date: "2026-01-15T00:00:00.000Z",
      total_received: 160,
    });
    expect(p2).toEqual({
      id: s.plans.p2.id,
      active: false,
      created_at: "2026-02-01T00:00:00.000Z",
      customer: pat,
      num_completed_jobs: 1,
      num_pending_jobs: 9,
      num_scheduled_jobs: 1,
      sale_value: 179.91,
      service_frequency: "Every 5 weeks",
      service_type: "Lawn",
      sold_by: { email: "bob@example.test", name: "Bob Seller", user_id: s.users.bob.id },
      start_date: null,
      total_received: 0,
    });
    expect(p3).toEqual({
      id: s.plans.p3.id,
      active: true,
      created_at: "2026-03-31T23:59:59.999Z",
      customer: { id: s.customers.acme.id, company_name: "Acme", first_name: "", last_name: "" },
      num_completed_jobs: 0,
      num_pending_jobs: 52,
      num_scheduled_jobs: 0,
      sale_value: 650,
      service_frequency: "Weekly",
      service_type: "",
      sold_by: { email: "", name: "", user_id: "" },
      start_date: null,
      total_received: 0,
    });
    expect(p4).toMatchObject({
      id: s.plans.p4.id,
      num_completed_jobs: 2,
      num_scheduled_jobs: 2,
      // 2 scheduled of 1 planned visit: pending floors at 0, no extra planned value.
      num_pending_jobs: 0,
      sale_value: 160,
      service_frequency: "Annual",
      total_received: 100,
    });
  });

  it("uses each frequency's yearly visit count when total_visits is not given", async () => {
    const { companyId, key } = await createTenant(database.db);
    const customer = await insertCustomer(database.db, companyId);
    const expected: Record<string, number> = {
      "One-Time": 1,
      Annual: 1,
      "Semi-Annual": 2,
      "Tri-Annual": 3,
      Quarterly: 4,
      "Bi-Monthly": 6,
      Monthly: 12,
      "Bi-Weekly": 26,
      Weekly: 52,
    };
    for (const frequency of Object.keys(expected)) {
      await insertPlan(database.db, companyId, {
        customerId: customer.id,
        frequency: frequency as ServicePlanFrequency,
        pricePerVisit: 1.25,
      });
    }
    // A Custom plan without a label is named Custom; total_visits 0 means nothing is pending.
    await insertPlan(database.db, companyId, {
      customerId: customer.id,
      frequency: "Custom",
      totalVisits: 0,
    });
    const res = await get("/service-plans?limit=1000", key);
    expect(res.body.pagination.total).toBe(10);
    for (const plan of res.body.data) {
      if (plan.service_frequency === "Custom") {
        expect(plan).toMatchObject({ num_pending_jobs: 0, sale_value: 0 });
        continue;
      }
      const visits = expected[plan.service_frequency];
      expect(plan.num_pending_jobs).toBe(visits);
      expect(plan.sale_value).toBe(Math.round(visits! * 125) / 100);
    }
  });

  it.each([
    ["created_at_range_start=2026-02-01", ["p4", "p3", "p2"]],
    ["created_at_range_start=2026-02-01T00:00:00.001Z", ["p4", "p3"]],
    // A bare end date includes its whole UTC day (P3 at 23:59:59.999Z).
    ["created_at_range_end=2026-03-31", ["p3", "p2", "p1"]],
    ["created_at_range_end=2026-03-31T12:00:00Z", ["p2", "p1"]],
    ["created_at_range_start=2026-01-10T10:00:00Z&created_at_range_end=2026-02-01T00:00:00Z", ["p2", "p1"]],
    ["created_at_range_start=2026-05-01", []],
    ["frequency=Custom", ["p2"]],
    ["frequency=Weekly", ["p3"]],
    ["frequency=Monthly", []],
    ["service_type=Pest%20Control", ["p4", "p1"]],
    ["service_type=pest%20control", []],
    ["service_type=", ["p4", "p3", "p2", "p1"]],
    ["status=active", ["p4", "p3", "p1"]],
    ["status=inactive", ["p2"]],
    ["status=active&frequency=Annual", ["p4"]],
  ])("filters by %s", async (query, expected) => {
    const s = await createPlanJobScenario(database.db);
    const res = await get(`/service-plans?${query}`, s.key);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expected.map((name) => s.plans[name as keyof typeof s.plans].id));
    expect(res.body.pagination.total).toBe(expected.length);
  });

  it("filters by seller", async () => {
    const s = await createPlanJobScenario(database.db);
    const res = await get(`/service-plans?sold_by_user_id=${s.users.alice.id}`, s.key);
    expect(ids(res.body)).toEqual([s.plans.p4.id, s.plans.p1.id]);
    const none = await get(`/service-plans?sold_by_user_id=${s.users.t1.id}`, s.key);
    expect(none.body.data).toEqual([]);
  });

  it("paginates with exact totals at the edges", async () => {
    const s = await createPlanJobScenario(database.db);
    const order = [s.plans.p4.id, s.plans.p3.id, s.plans.p2.id, s.plans.p1.id];
    const second = await get("/service-plans?limit=1&page=2", s.key);
    expect(ids(second.body)).toEqual([order[1]]);
    expect(second.body.pagination).toEqual({ has_more: true, limit: 1, page: 2, total: 4 });
    const last = await get("/service-plans?limit=3&page=2", s.key);
    expect(ids(last.body)).toEqual([order[3]]);
    expect(last.body.pagination.has_more).toBe(false);
    const exact = await get("/service-plans?limit=2&page=2", s.key);
    expect(exact.body.pagination.has_more).toBe(false);
    const past = await get("/service-plans?limit=2&page=9", s.key);
    expect(past.body).toEqual({
      status: "success",
      data: [],
      pagination: { has_more: false, limit: 2, page: 9, total: 4 },
    });
    const max = await get("/service-plans?limit=1000", s.key);
    expect(ids(max.body)).toEqual(order);
  });

  it("orders plans created at the same instant by id, descending", async () => {
    const { companyId, key } = await createTenant(database.db);
    const customer = await insertCustomer(database.db, companyId);
    const at = "2026-05-05T05:05:05.123456Z";
    for (const id of ["plan_b", "plan_c", "plan_a"]) {
      await insertPlan(database.db, companyId, { id, customerId: customer.id, createdAt: at });
    }
    const pages = [];
    for (const page of [1, 2, 3])
      pages.push(...ids((await get(`/service-plans?limit=1&page=${page}`, key)).body));
    expect(pages).toEqual(["plan_c", "plan_b", "plan_a"]);
  });

  it.each([
    ["page=0", "page"],
    ["page=abc", "page"],
    ["limit=0", "limit"],
    ["limit=1001", "limit"],
    ["limit=2.5", "limit"],
    ["frequency=weekly", "frequency"],
    ["frequency=", "frequency"],
    ["status=archived", "status"],
    ["created_at_range_start=yesterday", "created_at_range_start"],
    ["created_at_range_end=2026-02-30", "created_at_range_end"],
  ])("answers 400 naming the parameter for %s", async (query, field) => {
    const s = await createTenant(database.db);
    const res = await call(listPlans, apiRequest(`/service-plans?${query}`, { key: s.key }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: "error", error_code: "VALIDATION_ERROR" });
    expect((res.body.details as { field: string }[]).map((d) => d.field)).toContain(field);
  });

  it("requires the service_plans:read scope", async () => {
    const s = await createPlanJobScenario(database.db);
    const { key } = await createApiKey(database.db, s.companyId, { scopes: ["leads:read", "jobs:read"] });
    const res = await call(listPlans, apiRequest("/service-plans", { key }));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error_code: "INSUFFICIENT_SCOPE" });
    expect(res.body.message).toContain("service_plans:read");
    const { key: scoped } = await createApiKey(database.db, s.companyId, { scopes: ["service_plans:read"] });
    expect((await call(listPlans, apiRequest("/service-plans", { key: scoped }))).status).toBe(200);
  });

  it("never shows another company's plans", async () => {
    const s = await createPlanJobScenario(database.db);
    const other = await createPlanJobScenario(database.db);
    const res = await get("/service-plans", s.key);
    const otherIds = new Set(Object.values(other.plans).map((p) => p.id));
    expect(res.body.data.some((p) => otherIds.has(p.id))).toBe(false);
    expect(res.body.pagination.total).toBe(4);
    // Filtering by the other company's seller finds nothing.
    const bySeller = await get(`/service-plans?sold_by_user_id=${other.users.alice.id}`, s.key);
    expect(bySeller.body.pagination.total).toBe(0);
  });

  it("rejects other methods with 405", async () => {
    const { POST } = await import("@/app/api/service-plans/route");
    const res = await call(POST, apiRequest("/service-plans", { method: "POST", body: {} }));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});

type ServicePlanFrequency = import("@/lib/db/schema").PlanFrequency;

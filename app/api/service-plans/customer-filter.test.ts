import { describe, expect, it } from "vitest";
import { GET as exportPlansRoute } from "@/app/api/reports/service-plans/export/route";
import { GET as planReportRoute } from "@/app/api/reports/service-plans/route";
import { GET as listPlansRoute } from "@/app/api/service-plans/route";
import { plansWithNumbersSql } from "@/lib/domain/service-plans/list";
import { cents } from "@/lib/schemas/common";
import type { ServicePlanReportResponse } from "@/lib/schemas/reports";
import {
  getServicePlansQuerySchema,
  listServicePlansResponseSchema,
  type ListServicePlansResponse,
  type ServicePlan,
} from "@/lib/schemas/service-plans";
import { apiRequest, call } from "@/lib/testing/factories";
import { pricedPlans } from "@/lib/testing/list-plans";
import { createPlanJobScenario } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

const list = (key: string, query: string) =>
  call<ListServicePlansResponse>(listPlansRoute, apiRequest(`/service-plans?${query}`, { key }));
const report = (key: string, query: string) =>
  call<ServicePlanReportResponse>(planReportRoute, apiRequest(`/reports/service-plans?${query}`, { key }));
const ids = (body: ListServicePlansResponse) => body.data.map((plan) => plan.id);

describe(`GET /api/service-plans?customer_id (${testEngine()})`, () => {
  it("lists only that customer's plans, newest first, with the exact total", async () => {
    const s = await createPlanJobScenario(database.db);
    const { p1, p2, p3, p4 } = s.plans;
    const pat = await list(s.key, `customer_id=${s.customers.pat.id}`);
    expect(pat.status).toBe(200);
    expect(listServicePlansResponseSchema.parse(pat.body)).toEqual(pat.body);
    expect(ids(pat.body)).toEqual([p4.id, p2.id, p1.id]);
    expect(pat.body.pagination).toEqual({ has_more: false, limit: 50, page: 1, total: 3 });
    // The plan's numbers are the plan's, whoever the jobs' customer (J10 of Acme is on P4).
    expect(pat.body.data[0]).toMatchObject({ num_completed_jobs: 2, sale_value: 160, total_received: 100 });

    const acme = await list(s.key, `customer_id=${s.customers.acme.id}`);
    expect(ids(acme.body)).toEqual([p3.id]);
    // With the other filters, counted beside the page rather than from the kept counters.
    const active = await list(s.key, `customer_id=${s.customers.pat.id}&status=active`);
    expect(ids(active.body)).toEqual([p4.id, p1.id]);
    expect(active.body.pagination.total).toBe(2);
    const paged = await list(s.key, `customer_id=${s.customers.pat.id}&limit=2&page=2`);
    expect(ids(paged.body)).toEqual([p1.id]);
    expect(paged.body.pagination).toEqual({ has_more: false, limit: 2, page: 2, total: 3 });
  });

  it("answers an empty list for an unknown customer id, and ignores an empty one", async () => {
    const s = await createPlanJobScenario(database.db);
    const unknown = await list(s.key, "customer_id=cus_nobody");
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toEqual([]);
    expect(unknown.body.pagination).toEqual({ has_more: false, limit: 50, page: 1, total: 0 });
    const empty = await list(s.key, "customer_id=");
    expect(empty.body.pagination.total).toBe(4);
    // Another company's customer is unknown here.
    const other = await createPlanJobScenario(database.db);
    const foreign = await list(other.key, `customer_id=${s.customers.pat.id}`);
    expect(foreign.body.pagination.total).toBe(0);
  });

  it("reads a customer's page from service_plans_customer_created_idx", async () => {
    const s = await createPlanJobScenario(database.db);
    const input = getServicePlansQuerySchema.parse({ customer_id: s.customers.pat.id });
    const [plan = ""] = await pricedPlans(database.db, [
      plansWithNumbersSql(s.companyId, input, { limit: 50 }),
    ]);
    expect(plan).not.toContain("Seq Scan");
    expect(plan).toContain("service_plans_customer_created_idx");
  });
});

describe(`GET /api/reports/service-plans?customer_id (${testEngine()})`, () => {
  it("sums that customer's plans only", async () => {
    const s = await createPlanJobScenario(database.db);
    for (const customer of [s.customers.pat.id, s.customers.acme.id]) {
      for (const filters of ["", "&status=active", "&created_at_range_start=2026-02-01"]) {
        const query = `customer_id=${customer}${filters}`;
        const plans = (await list(s.key, `${query}&limit=1000`)).body.data;
        const res = await report(s.key, query);
        expect(res.status, query).toBe(200);
        const add = (value: (plan: ServicePlan) => number) => plans.reduce((sum, p) => sum + value(p), 0);
        expect(res.body.data, query).toMatchObject({
          plan_count: plans.length,
          sale_value: cents(add((p) => p.sale_value)),
          total_received: cents(add((p) => p.total_received)),
          num_completed_jobs: add((p) => p.num_completed_jobs),
          num_scheduled_jobs: add((p) => p.num_scheduled_jobs),
          num_pending_jobs: add((p) => p.num_pending_jobs),
        });
      }
    }
    // Pat: P1 305.50 + P2 179.91 + P4 160 of sale value; received 160 + 0 + 100.
    const pat = await report(s.key, `customer_id=${s.customers.pat.id}`);
    expect(pat.body.data).toMatchObject({ plan_count: 3, sale_value: 645.41, total_received: 260 });
    const unknown = await report(s.key, "customer_id=cus_nobody");
    expect(unknown.body.data).toMatchObject({ plan_count: 0, sale_value: 0, by_frequency: [] });
  });

  it("exports that customer's plans only", async () => {
    const s = await createPlanJobScenario(database.db);
    const response = await exportPlansRoute(
      apiRequest(`/reports/service-plans/export?customer_id=${s.customers.pat.id}`, { key: s.key }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(200);
    const lines = (await response.text()).trim().split("\r\n");
    const { p1, p2, p4 } = s.plans;
    expect(lines.slice(1).map((line) => line.split(",")[0]!.replace(/^"|"$/g, ""))).toEqual([
      p4.id,
      p2.id,
      p1.id,
    ]);
  });
});

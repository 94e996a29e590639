import { describe, expect, it } from "vitest";
import { GET as exportJobsRoute } from "@/app/api/reports/serviced-jobs/export/route";
import { GET as jobReportRoute } from "@/app/api/reports/serviced-jobs/route";
import { GET as listJobsRoute } from "@/app/api/serviced-jobs/route";
import { jobsWithDetailsSql } from "@/lib/domain/serviced-jobs/list";
import { cents } from "@/lib/schemas/common";
import type { ServicedJobReportResponse } from "@/lib/schemas/reports";
import {
  getServicedJobsQuerySchema,
  listServicedJobsResponseSchema,
  type ListServicedJobsResponse,
  type ServicedJob,
} from "@/lib/schemas/serviced-jobs";
import { apiRequest, call } from "@/lib/testing/factories";
import { pricedPlans } from "@/lib/testing/list-plans";
import { createPlanJobScenario, insertJob } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

const list = (key: string, query: string) =>
  call<ListServicedJobsResponse>(listJobsRoute, apiRequest(`/serviced-jobs?${query}`, { key }));
const report = (key: string, query: string) =>
  call<ServicedJobReportResponse>(jobReportRoute, apiRequest(`/reports/serviced-jobs?${query}`, { key }));
const ids = (body: ListServicedJobsResponse) => body.data.map((job) => job.id);

/** The report's four numbers summed by hand over listed jobs. */
function sums(jobs: ServicedJob[]) {
  const add = (value: (job: ServicedJob) => number) => cents(jobs.reduce((sum, job) => sum + value(job), 0));
  return {
    job_count: jobs.length,
    total: add((j) => j.total),
    total_received: add((j) => j.total_received),
    total_outstanding: add((j) => j.total_outstanding),
  };
}

describe(`GET /api/serviced-jobs?customer_id (${testEngine()})`, () => {
  it("lists only that customer's jobs, newest first, with the exact total", async () => {
    const s = await createPlanJobScenario(database.db);
    const { j1, j2, j3, j4, j7, j8, j9, j10, j11 } = s.jobs;
    const pat = await list(s.key, `customer_id=${s.customers.pat.id}&only_completed=false`);
    expect(pat.status).toBe(200);
    expect(listServicedJobsResponseSchema.parse(pat.body)).toEqual(pat.body);
    // Never the quote (J5) nor the archived job (J6); J10 is on Pat's plan but Acme's job.
    expect(ids(pat.body)).toEqual([j9.id, j8.id, j7.id, j4.id, j3.id, j2.id, j1.id]);
    expect(pat.body.pagination).toEqual({ has_more: false, limit: 50, page: 1, total: 7 });
    expect(new Set(pat.body.data.map((job) => job.customer.id))).toEqual(new Set([s.customers.pat.id]));

    const acme = await list(s.key, `customer_id=${s.customers.acme.id}&only_completed=false`);
    expect(ids(acme.body)).toEqual([j11.id, j10.id]);
    // only_completed=true (the default) still applies.
    const completed = await list(s.key, `customer_id=${s.customers.pat.id}`);
    expect(ids(completed.body)).toEqual([j9.id, j8.id, j1.id]);
    expect(completed.body.pagination.total).toBe(3);

    const page2 = await list(s.key, `customer_id=${s.customers.pat.id}&only_completed=false&limit=3&page=2`);
    expect(ids(page2.body)).toEqual([j4.id, j3.id, j2.id]);
    expect(page2.body.pagination).toEqual({ has_more: true, limit: 3, page: 2, total: 7 });
  });

  it("combines with a service-date range and with sort, off the kept day counters", async () => {
    const s = await createPlanJobScenario(database.db);
    const { j1, j2, j3, j4, j7, j8, j9 } = s.jobs;
    const pat = s.customers.pat.id;
    // Another customer's job in the range: the day counters count it, the customer's list must not.
    await insertJob(database.db, s.companyId, {
      customerId: s.customers.acme.id,
      status: "Scheduled",
      createdAt: "2026-02-20T10:00:00Z",
      visits: [{ start: "2026-02-21T09:00:00Z" }],
    });
    // J8 (Feb 5), J3 (Feb 10), J4 (Mar 31 23:30) of Pat.
    const range = `customer_id=${pat}&only_completed=false&service_date_range_start=2026-02-01&service_date_range_end=2026-03-31`;
    const ranged = await list(s.key, range);
    expect(ids(ranged.body)).toEqual([j8.id, j4.id, j3.id]);
    expect(ranged.body.pagination.total).toBe(3);
    // Deep enough for the tenant-wide path to read every day; still only Pat's jobs.
    const deep = await list(s.key, `${range}&limit=2&page=2`);
    expect(ids(deep.body)).toEqual([j3.id]);
    expect(deep.body.pagination).toEqual({ has_more: false, limit: 2, page: 2, total: 3 });

    const sorted = await list(s.key, `customer_id=${pat}&only_completed=false&sort=-total_outstanding`);
    // Outstanding: J9 80, J2 60, J1 45.50, J3 30, J8 19.99, then J4 and J7 at 0 (id descending).
    const zero = [j4.id, j7.id].sort().reverse();
    expect(ids(sorted.body)).toEqual([j9.id, j2.id, j1.id, j3.id, j8.id, ...zero]);
  });

  it("answers an empty list for an unknown customer id, and ignores an empty one", async () => {
    const s = await createPlanJobScenario(database.db);
    const unknown = await list(s.key, "customer_id=cus_nobody&only_completed=false");
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toEqual([]);
    expect(unknown.body.pagination).toEqual({ has_more: false, limit: 50, page: 1, total: 0 });
    const ranged = await list(s.key, "customer_id=cus_nobody&service_date_range_start=2026-01-01");
    expect(ranged.body.pagination.total).toBe(0);

    const empty = await list(s.key, "customer_id=&only_completed=false");
    expect(empty.body.pagination.total).toBe(9);

    const tooLong = await call<{ error_code: string; details: { field: string }[] }>(
      listJobsRoute,
      apiRequest(`/serviced-jobs?customer_id=${"x".repeat(256)}`, { key: s.key }),
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error_code).toBe("VALIDATION_ERROR");
    expect(tooLong.body.details.map((d) => d.field)).toEqual(["customer_id"]);
  });

  it("never shows another company's customer", async () => {
    const s = await createPlanJobScenario(database.db);
    const other = await createPlanJobScenario(database.db);
    const res = await list(other.key, `customer_id=${s.customers.pat.id}&only_completed=false`);
    expect(res.status).toBe(200);
    expect(res.body.pagination.total).toBe(0);
  });

  it("reads a customer's page from jobs_customer_created_idx", async () => {
    const s = await createPlanJobScenario(database.db);
    for (const query of [
      { customer_id: s.customers.pat.id, only_completed: "false" },
      { customer_id: s.customers.pat.id, service_date_range_start: "2026-02-01" },
    ]) {
      const input = getServicedJobsQuerySchema.parse(query);
      const [plan = ""] = await pricedPlans(database.db, [
        jobsWithDetailsSql(s.companyId, input, { limit: 50 }),
      ]);
      expect(plan, JSON.stringify(query)).not.toContain("Seq Scan");
      expect(plan, JSON.stringify(query)).toContain("jobs_customer_created_idx");
    }
  });
});

describe(`GET /api/reports/serviced-jobs?customer_id (${testEngine()})`, () => {
  it("sums that customer's jobs only, with and without a date range", async () => {
    const s = await createPlanJobScenario(database.db);
    // More of another customer's jobs on the same days, so the kept sums differ from the customer's.
    await insertJob(database.db, s.companyId, {
      customerId: s.customers.acme.id,
      status: "Completed",
      visits: [{ start: "2026-02-05T09:00:00Z" }],
      lineItems: [{ totalPrice: 300 }],
      payments: [{ amount: 120 }],
    });
    for (const customer of [s.customers.pat.id, s.customers.acme.id]) {
      for (const filters of [
        "only_completed=false",
        "only_completed=true",
        "only_completed=false&service_date_range_start=2026-02-01&service_date_range_end=2026-03-31T12:00:00Z",
        "service_date_range_start=2026-01-18T15:00:00Z",
      ]) {
        const query = `customer_id=${customer}&${filters}`;
        const jobs = await list(s.key, `${query}&limit=1000`);
        const res = await report(s.key, query);
        expect(res.status, query).toBe(200);
        const { job_count, total, total_received, total_outstanding, over_time } = res.body.data;
        expect({ job_count, total, total_received, total_outstanding }, query).toEqual(sums(jobs.body.data));
        expect(
          over_time.reduce((sum, period) => sum + period.job_count, 0),
          query,
        ).toBe(job_count);
      }
    }
    // Pat, every status: J1 125.50/80, J2 60/0, J3 40/10, J4 70/70, J7 0/0, J8 19.99/0, J9 80/0.
    const pat = await report(s.key, `customer_id=${s.customers.pat.id}&only_completed=false`);
    expect(pat.body.data).toMatchObject({
      job_count: 7,
      total: 395.49,
      total_received: 160,
      total_outstanding: 235.49,
    });
    // By technician: Pat's jobs only (Tess: J1 assigned; Uma: J4 assigned, J1 and J2 crew).
    const tess = pat.body.data.by_technician.find((t) => t.technician.user_id === s.users.t1.id);
    expect(tess?.job_count).toBe(1);
    const uma = pat.body.data.by_technician.find((t) => t.technician.user_id === s.users.t2.id);
    expect(uma?.job_count).toBe(3);

    const unknown = await report(s.key, "customer_id=cus_nobody&only_completed=false");
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toMatchObject({ job_count: 0, total: 0, total_received: 0, over_time: [] });
  });

  it("exports that customer's jobs only", async () => {
    const s = await createPlanJobScenario(database.db);
    const response = await exportJobsRoute(
      apiRequest(`/reports/serviced-jobs/export?customer_id=${s.customers.acme.id}&only_completed=false`, {
        key: s.key,
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(200);
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines.slice(1).map((line) => line.split(",")[0]!.replace(/^"|"$/g, ""))).toEqual([
      s.jobs.j11.id,
      s.jobs.j10.id,
    ]);
  });
});

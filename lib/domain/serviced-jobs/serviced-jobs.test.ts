import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listJobs } from "@/app/api/serviced-jobs/route";
import { JOB_STATUSES, jobs } from "@/lib/db/schema/jobs";
import { textArray } from "@/lib/domain/lists/sql-fragments";
import { ID_PREFIX, newId } from "@/lib/ids";
import { Random } from "@/lib/seed/random";
import {
  DAY_BY_DAY_MAX_ROWS,
  dateRangeTotalSql,
  jobsWithDetailsSql,
  listServicedJobs,
} from "@/lib/domain/serviced-jobs/list";
import { apiRequest, call, createApiKey, createTenant } from "@/lib/testing/factories";
import { pricedPlans } from "@/lib/testing/list-plans";
import { createPlanJobScenario, insertCustomer, insertJob } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import {
  getServicedJobsQuerySchema,
  listServicedJobsResponseSchema,
  type ListServicedJobsResponse,
  type ServicedJob,
} from "@/lib/schemas/serviced-jobs";

const database = setupTestDatabase();

const get = (path: string, key: string) =>
  call<ListServicedJobsResponse>(listJobs, apiRequest(path, { key }));
const ids = (body: ListServicedJobsResponse) => body.data.map((j) => j.id);

describe(`GET /api/serviced-jobs (${testEngine()})`, () => {
  it("lists completed jobs by default with every field computed by hand", async () => {
    const s = await createPlanJobScenario(database.db);
    const res = await get("/serviced-jobs", s.key);
    expect(res.status).toBe(200);
    expect(listServicedJobsResponseSchema.parse(res.body)).toEqual(res.body);
    // Completed, never quotes (J5) nor archived (J6), newest first.
    expect(ids(res.body)).toEqual([s.jobs.j10.id, s.jobs.j9.id, s.jobs.j8.id, s.jobs.j1.id]);
    expect(res.body.pagination).toEqual({ has_more: false, limit: 50, page: 1, total: 4 });
    const j1 = res.body.data[3] as ServicedJob;
    const tech = (u: { id: string }, name: string, email: string) => ({ email, name, user_id: u.id });
    expect(j1).toEqual({
      id: s.jobs.j1.id,
      created_at: "2026-01-11T10:00:00.000Z",
      customer: { id: s.customers.pat.id, company_name: "", first_name: "Pat", last_name: "Doe" },
      // The earliest of its two visits.
      service_date: "2026-01-18T14:00:00.000Z",
      service_plan_id: s.plans.p1.id,
      status: "Completed",
      // Assigned user first, then crew in position order, each once.
      technicians: [
        tech(s.users.t1, "Tess Tech", "tess@example.test"),
        tech(s.users.t2, "Uma Tech", "uma@example.test"),
        tech(s.users.t3, "Vic Tech", "vic@example.test"),
      ],
      line_items: [
        {
          id: s.jobs.j1.lineItemIds[0],
          title: "Inspection",
          description: 'Full, with "attic"',
          total_price: 100,
        },
        { id: s.jobs.j1.lineItemIds[1], title: "Bait", description: "", total_price: 25.5 },
      ],
      // Oldest first, the undated one last.
      payments: [
        {
          id: s.jobs.j1.paymentIds[2],
          amount: 50,
          payment_date: "2026-01-18T12:00:00.000Z",
          payment_method: "ach",
          payment_type: "payment",
          status: "failed",
        },
        {
          id: s.jobs.j1.paymentIds[0],
          amount: 100,
          payment_date: "2026-01-19T12:00:00.000Z",
          payment_method: "card",
          payment_type: "payment",
          status: "succeeded",
        },
        {
          id: s.jobs.j1.paymentIds[1],
          amount: 20,
          payment_date: "2026-01-25T12:00:00.000Z",
          payment_method: "card",
          payment_type: "refund",
          status: "succeeded",
        },
        {
          id: s.jobs.j1.paymentIds[3],
          amount: 30,
          payment_date: null,
          payment_method: "check",
          payment_type: "payment",
          status: "pending",
        },
      ],
      // The line items' sum: 100 + 25.5.
      total: 125.5,
      // 100 paid − 20 refunded; the failed 50 and pending 30 do not count.
      total_received: 80,
      total_outstanding: 45.5,
    });
    const [j10, j9, j8] = res.body.data as [ServicedJob, ServicedJob, ServicedJob];
    // Overpaid: outstanding floors at 0.
    expect(j10).toMatchObject({ total_received: 100, total_outstanding: 0, technicians: [] });
    expect(j10.customer).toEqual({
      id: s.customers.acme.id,
      company_name: "Acme",
      first_name: "",
      last_name: "",
    });
    expect(j9).toMatchObject({ total_received: 0, total_outstanding: 80, payments: [] });
    // Paid then refunded in full.
    expect(j8).toMatchObject({ total_received: 0, total_outstanding: 19.99 });
  });

  it("lists every status with only_completed=false, jobs without a visit included", async () => {
    const s = await createPlanJobScenario(database.db);
    const res = await get("/serviced-jobs?only_completed=FALSE", s.key);
    const { j1, j2, j3, j4, j7, j8, j9, j10, j11 } = s.jobs;
    expect(ids(res.body)).toEqual([j11, j10, j9, j8, j7, j4, j3, j2, j1].map((j) => j.id));
    expect(res.body.pagination.total).toBe(9);
    const byId = new Map(res.body.data.map((j) => [j.id, j]));
    expect(byId.get(j7.id)).toMatchObject({ service_date: null, status: "Unscheduled", technicians: [] });
    expect(byId.get(j11.id)).toMatchObject({ service_plan_id: null, line_items: [], total_outstanding: 0 });
    // Crew only, in position order.
    expect(byId.get(j2.id)?.technicians.map((t) => t.user_id)).toEqual([s.users.t3.id, s.users.t2.id]);
    expect(byId.get(j3.id)).toMatchObject({ status: "Cancelled", total_received: 10, total_outstanding: 30 });
    expect(byId.get(j4.id)).toMatchObject({
      status: "In Progress",
      total_received: 70,
      total_outstanding: 0,
    });
    const explicit = await get("/serviced-jobs?only_completed=true", s.key);
    expect(explicit.body.pagination.total).toBe(4);
  });

  it.each([
    // Inclusive start at the exact instant of J8's visit; jobs without a visit are left out.
    ["only_completed=false&service_date_range_start=2026-02-05", ["j10", "j9", "j8", "j4", "j3", "j2"]],
    // A bare end date includes its whole UTC day: J4's visit at 23:30.
    ["only_completed=false&service_date_range_end=2026-03-31", ["j8", "j4", "j3", "j1"]],
    ["only_completed=false&service_date_range_end=2026-03-31T23:00:00Z", ["j8", "j3", "j1"]],
    ["only_completed=false&service_date_range_end=2026-02-05T00:00:00Z", ["j8", "j1"]],
    ["service_date_range_start=2026-02-05&service_date_range_end=2026-03-31", ["j8"]],
    ["service_date_range_start=2026-01-18T14:00:00.001Z", ["j10", "j9", "j8"]],
    ["service_date_range_start=2027-01-01", []],
  ])("filters by %s", async (query, expected) => {
    const s = await createPlanJobScenario(database.db);
    const res = await get(`/serviced-jobs?${query}`, s.key);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expected.map((name) => s.jobs[name as keyof typeof s.jobs].id));
    // The total counts the date-filtered set, not the jobs before the date filter.
    expect(res.body.pagination.total).toBe(expected.length);
  });

  it("paginates the filtered set with exact totals", async () => {
    const s = await createPlanJobScenario(database.db);
    const q = "only_completed=false&service_date_range_start=2026-02-05";
    const page2 = await get(`/serviced-jobs?${q}&limit=4&page=2`, s.key);
    expect(ids(page2.body)).toEqual([s.jobs.j3.id, s.jobs.j2.id]);
    expect(page2.body.pagination).toEqual({ has_more: false, limit: 4, page: 2, total: 6 });
    const page1 = await get(`/serviced-jobs?${q}&limit=4`, s.key);
    expect(page1.body.pagination.has_more).toBe(true);
    const past = await get(`/serviced-jobs?${q}&limit=1000&page=2`, s.key);
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination.total).toBe(6);
    // Without a date bound the total is the counters', read by the page's statement; past the
    // last page there is no row to carry it, and the counters are read on their own.
    for (const filter of ["only_completed=false", "only_completed=true"]) {
      const all = await get(`/serviced-jobs?${filter}&limit=1000`, s.key);
      expect(all.body.pagination.total).toBe(all.body.data.length);
      const pastAll = await get(`/serviced-jobs?${filter}&limit=1000&page=2`, s.key);
      expect(pastAll.body).toMatchObject({ data: [], pagination: { total: all.body.data.length } });
    }
  });

  it("reads a service-date range's page and total in one statement, and the total alone past the last page", async () => {
    const s = await createPlanJobScenario(database.db);
    // The statements the request sends: each goes through the database's execute.
    let statements = 0;
    const db = new Proxy(database.db, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property !== "execute" || typeof value !== "function") return value;
        return (...args: unknown[]) => {
          statements++;
          return Reflect.apply(value, target, args);
        };
      },
    });
    const list = async (query: string) => {
      statements = 0;
      const input = getServicedJobsQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)));
      const res = await listServicedJobs({ ctx: { db, companyId: s.companyId }, input });
      return { ids: ids(res), total: res.pagination.total, statements };
    };
    // Part-days at both ends: J8 at the first whole day's midnight, J4 in the end date's day.
    const range =
      "only_completed=false&service_date_range_start=2026-02-04T12:00:00Z&service_date_range_end=2026-03-31";
    const first = await list(`${range}&limit=2`);
    expect(first).toEqual({ ids: [s.jobs.j8.id, s.jobs.j4.id], total: 3, statements: 1 });
    const last = await list(`${range}&limit=2&page=2`);
    expect(last).toEqual({ ids: [s.jobs.j3.id], total: 3, statements: 1 });
    // No row to carry the total: the counters are read on their own.
    expect(await list(`${range}&limit=2&page=3`)).toEqual({ ids: [], total: 3, statements: 2 });
    expect(await list("service_date_range_start=2027-01-01")).toEqual({ ids: [], total: 0, statements: 2 });
  });

  it("counts a service-date range's whole days from a key range of the counters' index, never a scan", async () => {
    const s = await createPlanJobScenario(database.db);
    // Which index counts the part days is not checked: on test-sized tables the planner prices
    // both alike.
    const queries = [
      "service_date_range_start=2026-01-18T09:00:00Z&service_date_range_end=2026-03-31",
      "only_completed=false&service_date_range_end=2026-03-31T12:00:00Z",
    ];
    for (const query of queries) {
      const input = getServicedJobsQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)));
      const [plan] = await pricedPlans(database.db, [dateRangeTotalSql(s.companyId, input)]);
      expect(plan, query).not.toContain("Seq Scan");
      // The whole days: a range of the tenant's day keys in the counters' index.
      expect(plan, query).toMatch(/list_counts_entity_idx[\s\S]*Index Cond: .*key1 [<>]=? /);
    }
  });

  it("pages a service-date range day by day exactly as one sort of the range, on random jobs after writes", async () => {
    // The day-by-day window (windowKeysSql) against filters computed by hand, across part days,
    // open sides, shared instants, midnights and jobs moved between days.
    const { companyId, key } = await createTenant(database.db);
    const customer = await insertCustomer(database.db, companyId);
    const random = new Random(0x10b5);
    const day = (d: number) => Date.UTC(2026, 2, 1) + d * 86_400_000;
    const serviceDate = () => {
      if (random.chance(0.08)) return null;
      const at = random.pick([0, 86_399_999, 43_200_000, random.int(1, 86_399_998)]);
      return new Date(day(random.int(0, 11)) + at);
    };
    const instants = Array.from(
      { length: 30 },
      () => new Date(day(random.int(-20, 40)) + random.int(0, 9) * 1000),
    );
    const rows = Array.from({ length: 2000 }, () => ({
      companyId,
      id: newId(ID_PREFIX.job),
      customerId: customer.id,
      status: random.chance(0.6) ? "Completed" : random.pick(JOB_STATUSES),
      isQuote: random.chance(0.1),
      archived: random.chance(0.1),
      serviceDate: serviceDate(),
      createdAt: random.pick(instants),
    }));
    await database.db.insert(jobs).values(rows);
    const live = new Map(rows.map((r) => [r.id, { ...r }]));
    for (const row of random.some(rows, 120)) {
      const changed = live.get(row.id)!;
      const what = random.int(0, 3);
      if (what === 3) {
        await database.db.delete(jobs).where(and(eq(jobs.companyId, companyId), eq(jobs.id, row.id)));
        live.delete(row.id);
        continue;
      }
      if (what === 0) changed.serviceDate = serviceDate();
      if (what === 1) changed.status = random.pick(JOB_STATUSES);
      if (what === 2) changed.archived = !changed.archived;
      await database.db
        .update(jobs)
        .set({ serviceDate: changed.serviceDate, status: changed.status, archived: changed.archived })
        .where(and(eq(jobs.companyId, companyId), eq(jobs.id, row.id)));
    }

    // A bare date, a midnight, a day's last millisecond, any instant, or a job's very service date.
    const dated = rows.filter((r) => r.serviceDate !== null).map((r) => r.serviceDate!.getTime());
    const instant = () => {
      if (random.chance(0.4))
        return { text: new Date(day(random.int(-1, 12))).toISOString().slice(0, 10), bare: true };
      const at = random.chance(0.3)
        ? random.pick(dated)
        : day(random.int(-1, 12)) + random.pick([0, 86_399_999, random.int(1, 86_399_998)]);
      return { text: new Date(at).toISOString(), bare: false };
    };
    let requests = 0;
    const windows = { byDay: 0, deep: 0 };
    for (let round = 0; round < 24; round++) {
      const start = random.chance(0.85) ? instant() : undefined;
      const end = random.chance(0.85) || !start ? instant() : undefined;
      const onlyCompleted = random.chance(0.5);
      const from = start ? new Date(start.text).getTime() : -Infinity;
      const to = end ? new Date(end.text).getTime() + (end.bare ? 86_399_999 : 0) : Infinity;
      const matching = [...live.values()].filter(
        (j) =>
          !j.isQuote &&
          !j.archived &&
          (!onlyCompleted || j.status === "Completed") &&
          j.serviceDate !== null &&
          j.serviceDate.getTime() >= from &&
          j.serviceDate.getTime() <= to,
      );
      // The list order as the database sorts ids (its collation, not JavaScript's).
      const ordered = matching.length
        ? (
            await database.db.execute<{ id: string }>(sql`select id from jobs where company_id = ${companyId}
                and id = any(${textArray(matching.map((j) => j.id))})
                order by created_at desc, id desc`)
          ).rows.map((r) => r.id)
        : [];
      const limit = random.pick([random.int(1, 9), 50, 100]);
      // The first page past the day-by-day windows, too.
      const deep = Math.floor(DAY_BY_DAY_MAX_ROWS / limit) + 1;
      const pages = [1, 2, random.int(3, Math.ceil(ordered.length / limit) + 2), deep];
      for (const page of pages) {
        const query = new URLSearchParams({
          only_completed: String(onlyCompleted),
          limit: String(limit),
          page: String(page),
        });
        if (start) query.set("service_date_range_start", start.text);
        if (end) query.set("service_date_range_end", end.text);
        const res = await get(`/serviced-jobs?${query}`, key);
        requests++;
        expect(res.status, String(query)).toBe(200);
        expect(ids(res.body), String(query)).toEqual(ordered.slice((page - 1) * limit, page * limit));
        expect(res.body.pagination.total, String(query)).toBe(ordered.length);
        if (res.body.data.length > 0) windows[page * limit <= DAY_BY_DAY_MAX_ROWS ? "byDay" : "deep"]++;
      }
    }
    expect(requests).toBe(96);
    // Both ways of reading a window, each on pages that hold jobs.
    expect(windows.byDay).toBeGreaterThanOrEqual(10);
    expect(windows.deep).toBeGreaterThanOrEqual(3);
  });

  it("reads a date-bounded page from the day index by day key, never a scan or the range's every job", async () => {
    const s = await createPlanJobScenario(database.db);
    for (const query of [
      "service_date_range_start=2026-01-18T09:00:00Z&service_date_range_end=2026-03-31",
      "only_completed=false&service_date_range_start=2026-02-05",
    ]) {
      const input = getServicedJobsQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)));
      const [plan = ""] = await pricedPlans(database.db, [
        jobsWithDetailsSql(s.companyId, input, { limit: 50, offset: 50 }),
      ]);
      expect(plan, query).not.toContain("Seq Scan");
      // Each day's jobs from the day index, its key an equality and its order the list's, under
      // the per-day LIMIT; the days from a key range of the counters' index.
      expect(plan, query).toMatch(
        /Limit\b[^\n]*\n\s*->\s+Index (?:Only )?Scan using jobs_listed_day_created_idx on jobs j(?:_\d+)?\b[^\n]*\n\s*Index Cond: \(\(company_id = [^\n]*\) AND \(+job_day_key\(service_date\)\)* = list_counts\.key1\)/,
      );
      expect(plan, query).toMatch(/list_counts_entity_idx[\s\S]*Index Cond: .*key1 [<>]=? /);
      expect(plan, query).not.toMatch(/jobs_(?:listed|completed)_service_date_idx/);
    }
  });

  it("reads each technician's user by key, never by hashing the tenant's users", async () => {
    const s = await createPlanJobScenario(database.db);
    const input = getServicedJobsQuerySchema.parse({});
    const [plan = ""] = await pricedPlans(database.db, [
      jobsWithDetailsSql(s.companyId, input, { limit: 50 }),
    ]);
    expect(plan).not.toContain("Seq Scan");
    // Every read of users is a probe of its primary key under a LIMIT (techniciansSql's LATERAL …
    // LIMIT 1, which the planner cannot flatten into a join that hashes the whole table).
    const reads = plan.match(/^.*\bon users\b.*$/gm) ?? [];
    expect(reads.length).toBeGreaterThan(0);
    const probe =
      /Limit\b[^\n]*\n\s*->\s+Index (?:Only )?Scan using users_company_id_id_pk on users u\b[^\n]*\n\s*Index Cond: \(\(company_id = [^\n]*\) AND \(id = /g;
    expect(plan.match(probe)?.length).toBe(reads.length);
  });

  it("lists a technician who is both assigned and on the crew once, in first place", async () => {
    const s = await createPlanJobScenario(database.db);
    const customer = await insertCustomer(database.db, s.companyId);
    const { t1, t2, t3 } = s.users;
    await insertJob(database.db, s.companyId, {
      customerId: customer.id,
      assignedTo: t2.id,
      crew: [t3.id, t2.id, t1.id],
      createdAt: "2027-01-01T00:00:00Z",
    });
    const res = await get("/serviced-jobs?limit=1", s.key);
    expect(res.body.data[0]?.technicians.map((t) => t.user_id)).toEqual([t2.id, t3.id, t1.id]);
  });

  it("refuses a user twice on one job's crew", async () => {
    const s = await createPlanJobScenario(database.db);
    await expect(
      insertJob(database.db, s.companyId, {
        customerId: s.customers.pat.id,
        crew: [s.users.t1.id, s.users.t1.id],
      }),
    ).rejects.toThrow();
  });

  it.each([
    ["only_completed=yes", "only_completed"],
    ["only_completed=", "only_completed"],
    ["service_date_range_start=2026-13-01", "service_date_range_start"],
    ["service_date_range_end=31/03/2026", "service_date_range_end"],
    ["limit=0", "limit"],
    ["page=-1", "page"],
  ])("answers 400 naming the parameter for %s", async (query, field) => {
    const s = await createTenant(database.db);
    const res = await call(listJobs, apiRequest(`/serviced-jobs?${query}`, { key: s.key }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: "VALIDATION_ERROR" });
    expect((res.body.details as { field: string }[]).map((d) => d.field)).toContain(field);
  });

  it("accepts jobs:read or the legacy leads:read scope and names leads:read in a 403", async () => {
    const s = await createPlanJobScenario(database.db);
    for (const scope of ["jobs:read", "leads:read"] as const) {
      const { key } = await createApiKey(database.db, s.companyId, { scopes: [scope] });
      const res = await get("/serviced-jobs", key);
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(4);
    }
    const { key } = await createApiKey(database.db, s.companyId, { scopes: ["service_plans:read"] });
    const res = await call(listJobs, apiRequest("/serviced-jobs", { key }));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error_code: "INSUFFICIENT_SCOPE" });
    expect(res.body.message).toContain("leads:read");
  });

  it("never shows another company's jobs", async () => {
    const s = await createPlanJobScenario(database.db);
    const other = await createPlanJobScenario(database.db);
    const res = await get("/serviced-jobs?only_completed=false&limit=1000", s.key);
    const otherIds = new Set(Object.values(other.jobs).map((j) => j.id));
    expect(res.body.data.some((j) => otherIds.has(j.id))).toBe(false);
    expect(res.body.pagination.total).toBe(9);
  });
});

import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as listJobsRoute } from "@/app/api/serviced-jobs/route";
import { JOB_STATUSES, jobLineItems, jobPayments, jobs, type JobStatus } from "@/lib/db/schema/jobs";
import { jobsWithDetailsSql } from "@/lib/domain/serviced-jobs/list";
import { Random } from "@/lib/seed/random";
import {
  SERVICED_JOB_SORT_FIELDS,
  getServicedJobsQuerySchema,
  type ServicedJobSortField,
} from "@/lib/schemas/serviced-jobs";
import { apiRequest, call, createTenant } from "@/lib/testing/factories";
import { pricedPlans } from "@/lib/testing/list-plans";
import { insertCustomer } from "@/lib/testing/plan-job-fixtures";
import { bySortKeys, type SortValue } from "@/lib/testing/sort-order";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

type ListBody = { data: { id: string }[]; pagination: { total: number; has_more: boolean } };
type ErrorBody = { error_code?: string; message: string; details?: { field: string }[] };

const list = (key: string, query: string) =>
  call<ListBody>(listJobsRoute, apiRequest(`/serviced-jobs?${query}`, { key }));
const ids = (res: { body: ListBody }) => res.body.data.map((job) => job.id);

/** A job as the test made it, with the money its line items and payments come to. */
interface MadeJob {
  id: string;
  status: JobStatus;
  isQuote: boolean;
  archived: boolean;
  serviceDate: Date | null;
  createdAt: Date;
  total: number;
  received: number;
}

const DAY = 86_400_000;
const MARCH = Date.UTC(2026, 2, 1);

/**
 * `count` jobs (`completedShare` of them Completed) with every sort field varied, many ties, empty service
 * dates, quotes and archived ones; the money is made by the database's triggers from real items and payments.
 */
async function insertJobs(
  companyId: string,
  count: number,
  seed: number,
  completedShare = 0,
): Promise<MadeJob[]> {
  const customer = await insertCustomer(database.db, companyId);
  const random = new Random(seed);
  const instants = Array.from({ length: 8 }, (_, i) => new Date(MARCH - i * DAY));
  const made: MadeJob[] = Array.from({ length: count }, (_, i) => ({
    id: `job_sort_${seed}_${String(i).padStart(4, "0")}`,
    status: random.chance(completedShare) ? "Completed" : random.pick(JOB_STATUSES),
    isQuote: random.chance(0.05),
    archived: random.chance(0.05),
    serviceDate: random.chance(0.15)
      ? null
      : new Date(MARCH + random.int(0, 30) * DAY + random.int(0, 3) * 3_600_000),
    createdAt: random.pick(instants),
    total: 0,
    received: 0,
  }));
  const lineItems = made.flatMap((job, i) =>
    Array.from({ length: random.int(0, 2) }, (_, n) => {
      const totalPrice = random.pick([25, 40, 62.5, 100]);
      job.total += totalPrice;
      return { companyId, id: `li_sort_${seed}_${i}_${n}`, jobId: job.id, totalPrice, position: n };
    }),
  );
  const payments = made.flatMap((job, i) =>
    Array.from({ length: random.int(0, 2) }, (_, n) => {
      const amount = random.pick([10, 25, 40]);
      const paymentType = random.chance(0.2) ? ("refund" as const) : ("payment" as const);
      const status = random.chance(0.15) ? ("failed" as const) : ("succeeded" as const);
      if (status === "succeeded") job.received += paymentType === "refund" ? -amount : amount;
      return {
        companyId,
        id: `pay_sort_${seed}_${i}_${n}`,
        jobId: job.id,
        amount,
        paymentDate: new Date(MARCH),
        paymentMethod: "card",
        paymentType,
        status,
      };
    }),
  );
  for (let i = 0; i < made.length; i += 500) {
    await database.db.insert(jobs).values(
      made.slice(i, i + 500).map((job) => ({
        companyId,
        id: job.id,
        customerId: customer.id,
        status: job.status,
        isQuote: job.isQuote,
        archived: job.archived,
        serviceDate: job.serviceDate,
        createdAt: job.createdAt,
      })),
    );
  }
  if (lineItems.length) await database.db.insert(jobLineItems).values(lineItems);
  if (payments.length) await database.db.insert(jobPayments).values(payments);
  return made;
}

/** A job's value for a sort field, as the list compares it (lib/db/schema/jobs.ts, jobSortKeys). */
function jobKey(job: MadeJob, field: ServicedJobSortField): SortValue {
  switch (field) {
    case "created_at":
      return job.createdAt;
    case "service_date":
      return job.serviceDate;
    case "status":
      return JOB_STATUSES.indexOf(job.status);
    case "total":
      return job.total;
    case "total_received":
      return job.received;
    case "total_outstanding":
      return Math.max(job.total - job.received, 0);
  }
}

/** The listed jobs of a request's filters, by hand (contract section 7). */
function listed(made: MadeJob[], filters: { onlyCompleted: boolean; from?: number; to?: number }) {
  const bounded = filters.from !== undefined || filters.to !== undefined;
  return made.filter(
    (job) =>
      !job.isQuote &&
      !job.archived &&
      (!filters.onlyCompleted || job.status === "Completed") &&
      (!bounded ||
        (job.serviceDate !== null &&
          job.serviceDate.getTime() >= (filters.from ?? -Infinity) &&
          job.serviceDate.getTime() <= (filters.to ?? Infinity))),
  );
}

/** The ids of the jobs in the order of `sort` (nulls last, then id descending). */
const sorted = (made: MadeJob[], sort: string) => bySortKeys(made, sort, jobKey);

describe(`GET /api/serviced-jobs?sort (${testEngine()})`, () => {
  it("sorts by every field both ways, nulls last, ties by id descending", async () => {
    const { key, companyId } = await createTenant(database.db);
    const made = await insertJobs(companyId, 60, 1);
    const every = listed(made, { onlyCompleted: false });
    const completed = listed(made, { onlyCompleted: true });
    for (const field of SERVICED_JOB_SORT_FIELDS) {
      for (const sort of [field, `-${field}`]) {
        const all = await list(key, `only_completed=false&sort=${sort}&limit=1000`);
        expect(all.status, sort).toBe(200);
        expect(ids(all), sort).toEqual(sorted(every, sort));
        expect(all.body.pagination.total).toBe(every.length);
        expect(ids(await list(key, `sort=${sort}&limit=1000`)), sort).toEqual(sorted(completed, sort));
      }
    }
    // Jobs without a service date come last both ways, among themselves by id descending.
    const undated = every
      .filter((job) => job.serviceDate === null)
      .map((job) => job.id)
      .sort()
      .reverse();
    expect(undated.length).toBeGreaterThan(0);
    for (const sort of ["service_date", "-service_date"]) {
      const page = ids(await list(key, `only_completed=false&sort=${sort}&limit=1000`));
      expect(page.slice(-undated.length), sort).toEqual(undated);
    }
  });

  it("sorts by several fields; without sort the order is newest first, as before", async () => {
    const { key, companyId } = await createTenant(database.db);
    const made = await insertJobs(companyId, 60, 2);
    const every = listed(made, { onlyCompleted: false });
    for (const sort of [
      "status,-total",
      "-total_outstanding,service_date",
      "created_at,-total_received,status",
    ]) {
      expect(ids(await list(key, `only_completed=false&sort=${sort}&limit=1000`)), sort).toEqual(
        sorted(every, sort),
      );
    }
    expect(ids(await list(key, "only_completed=false&limit=1000"))).toEqual(sorted(every, "-created_at"));
    expect(
      ids(await list(key, `only_completed=false&limit=1000&sort=${encodeURIComponent(" status , -total ")}`)),
    ).toEqual(sorted(every, "status,-total"));
  });

  it.each(["bogus", "total,total", "total,-total", "total,", ",total", "", "-", "id", "customer", "Total"])(
    "answers 400 VALIDATION_ERROR naming sort for sort=%s",
    async (sort) => {
      const { key } = await createTenant(database.db);
      const res = await call<ErrorBody>(listJobsRoute, apiRequest(`/serviced-jobs?sort=${sort}`, { key }));
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_ERROR");
      expect((res.body.details ?? []).map((d) => d.field)).toEqual(["sort"]);
    },
  );

  it("pages every order without repeating or skipping a job, with and without a service-date range", async () => {
    const { key, companyId } = await createTenant(database.db);
    const made = await insertJobs(companyId, 400, 3);
    const ranges = [
      { query: "", from: undefined, to: undefined },
      // By service date first the range is read in order; otherwise read whole and sorted.
      {
        query: "&service_date_range_start=2026-03-05&service_date_range_end=2026-03-20",
        from: MARCH + 4 * DAY,
        to: MARCH + 20 * DAY - 1,
      },
    ];
    const limit = 23;
    for (const range of ranges) {
      for (const onlyCompleted of [false, true]) {
        const matching = listed(made, { onlyCompleted, from: range.from, to: range.to });
        for (const sort of ["-total_outstanding", "service_date", "-service_date,status", "status,total"]) {
          const expected = sorted(matching, sort);
          const seen: string[] = [];
          for (let page = 1; page <= Math.ceil(expected.length / limit) + 1; page++) {
            const query = `only_completed=${onlyCompleted}&sort=${sort}&limit=${limit}&page=${page}${range.query}`;
            const res = await list(key, query);
            expect(res.status, query).toBe(200);
            expect(res.body.pagination.total, query).toBe(expected.length);
            expect(res.body.pagination.has_more, query).toBe(page * limit < expected.length);
            seen.push(...ids(res));
          }
          expect(seen, `${sort} ${range.query} ${onlyCompleted}`).toEqual(expected);
        }
      }
    }
  });

  it("reads a sorted page from the order's index, never a scan", async () => {
    const { companyId } = await createTenant(database.db);
    // Most jobs done, as in a working company's history (lib/seed): walking an order's index
    // and skipping the others by status beats sorting the completed ones.
    await insertJobs(companyId, 1000, 4, 0.8);
    // Statistics, and the visibility map an index-only scan reads.
    await database.db.execute(sql`vacuum (analyze) jobs`);
    const planOf = async (query: string) => {
      const input = getServicedJobsQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)));
      const window = { limit: 50, offset: 50, sort: input.sort };
      const [plan = ""] = await pricedPlans(database.db, [jobsWithDetailsSql(companyId, input, window)]);
      expect(plan, query).not.toContain("Seq Scan");
      return plan;
    };
    for (const field of SERVICED_JOB_SORT_FIELDS) {
      for (const sort of [field, `-${field}`]) {
        const index =
          sort === "-created_at"
            ? "jobs_(listed|completed)_created_idx"
            : `jobs_listed_${field}_${sort === field ? "asc" : "desc"}_idx`;
        for (const filter of ["only_completed=false", "only_completed=true"]) {
          expect(await planOf(`${filter}&sort=${sort}`), `${filter} ${sort}`).toMatch(
            // The window straight from the index under its LIMIT: no sort of the tenant's jobs.
            new RegExp(
              `Limit\\b[^\\n]*\\n\\s*->\\s+Index (?:Only )?Scan using ${index} on jobs j(?:_\\d+)?\\b`,
            ),
          );
        }
      }
    }
    // A service-date range: in its order from that order's index, else read from the range's.
    const range = "service_date_range_start=2026-03-05&service_date_range_end=2026-03-20";
    expect(await planOf(`${range}&sort=-service_date`)).toMatch(
      /using jobs_listed_service_date_desc_idx on jobs j(?:_\d+)?\b/,
    );
    const byTotal = await planOf(`${range}&sort=-total`);
    expect(byTotal).toMatch(/using jobs_(listed|completed)_service_date_idx on jobs j(?:_\d+)?\b/);
    expect(byTotal).not.toMatch(/jobs_listed_total_desc_idx/);
  });
});

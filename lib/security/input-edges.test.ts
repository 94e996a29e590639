import { beforeAll, describe, expect, it } from "vitest";
import { GET as listCustomers } from "@/app/api/customers/route";
import { GET as listLeads, POST as upsertLead } from "@/app/api/leads/route";
import { GET as listPins } from "@/app/api/pins/route";
import { GET as planExport } from "@/app/api/reports/service-plans/export/route";
import { GET as planReport } from "@/app/api/reports/service-plans/route";
import { GET as fieldActivityExport } from "@/app/api/reports/field-activity/export/route";
import { GET as fieldActivityReport } from "@/app/api/reports/field-activity/route";
import { GET as jobExport } from "@/app/api/reports/serviced-jobs/export/route";
import { GET as jobReport } from "@/app/api/reports/serviced-jobs/route";
import { GET as listPlans } from "@/app/api/service-plans/route";
import { GET as listJobs } from "@/app/api/serviced-jobs/route";
import { DATE_RANGE_MESSAGE, MAX_PAGE, MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { apiRequest, call } from "@/lib/testing/factories";
import { createPlanJobScenario, insertPin, insertPinType } from "@/lib/testing/plan-job-fixtures";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

// The edges of the API's input (issue #40): pages far past the data, dates past year 9999, and
// backwards report ranges answer cleanly, never a database error.

type Handler = typeof listLeads;
type Body = {
  status: string;
  error_code?: string;
  details?: { field: string; message: string }[];
  data?: unknown[];
  pagination?: { page: number; limit: number; total: number; has_more: boolean };
};

const database = setupTestDatabase();
let key: string;
let userId: string;
beforeAll(async () => {
  const scenario = await createPlanJobScenario(database.db);
  key = scenario.key;
  userId = scenario.users.alice.id;
  const type = await insertPinType(database.db, scenario.companyId, { label: "Knocked" });
  for (const latitude of [40.1, 40.2, 40.3]) {
    await insertPin(database.db, scenario.companyId, {
      pinTypeId: type.id,
      createdBy: userId,
      latitude,
      longitude: -74,
    });
  }
  for (const [name, phone] of [
    ["Ada Lovelace", "555 0101"],
    ["Grace Hopper", "555 0102"],
  ]) {
    const res = await call(upsertLead, apiRequest("/leads", { key, body: { name, phone } }));
    expect(res.status).toBe(201);
  }
});

const get = (handler: Handler, path: string) => call<Body>(handler, apiRequest(path, { key }));

/** Every paginated list, with filters that take each way its page is read. */
const LISTS: [string, Handler, string][] = [
  ["leads", listLeads, "/leads?"],
  ["leads searched by grams (page and total in one statement)", listLeads, "/leads?search=lovelace&"],
  ["leads searched under a gram", listLeads, "/leads?search=a&"],
  ["customers", listCustomers, "/customers?"],
  ["service plans (kept total)", listPlans, "/service-plans?"],
  ["service plans (counted total)", listPlans, "/service-plans?created_at_range_start=2026-01-01&"],
  ["serviced jobs", listJobs, "/serviced-jobs?"],
  [
    "serviced jobs in a date range",
    listJobs,
    "/serviced-jobs?service_date_range_start=2026-01-01&service_date_range_end=2026-12-31&",
  ],
  ["pins", listPins, "/pins?"],
];

describe(`input edges of the API (${testEngine()})`, () => {
  it.each(LISTS)(
    "%s: a page far past the end answers no rows and the true total",
    async (_, handler, path) => {
      const first = await get(handler, `${path}limit=${MAX_PAGE_SIZE}`);
      expect(first.status).toBe(200);
      const total = first.body.pagination!.total;
      expect(total).toBe(first.body.data!.length);
      expect(total).toBeGreaterThan(0);
      // The probe's page; a page past 2^53 (a JS number would round it); the last page, whose
      // offset at the largest page size is past 2^63 and is clamped there.
      for (const [page, limit] of [
        [1_000_000_000_000n, 50],
        [9_007_199_254_740_993n, 1],
        [MAX_PAGE, 1],
        [MAX_PAGE, MAX_PAGE_SIZE],
      ] as const) {
        const res = await call<Body>(handler, apiRequest(`${path}page=${page}&limit=${limit}`, { key }));
        expect(res.status, `page ${page}, limit ${limit}`).toBe(200);
        expect(res.body.data).toEqual([]);
        expect(res.body.pagination).toMatchObject({ limit, total, has_more: false });
        // The page is echoed as an exact JSON integer, read from the text: JSON.parse would round it.
        expect(res.text, `page ${page}`).toContain(`"page":${page},`);
      }
    },
  );

  it.each(LISTS)(
    "%s: a page beyond what the database can skip is a 400 naming page",
    async (_, handler, path) => {
      for (const page of [String(MAX_PAGE + 1n), "99999999999999999999999999"]) {
        const res = await get(handler, `${path}page=${page}`);
        expect(res.status, page).toBe(400);
        expect(res.body.error_code).toBe("VALIDATION_ERROR");
        expect(res.body.details).toEqual([{ field: "page", message: `page must be at most ${MAX_PAGE}` }]);
      }
    },
  );

  /** Every date input of a query: its endpoint and the parameter. */
  const DATE_QUERIES: [string, string, Handler][] = [
    ["/serviced-jobs", "service_date_range_start", listJobs],
    ["/serviced-jobs", "service_date_range_end", listJobs],
    ["/service-plans", "created_at_range_start", listPlans],
    ["/service-plans", "created_at_range_end", listPlans],
    ["/reports/serviced-jobs", "service_date_range_start", jobReport],
    ["/reports/serviced-jobs", "service_date_range_end", jobReport],
    ["/reports/serviced-jobs/export", "service_date_range_end", jobExport],
    ["/reports/service-plans", "created_at_range_start", planReport],
    ["/reports/service-plans", "created_at_range_end", planReport],
    ["/reports/service-plans/export", "created_at_range_start", planExport],
  ];
  /** Four-digit years that leave years 1 to 9999 once in UTC, and a year 0. */
  const OUT_OF_RANGE = [
    "9999-12-31T23:59:59-14:00",
    "9999-12-31T23:00-01:00",
    "0001-01-01T00:00:00+14:00",
    "0000-06-01",
  ];

  it.each(DATE_QUERIES)(
    "%s: a date outside years 1 to 9999 in UTC is a 400 naming %s",
    async (path, field, handler) => {
      for (const value of OUT_OF_RANGE) {
        const res = await get(handler, `${path}?${field}=${encodeURIComponent(value)}`);
        expect(res.status, `${path} ${field}=${value}`).toBe(400);
        expect(res.body.error_code).toBe("VALIDATION_ERROR");
        expect(res.body.details).toEqual([{ field, message: DATE_RANGE_MESSAGE }]);
      }
    },
  );

  it("takes the first and last instants of the range on lists and reports", async () => {
    for (const [handler, path] of [
      [listJobs, "/serviced-jobs?service_date_range_start=0001-01-01&service_date_range_end=9999-12-31"],
      [listJobs, "/serviced-jobs?service_date_range_end=9999-12-31T23:59:59.999Z"],
      [
        listJobs,
        "/serviced-jobs?service_date_range_start=0001-01-01T18:00:00Z&service_date_range_end=9999-12-31T06:00Z",
      ],
      [
        listPlans,
        "/service-plans?created_at_range_start=0001-01-01T00:00:00Z&created_at_range_end=9999-12-31",
      ],
      [
        jobReport,
        "/reports/serviced-jobs?service_date_range_start=0001-01-01&service_date_range_end=9999-12-31",
      ],
      [planReport, "/reports/service-plans?created_at_range_end=9999-12-31T23:59:59%2B00:00"],
    ] as const) {
      const res = await get(handler, path);
      expect(res.status, path).toBe(200);
    }
  });

  it("refuses a lead's follow_up_date past year 9999 in UTC, and keeps the last day", async () => {
    const refused = await call<Body>(
      upsertLead,
      apiRequest("/leads", { key, body: { name: "Late", follow_up_date: "9999-12-31T23:59:59-14:00" } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error_code: "VALIDATION_ERROR",
      details: [{ field: "follow_up_date", message: DATE_RANGE_MESSAGE }],
    });
    const kept = await call<{ follow_up_date: string }>(
      upsertLead,
      apiRequest("/leads", { key, body: { name: "Last day", follow_up_date: "9999-12-31T23:59:59.999Z" } }),
    );
    expect(kept.status).toBe(201);
    expect(kept.body.follow_up_date).toBe("9999-12-31T23:59:59.999Z");
  });

  /** The reports and exports with their date range's bounds. */
  const REPORTS: [string, string, string, Handler][] = [
    ["/reports/service-plans", "created_at_range_start", "created_at_range_end", planReport],
    ["/reports/service-plans/export", "created_at_range_start", "created_at_range_end", planExport],
    ["/reports/serviced-jobs", "service_date_range_start", "service_date_range_end", jobReport],
    ["/reports/serviced-jobs/export", "service_date_range_start", "service_date_range_end", jobExport],
    ["/reports/field-activity", "from", "to", fieldActivityReport],
    ["/reports/field-activity/export", "from", "to", fieldActivityExport],
  ];

  it.each(REPORTS)(
    "%s: a range from %s after its end is a 400 naming the end",
    async (path, start, end, handler) => {
      for (const [from, to] of [
        ["2026-03-02", "2026-03-01"],
        ["2026-03-01T12:00:00Z", "2026-03-01T11:59:59.999Z"],
      ]) {
        const res = await get(handler, `${path}?${start}=${from}&${end}=${to}`);
        expect(res.status, `${from} .. ${to}`).toBe(400);
        expect(res.body.error_code).toBe("VALIDATION_ERROR");
        expect(res.body.details).toEqual([{ field: end, message: `must not be before ${start}` }]);
      }
      // One day, from a bare date to itself: its whole day, in order.
      if (!path.endsWith("/export")) {
        const sameDay = await get(handler, `${path}?${start}=2026-03-01&${end}=2026-03-01`);
        expect(sameDay.status).toBe(200);
      }
    },
  );

  it("answers a backwards range on the lists with an empty page", async () => {
    for (const [handler, path] of [
      [listPlans, "/service-plans?created_at_range_start=2026-03-02&created_at_range_end=2026-03-01"],
      [listJobs, "/serviced-jobs?service_date_range_start=2026-03-02&service_date_range_end=2026-03-01"],
    ] as const) {
      const res = await get(handler, path);
      expect(res.status, path).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.pagination).toMatchObject({ total: 0, has_more: false });
    }
  });
});

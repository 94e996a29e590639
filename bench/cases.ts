// The cases `npm run bench` loads against our server and the baseline. `vary` makes the i-th
// request when requests must differ (a new phone per create); the template is i = 0.

import { CUSTOMER_SORT_FIELDS } from "@/lib/schemas/customers";
import { LEAD_SORT_FIELDS } from "@/lib/schemas/leads";
import { SERVICED_JOB_SORT_FIELDS } from "@/lib/schemas/serviced-jobs";

export type CaseKind = "list" | "get" | "upsert" | "report" | "other";

export interface RequestSpec {
  method: "GET" | "POST";
  path: string;
  body?: Record<string, unknown>;
}

export interface BenchCase {
  id: string;
  title: string;
  kind: CaseKind;
  /** The template request (i = 0). */
  request: RequestSpec;
  /** The i-th request of a load (i ≥ 0); absent: every request is the template. */
  vary?: (i: number) => RequestSpec;
  expectStatus: number;
  /**
   * At most this many connections: the reports aggregate a whole tenant (seconds at 1M rows) and
   * are run by a manager now and then, not by eight clients at once.
   */
  maxConnections?: number;
  /**
   * Only our server is loaded: the baseline replays captured reads and writes out create-or-update,
   * and has no bulk change to compare with.
   */
  oursOnly?: boolean;
  /**
   * A fixed number of requests, each answered before the next, instead of a timed load: a request
   * that outlasts the load's time would still hold its locks when the next load begins.
   */
  requests?: number;
  /** What is wrong with a response body (undefined: it is right). */
  check(body: unknown): string | undefined;
}

/** Values taken from the generated data that the cases need (ids, a real phone fragment...). */
export interface Fixtures {
  companyId: string;
  leadIds: string[];
  /** Up to 10,000 leads, spread over the tenant: what one bulk change selects. */
  bulkLeadIds: string[];
  customerIds: string[];
  phoneDigits: string;
  salesRepId: string;
  pinTypeId: string;
  pinUserId: string;
  /** [latitude, longitude] amid the generated pins: the centre of a city block's bbox. */
  pinPoint: [number, number];
  /** A lead with a long activity history (HISTORY_ENTRIES entries). */
  historyLeadId: string;
  /** Change-feed cursors (extensions.md E10) at the places of leads spread over the tenant. */
  leadFeedCursors: string[];
  /** Unique per run: the phones of created leads never collide with earlier runs. */
  runTag: string;
}

/** Half the sides of a city block, in degrees (about 170 m by 170 m at the cities' latitudes). */
const BLOCK = { lat: 0.0015, lng: 0.002 };

export const RANGES = {
  plansCreated: { start: "2026-08-01", end: "2026-10-31" },
  jobsService: { start: "2025-06-01", end: "2025-06-30" },
  knocks: { start: "2026-09-01", end: "2026-09-30" },
  /** Wider than the generated data's three years. */
  all: { start: "2023-10-01", end: "2026-11-30" },
};

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A list answer: status, data array, pagination; then each item through `item`. */
function listCheck(
  options: { page?: number; limit?: number; minTotal?: number; maxTotal?: number } = {},
  item?: (row: Json) => string | undefined,
) {
  return (body: unknown): string | undefined => {
    if (!isObject(body) || body.status !== "success") return "status is not success";
    if (!Array.isArray(body.data)) return "data is not an array";
    const p = body.pagination;
    if (!isObject(p) || typeof p.total !== "number" || typeof p.has_more !== "boolean")
      return "pagination is missing or malformed";
    const limit = options.limit ?? 50;
    if (p.limit !== limit || p.page !== (options.page ?? 1))
      return `pagination page/limit ${p.page}/${p.limit}`;
    if (body.data.length > limit) return `more than ${limit} items`;
    if (options.minTotal !== undefined && p.total < options.minTotal)
      return `total ${p.total} < ${options.minTotal}`;
    if (options.maxTotal !== undefined && p.total > options.maxTotal)
      return `total ${p.total} > ${options.maxTotal}`;
    if ((options.page ?? 1) * limit <= p.total && body.data.length !== limit)
      return `a full page was expected, got ${body.data.length}`;
    for (const row of body.data) {
      if (!isObject(row) || typeof row.id !== "string") return "an item without id";
      const problem = item?.(row);
      if (problem) return `item ${row.id}: ${problem}`;
    }
    return undefined;
  };
}

function dataCheck(item: (data: Json) => string | undefined) {
  return (body: unknown): string | undefined => {
    if (!isObject(body) || body.status !== "success") return "status is not success";
    if (!isObject(body.data)) return "data is not an object";
    return item(body.data);
  };
}

/** A knock-to-cash answer: rows of users and totals with knocks in them. */
function fieldActivityCheck(body: unknown): string | undefined {
  if (!isObject(body) || body.status !== "success") return "status is not success";
  if (!Array.isArray(body.data) || body.data.length === 0) return "no rows";
  if (!isObject(body.totals) || typeof body.totals.knocks !== "number" || body.totals.knocks <= 0) {
    return "no knocks in the totals";
  }
  return undefined;
}

/** A stage-totals answer: one row per stage, whose counts and sums add up to the totals. */
function stageTotalsCheck(options: { minTotal: number }) {
  return (body: unknown): string | undefined => {
    if (!isObject(body) || body.status !== "success") return "status is not success";
    if (!Array.isArray(body.data) || !isObject(body.totals)) return "data or totals missing";
    const { count, projected_value: value } = body.totals;
    if (typeof count !== "number" || typeof value !== "number") return "totals malformed";
    if (count < options.minTotal) return `total ${count} < ${options.minTotal}`;
    let rows = 0;
    let cents = 0;
    for (const row of body.data) {
      if (!isObject(row) || typeof row.count !== "number" || typeof row.projected_value !== "number")
        return "a malformed row";
      rows += row.count;
      cents += Math.round(row.projected_value * 100);
    }
    if (rows !== count) return `rows count ${rows}, totals ${count}`;
    if (cents !== Math.round(value * 100)) return `rows sum ${cents / 100}, totals ${value}`;
    return undefined;
  };
}

const within = (value: unknown, start: string, end: string) =>
  typeof value === "string" && value >= `${start}T00:00:00.000Z` && value <= `${end}T23:59:59.999Z`;

/** Search terms: a common name fragment, digits of a real phone, and a surname on ten rows. */
export const SEARCH = { name: "mart", customer: "john", rare: "quillfeather" };

/** A sort order's case id: `leads-sort-name`, `leads-sort-name-desc`. */
const sortCaseId = (list: string, sort: string) =>
  `${list}-sort-${sort.replace(/^-/, "").replaceAll("_", "-")}${sort.startsWith("-") ? "-desc" : ""}`;

export function buildCases(fx: Fixtures): BenchCase[] {
  const get = (path: string): RequestSpec => ({ method: "GET", path });
  const pick = (ids: string[], i: number) => ids[i % ids.length] ?? ids[0] ?? "missing";
  const leadsList = (id: string, title: string, query: string, check: BenchCase["check"]): BenchCase => ({
    id,
    title,
    kind: "list",
    request: get(`/api/leads${query}`),
    expectStatus: 200,
    check,
  });
  // Each sort order of a list, both ways (extensions.md E2), from its own index (a list's target).
  const sortCases = (list: string, path: string, fields: readonly string[]): BenchCase[] =>
    fields
      .flatMap((field) => [field, `-${field}`])
      .map((sort) => ({
        id: sortCaseId(list, sort),
        title: `GET /${path}?sort=${sort}`,
        kind: "list",
        request: get(`/api/${path}?sort=${sort}`),
        expectStatus: 200,
        check: listCheck({ minTotal: 1 }),
      }));
  const newLead = (i: number): Record<string, unknown> => {
    const serial = String(i).padStart(7, "0");
    return {
      name: `Bench Lead ${fx.runTag} ${i}`,
      phone: `(999) ${serial.slice(0, 3)}-${serial.slice(3)}`,
      email: `bench.${fx.runTag}.${i}@bench.example`,
      source: "Website",
      stage: "new",
      service_type: "General Pest",
      tags: ["bench"],
      address_city: "Austin",
      address_state: "TX",
    };
  };
  // The created phones are (999) + 7 digits: 999 is no area code of the data, and the run tag
  // (a few digits) leads, so no run re-finds an earlier run's lead.
  const createBody = (i: number) => newLead(Number(fx.runTag) * 100_000 + i);
  const bulkAssign = (i: number): RequestSpec => ({
    method: "POST",
    path: "/api/leads/bulk",
    body: {
      ids: fx.bulkLeadIds,
      action: { type: "assign", assigned_to: i % 2 === 0 ? fx.salesRepId : null },
    },
  });
  // A knock a few metres apart each time, with the client's own id as the field app sends it.
  const knock = (i: number): RequestSpec => ({
    method: "POST",
    path: "/api/pins",
    body: {
      location: [fx.pinPoint[0] + (i % 100) * 1e-5, fx.pinPoint[1] + Math.floor(i / 100) * 1e-5],
      pin_type_id: fx.pinTypeId,
      created_by: fx.pinUserId,
      client_id: `bench-${fx.runTag}-${i}`,
      notes: "Bench knock",
    },
  });
  const updateBody = (i: number) => ({
    id: pick(fx.leadIds, i),
    tags: ["bench-updated"],
    stage: "contacted",
  });

  return [
    leadsList(
      "leads-default",
      "GET /leads",
      "",
      listCheck({ minTotal: 1 }, (r) => (r.archived ? "archived" : undefined)),
    ),
    leadsList("leads-page-1000", "GET /leads?page=1000", "?page=1000", listCheck({ page: 1000 })),
    leadsList(
      "leads-stage",
      "GET /leads?stage=won",
      "?stage=won",
      listCheck({ minTotal: 1 }, (r) => (r.stage === "won" ? undefined : `stage ${String(r.stage)}`)),
    ),
    leadsList(
      "leads-tags",
      "GET /leads?tags=vip,high-value",
      "?tags=vip,high-value",
      listCheck({ minTotal: 1 }, (r) =>
        Array.isArray(r.tags) && r.tags.some((t) => t === "vip" || t === "high-value") ? undefined : "tags",
      ),
    ),
    leadsList("leads-archived", "GET /leads?archived=true", "?archived=true", listCheck({ minTotal: 1 })),
    // A page of the change feed mid-walk (issue #55: p95 ≤ 50 ms at 1M leads), from leads_change_idx.
    {
      ...leadsList(
        "leads-feed-cursor",
        "GET /leads?cursor=<mid-walk>&limit=100",
        `?limit=100&cursor=${pick(fx.leadFeedCursors, 0)}`,
        listCheck({ page: 2, limit: 100 }),
      ),
      vary: (i) => get(`/api/leads?limit=100&cursor=${pick(fx.leadFeedCursors, i)}`),
      // The baseline replays one captured request per path and pages by offset only.
      oursOnly: true,
    },
    leadsList(
      "leads-search-name",
      `GET /leads?search=${SEARCH.name}`,
      `?search=${SEARCH.name}`,
      listCheck({ minTotal: 1 }),
    ),
    leadsList(
      "leads-search-phone",
      "GET /leads?search=<7 phone digits>",
      `?search=${fx.phoneDigits}`,
      listCheck({ minTotal: 1 }),
    ),
    leadsList(
      "leads-search-rare",
      `GET /leads?search=${SEARCH.rare}`,
      `?search=${SEARCH.rare}`,
      listCheck({ minTotal: 1, maxTotal: 20 }),
    ),
    ...sortCases("leads", "leads", LEAD_SORT_FIELDS),
    // The leads due by a day, soonest first: the follow-up range and order from one index.
    leadsList(
      "leads-follow-up-due",
      "GET /leads?follow_up_to=<date>&sort=follow_up_date",
      "?follow_up_to=2026-06-30&sort=follow_up_date",
      listCheck({}, (r) =>
        typeof r.follow_up_date === "string" && r.follow_up_date <= "2026-06-30T23:59:59.999Z"
          ? undefined
          : `follow_up_date ${String(r.follow_up_date)}`,
      ),
    ),
    // The leads board: each stage's count and summed projected value, from the kept sums (a
    // list's target: p95 ≤ 50 ms).
    {
      id: "leads-stage-totals",
      title: "GET /leads/stage-totals",
      kind: "list",
      request: get("/api/leads/stage-totals"),
      expectStatus: 200,
      check: stageTotalsCheck({ minTotal: 1 }),
    },
    {
      id: "leads-stage-totals-tags",
      title: "GET /leads/stage-totals?tags=vip,high-value",
      kind: "list",
      request: get("/api/leads/stage-totals?tags=vip,high-value"),
      expectStatus: 200,
      check: stageTotalsCheck({ minTotal: 1 }),
    },
    {
      id: "lead-by-id",
      title: "GET /leads/{id}",
      kind: "get",
      request: get(`/api/leads/${pick(fx.leadIds, 0)}`),
      vary: (i) => get(`/api/leads/${pick(fx.leadIds, i)}`),
      expectStatus: 200,
      check: dataCheck((d) =>
        typeof d.id === "string" && d.id.startsWith("lead_") ? undefined : "no lead id",
      ),
    },
    // A page of 50 entries of a 10,000-entry history (target: p95 ≤ 20 ms), pages 1 to 200 in turn.
    {
      id: "lead-activity",
      title: "GET /leads/{id}/activity (10,000 entries)",
      kind: "list",
      oursOnly: true,
      request: get(`/api/leads/${fx.historyLeadId}/activity?limit=50`),
      vary: (i) => get(`/api/leads/${fx.historyLeadId}/activity?limit=50&page=${(i % 200) + 1}`),
      expectStatus: 200,
      check: (body) =>
        isObject(body) &&
        body.status === "success" &&
        Array.isArray(body.data) &&
        body.data.length === 50 &&
        isObject(body.pagination) &&
        Number(body.pagination.total) >= 10_000
          ? undefined
          : "not a full page of the long history",
    },
    {
      id: "customers-default",
      title: "GET /customers",
      kind: "list",
      request: get("/api/customers"),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }),
    },
    {
      id: "customers-search",
      title: `GET /customers?search=${SEARCH.customer}`,
      kind: "list",
      request: get(`/api/customers?search=${SEARCH.customer}`),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }),
    },
    {
      id: "customers-status",
      title: "GET /customers?status=inactive",
      kind: "list",
      request: get("/api/customers?status=inactive"),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }, (r) =>
        r.status === "inactive" ? undefined : `status ${String(r.status)}`,
      ),
    },
    ...sortCases("customers", "customers", CUSTOMER_SORT_FIELDS),
    {
      id: "customer-by-id",
      title: "GET /customers/{id}",
      kind: "get",
      request: get(`/api/customers/${pick(fx.customerIds, 0)}`),
      vary: (i) => get(`/api/customers/${pick(fx.customerIds, i)}`),
      expectStatus: 200,
      check: dataCheck((d) =>
        typeof d.has_payment_method === "boolean" ? undefined : "no has_payment_method",
      ),
    },
    {
      id: "plans-default",
      title: "GET /service-plans",
      kind: "list",
      request: get("/api/service-plans"),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }, (r) =>
        isObject(r.customer) && isObject(r.sold_by) ? undefined : "shape",
      ),
    },
    {
      id: "plans-status",
      title: "GET /service-plans?status=inactive",
      kind: "list",
      request: get("/api/service-plans?status=inactive"),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }, (r) => (r.active === false ? undefined : "active")),
    },
    {
      id: "plans-frequency",
      title: "GET /service-plans?frequency=Monthly",
      kind: "list",
      request: get("/api/service-plans?frequency=Monthly"),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }, (r) => (r.service_frequency === "Monthly" ? undefined : "frequency")),
    },
    {
      id: "plans-service-type",
      title: "GET /service-plans?service_type=Termite",
      kind: "list",
      request: get("/api/service-plans?service_type=Termite"),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }, (r) => (r.service_type === "Termite" ? undefined : "service_type")),
    },
    {
      id: "plans-sold-by",
      title: "GET /service-plans?sold_by_user_id=…",
      kind: "list",
      request: get(`/api/service-plans?sold_by_user_id=${fx.salesRepId}`),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }, (r) =>
        isObject(r.sold_by) && r.sold_by.user_id === fx.salesRepId ? undefined : "sold_by",
      ),
    },
    {
      id: "plans-created-range",
      title: "GET /service-plans?created_at_range_…",
      kind: "list",
      request: get(
        `/api/service-plans?created_at_range_start=${RANGES.plansCreated.start}&created_at_range_end=${RANGES.plansCreated.end}`,
      ),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }, (r) =>
        within(r.created_at, RANGES.plansCreated.start, RANGES.plansCreated.end) ? undefined : "created_at",
      ),
    },
    {
      id: "jobs-default",
      title: "GET /serviced-jobs",
      kind: "list",
      request: get("/api/serviced-jobs"),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }, (r) =>
        r.status === "Completed" ? undefined : `status ${String(r.status)}`,
      ),
    },
    {
      id: "jobs-all-statuses",
      title: "GET /serviced-jobs?only_completed=false",
      kind: "list",
      request: get("/api/serviced-jobs?only_completed=false"),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }),
    },
    {
      id: "jobs-date-range",
      title: "GET /serviced-jobs?service_date_range_…",
      kind: "list",
      request: get(
        `/api/serviced-jobs?service_date_range_start=${RANGES.jobsService.start}&service_date_range_end=${RANGES.jobsService.end}`,
      ),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }, (r) =>
        within(r.service_date, RANGES.jobsService.start, RANGES.jobsService.end) ? undefined : "service_date",
      ),
    },
    // The job report's table, completed jobs as it opens, in each order.
    ...sortCases("jobs", "serviced-jobs", SERVICED_JOB_SORT_FIELDS),
    {
      id: "pins-default",
      title: "GET /pins",
      kind: "list",
      request: get("/api/pins"),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }),
    },
    {
      id: "pins-type",
      title: "GET /pins?pin_type_id=…",
      kind: "list",
      request: get(`/api/pins?pin_type_id=${fx.pinTypeId}`),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }, (r) =>
        isObject(r.pin_type) && r.pin_type.id === fx.pinTypeId ? undefined : "pin_type",
      ),
    },
    {
      id: "pins-user",
      title: "GET /pins?user_id=…",
      kind: "list",
      request: get(`/api/pins?user_id=${fx.pinUserId}`),
      expectStatus: 200,
      check: listCheck({ minTotal: 1 }, (r) =>
        isObject(r.created_by) && r.created_by.user_id === fx.pinUserId ? undefined : "created_by",
      ),
    },
    {
      id: "pins-bbox",
      title: "GET /pins?bbox=… (a city block)",
      kind: "list",
      oursOnly: true,
      request: get(
        `/api/pins?bbox=${[
          fx.pinPoint[0] - BLOCK.lat,
          fx.pinPoint[1] - BLOCK.lng,
          fx.pinPoint[0] + BLOCK.lat,
          fx.pinPoint[1] + BLOCK.lng,
        ].join(",")}`,
      ),
      expectStatus: 200,
      check: listCheck({}, (r) => {
        const [lat, lng] = Array.isArray(r.location) ? (r.location as number[]) : [];
        return lat !== undefined &&
          lng !== undefined &&
          Math.abs(lat - fx.pinPoint[0]) <= BLOCK.lat &&
          Math.abs(lng - fx.pinPoint[1]) <= BLOCK.lng
          ? undefined
          : "outside the bbox";
      }),
    },
    {
      id: "pin-types",
      title: "GET /pin-types",
      kind: "other",
      request: get("/api/pin-types"),
      expectStatus: 200,
      check: (body) =>
        isObject(body) && body.status === "success" && Array.isArray(body.data) && body.data.length > 0
          ? undefined
          : "no pin types",
    },
    {
      id: "report-plans-range",
      title: "GET /reports/service-plans?created_at_range_…",
      kind: "report",
      maxConnections: 2,
      request: get(
        `/api/reports/service-plans?created_at_range_start=${RANGES.plansCreated.start}&created_at_range_end=${RANGES.plansCreated.end}`,
      ),
      expectStatus: 200,
      check: dataCheck((d) =>
        typeof d.plan_count === "number" && d.plan_count > 0 ? undefined : "plan_count",
      ),
    },
    {
      id: "report-plans-all",
      title: "GET /reports/service-plans",
      kind: "report",
      maxConnections: 2,
      request: get("/api/reports/service-plans"),
      expectStatus: 200,
      check: dataCheck((d) =>
        typeof d.plan_count === "number" && d.plan_count > 0 ? undefined : "plan_count",
      ),
    },
    {
      id: "report-jobs-range",
      title: "GET /reports/serviced-jobs?service_date_range_…",
      kind: "report",
      maxConnections: 2,
      request: get(
        `/api/reports/serviced-jobs?service_date_range_start=${RANGES.jobsService.start}&service_date_range_end=${RANGES.jobsService.end}`,
      ),
      expectStatus: 200,
      check: dataCheck((d) => (typeof d.job_count === "number" && d.job_count > 0 ? undefined : "job_count")),
    },
    {
      id: "report-jobs-all",
      title: "GET /reports/serviced-jobs",
      kind: "report",
      maxConnections: 2,
      request: get("/api/reports/serviced-jobs"),
      expectStatus: 200,
      check: dataCheck((d) => (typeof d.job_count === "number" && d.job_count > 0 ? undefined : "job_count")),
    },
    {
      id: "report-field-activity-month",
      title: "GET /reports/field-activity (a month)",
      kind: "report",
      oursOnly: true,
      maxConnections: 2,
      request: get(`/api/reports/field-activity?from=${RANGES.knocks.start}&to=${RANGES.knocks.end}`),
      expectStatus: 200,
      check: fieldActivityCheck,
    },
    {
      id: "report-field-activity-all",
      title: "GET /reports/field-activity (the whole tenant)",
      kind: "report",
      oursOnly: true,
      maxConnections: 2,
      request: get(`/api/reports/field-activity?from=${RANGES.all.start}&to=${RANGES.all.end}`),
      expectStatus: 200,
      check: fieldActivityCheck,
    },
    // Writes last: the lists above see the same data on both servers.
    {
      id: "leads-create",
      title: "POST /leads (create)",
      kind: "upsert",
      request: { method: "POST", path: "/api/leads", body: createBody(0) },
      vary: (i) => ({ method: "POST", path: "/api/leads", body: createBody(i) }),
      expectStatus: 201,
      check: (body) =>
        isObject(body) && body.status === "success" && body.message === "Lead created"
          ? undefined
          : "not created",
    },
    {
      id: "leads-update",
      title: "POST /leads (update by id)",
      kind: "upsert",
      request: { method: "POST", path: "/api/leads", body: updateBody(0) },
      vary: (i) => ({ method: "POST", path: "/api/leads", body: updateBody(i) }),
      expectStatus: 200,
      check: (body) =>
        isObject(body) &&
        body.message === "Lead updated" &&
        Array.isArray(body.tags) &&
        body.tags.includes("bench-updated")
          ? undefined
          : "not updated",
    },
    // A knock logged from the street: a new pin, with its visit (E5).
    {
      id: "pin-create",
      title: "POST /pins (a knock)",
      kind: "upsert",
      oursOnly: true,
      request: knock(0),
      vary: knock,
      expectStatus: 201,
      check: (body) =>
        isObject(body) && body.status === "success" && body.message === "Pin created"
          ? undefined
          : "not created",
    },
    // One bulk change of 10,000 leads by id (target: ≤ 2 s), each request the other way: assigned
    // to the sales rep, then unassigned, so every request changes them all.
    {
      id: "leads-bulk-10k",
      title: "POST /leads/bulk (10,000 ids, assign)",
      kind: "other",
      oursOnly: true,
      maxConnections: 1,
      requests: 4,
      request: bulkAssign(0),
      vary: bulkAssign,
      expectStatus: 200,
      check: (body) =>
        isObject(body) && body.status === "success" && body.matched === fx.bulkLeadIds.length
          ? undefined
          : "not all selected",
    },
  ];
}

import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/reports/field-activity/export/route";
import { GET as reportRoute } from "@/app/api/reports/field-activity/route";
import { GET as servicedJobReportRoute } from "@/app/api/reports/serviced-jobs/route";
import { GET as servicePlanReportRoute } from "@/app/api/reports/service-plans/route";
import { pins, pinVisits, pipelineStages, territories } from "@/lib/db/schema";
import {
  FIELD_ACTIVITY_CSV_HEADER,
  fieldActivitySql,
  type CollectedFrom,
} from "@/lib/domain/reports/field-activity";
import { queryReportRows } from "@/lib/domain/reports/sql";
import { territoryArea } from "@/lib/domain/territories/area";
import { importDocument } from "@/lib/import";
import { ID_PREFIX, newId } from "@/lib/ids";
import {
  fieldActivityReportSchema,
  type FieldActivityReport,
  type ServicedJobReportResponse,
  type ServicePlanReportResponse,
} from "@/lib/schemas/reports";
import {
  apiRequest,
  call,
  createApiKey,
  createSessionCookie,
  createTenant,
  createUser,
} from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

const INSIDE: [number, number] = [-97.75, 30.25];
const OUTSIDE: [number, number] = [-97.6, 30.25];
const RANGE = "from=2026-03-01&to=2026-03-31";

/**
 * Knock to cash in March 2026 for reps Ann and Bob and technician Tom, with knocks, leads, plans and
 * payments also placed outside the range, outside the territory and on a quote, so every filter has work.
 */
async function knockToCashTenant() {
  const { companyId, key } = await createTenant(database.db);
  const co = companyId;
  const id = (prefix: keyof typeof ID_PREFIX) => newId(ID_PREFIX[prefix]);
  const [ann, bob, tom] = [id("user"), id("user"), id("user")];
  const [typeA, typeB] = [id("pinType"), id("pinType")];
  const [lead1, lead2, lead3, lead4, lead5] = [id("lead"), id("lead"), id("lead"), id("lead"), id("lead")];
  const [customer1, customer2] = [id("customer"), id("customer")];
  const [plan1, plan2, plan3] = [id("servicePlan"), id("servicePlan"), id("servicePlan")];
  const latLng = ([lng, lat]: [number, number]) => [lat, lng];
  const payment = (amount: number, date: string, extra: Record<string, string> = {}) => ({
    id: id("payment"),
    amount,
    payment_date: date,
    payment_method: "card",
    payment_type: "payment",
    status: "succeeded",
    ...extra,
  });
  const lineItem = (total: number) => [{ id: id("lineItem"), title: "Service", total_price: total }];
  await importDocument(database.db, {
    users: [
      { id: ann, company_id: co, name: "Ann Rep", email: `${ann}@example.test`, role: "sales_rep" },
      { id: bob, company_id: co, name: "Bob Rep", email: `${bob}@example.test`, role: "sales_rep" },
      { id: tom, company_id: co, name: "Tom Tech", email: `${tom}@example.test`, role: "technician" },
    ],
    pin_types: [
      { id: typeA, company_id: co, label: "Not home", color: "#999" },
      { id: typeB, company_id: co, label: "Interested", color: "#0a0" },
    ],
    customers: [
      { id: customer1, company_id: co, first_name: "Cara", phone: "5550100001", location: latLng(INSIDE) },
      { id: customer2, company_id: co, first_name: "Dan", phone: "5550100002", location: latLng(OUTSIDE) },
    ],
    leads: [
      {
        id: lead1,
        company_id: co,
        name: "L1",
        stage: "won",
        created_at: "2026-03-02",
        location: latLng(INSIDE),
      },
      {
        id: lead2,
        company_id: co,
        name: "L2",
        stage: "new",
        assigned_to: ann,
        created_at: "2026-03-03",
        location: latLng(OUTSIDE),
      },
      {
        id: lead3,
        company_id: co,
        name: "L3",
        stage: "new",
        assigned_to: ann,
        created_at: "2026-03-15",
        location: latLng(INSIDE),
      },
      { id: lead4, company_id: co, name: "L4", stage: "won", assigned_to: bob, created_at: "2026-01-10" },
      { id: lead5, company_id: co, name: "L5", stage: "new", assigned_to: bob, created_at: "2026-03-20" },
    ],
    service_plans: [
      {
        id: plan1,
        company_id: co,
        customer_id: customer1,
        sold_by: ann,
        frequency: "Quarterly",
        price_per_visit: 100,
        created_at: "2026-03-05",
      },
      {
        id: plan2,
        company_id: co,
        customer_id: customer2,
        sold_by: bob,
        frequency: "One-Time",
        price_per_visit: 250,
        created_at: "2026-03-10",
      },
      {
        id: plan3,
        company_id: co,
        customer_id: customer2,
        sold_by: tom,
        frequency: "One-Time",
        price_per_visit: 40,
        created_at: "2026-02-01",
      },
    ],
    jobs: [
      {
        id: id("job"),
        company_id: co,
        customer_id: customer1,
        service_plan_id: plan1,
        status: "Completed",
        visits: [{ start: "2026-03-06T15:00:00Z" }],
        line_items: lineItem(100),
        payments: [
          payment(100, "2026-03-06"),
          payment(30, "2026-03-07", { payment_type: "refund" }),
          payment(50, "2026-03-08", { status: "pending" }),
          payment(10, "2026-04-02"),
        ],
      },
      {
        id: id("job"),
        company_id: co,
        customer_id: customer1,
        service_plan_id: plan1,
        status: "Cancelled",
        visits: [{ start: "2026-03-09T15:00:00Z" }],
        line_items: lineItem(100),
        payments: [payment(20, "2026-03-09")],
      },
      {
        id: id("job"),
        company_id: co,
        customer_id: customer2,
        service_plan_id: plan2,
        status: "Completed",
        visits: [{ start: "2026-03-12T15:00:00Z" }],
        line_items: lineItem(250),
        payments: [payment(250, "2026-03-12")],
      },
      {
        id: id("job"),
        company_id: co,
        customer_id: customer2,
        service_plan_id: plan2,
        status: "Scheduled",
        is_quote: true,
        line_items: lineItem(999),
        payments: [payment(999, "2026-03-13")],
      },
      {
        id: id("job"),
        company_id: co,
        customer_id: customer2,
        service_plan_id: plan3,
        status: "Completed",
        visits: [{ start: "2026-02-02T15:00:00Z" }],
        line_items: lineItem(40),
        payments: [payment(40, "2026-03-20")],
      },
    ],
  });
  await database.db.insert(pipelineStages).values([
    { companyId: co, key: "new", label: "New", color: "#2563eb", kind: "open", position: 0 },
    { companyId: co, key: "won", label: "Won", color: "#15803d", kind: "won", position: 1 },
  ]);
  // Lead 1 was converted to customer 1, both ways.
  await database.db.execute(
    sql`update leads set customer_id = ${customer1} where company_id = ${co} and id = ${lead1}`,
  );
  await database.db.execute(
    sql`update customers set lead_id = ${lead1} where company_id = ${co} and id = ${customer1}`,
  );

  const pin = async (by: string, [lng, lat]: [number, number], leadId: string | null) => {
    const pinId = id("pin");
    await database.db.insert(pins).values({
      companyId: co,
      id: pinId,
      pinTypeId: typeA,
      createdBy: by,
      latitude: lat,
      longitude: lng,
      leadId,
    });
    return pinId;
  };
  const [pin1, pin2, pin3, pin4] = [
    await pin(ann, INSIDE, lead1),
    await pin(ann, OUTSIDE, null),
    await pin(bob, INSIDE, lead3),
    await pin(tom, INSIDE, null),
  ];
  const visit = (pinId: string, userId: string, pinTypeId: string, at: string) => ({
    companyId: co,
    pinId,
    userId,
    pinTypeId,
    at: new Date(at),
  });
  await database.db
    .insert(pinVisits)
    .values([
      visit(pin1, ann, typeA, "2026-03-02T15:00:00Z"),
      visit(pin1, ann, typeB, "2026-03-05T15:00:00Z"),
      visit(pin2, ann, typeA, "2026-03-10T15:00:00Z"),
      visit(pin2, ann, typeA, "2026-02-20T15:00:00Z"),
      visit(pin3, bob, typeB, "2026-03-15T15:00:00Z"),
      visit(pin4, tom, typeA, "2026-04-01T15:00:00Z"),
    ]);
  const territoryId = id("territory");
  const ring: [number, number][] = [
    [-97.8, 30.2],
    [-97.7, 30.2],
    [-97.7, 30.3],
    [-97.8, 30.3],
  ];
  await database.db.insert(territories).values({
    companyId: co,
    id: territoryId,
    name: "Square",
    color: "#123456",
    polygon: { type: "Polygon", coordinates: [[...ring, ring[0]!]] },
    area: `(${ring.map(([lng, lat]) => `(${lng},${lat})`).join(",")})`,
  });
  return { companyId, key, ann, bob, tom, typeA, typeB, territoryId };
}

const report = async (key: string, query: string) => {
  const res = await call<FieldActivityReport & { error_code?: string; message?: string }>(
    reportRoute,
    apiRequest(`/reports/field-activity?${query}`, { key }),
  );
  if (res.status === 200) fieldActivityReportSchema.parse(res.body);
  return res;
};

const user = (id: string, name: string) => ({ user_id: id, name, email: `${id}@example.test` });

describe(`GET /reports/field-activity (${testEngine()})`, () => {
  it("counts each user's knocks, leads, won, customers, sale value and money collected in the range", async () => {
    const t = await knockToCashTenant();
    const res = await report(t.key, RANGE);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        user: user(t.bob, "Bob Rep"),
        knocks: 1,
        knocks_by_pin_type: { [t.typeB]: 1 },
        leads: 2,
        won: 0,
        customers: 0,
        sale_value: 250,
        collected: 250,
      },
      {
        user: user(t.ann, "Ann Rep"),
        knocks: 3,
        knocks_by_pin_type: { [t.typeA]: 2, [t.typeB]: 1 },
        leads: 2,
        won: 1,
        customers: 1,
        // Quarterly at 100: the non-cancelled job's 100 and 3 visits without a job.
        sale_value: 400,
        // 100 − 30 refunded + 20 on the cancelled job; the pending 50 and April's 10 left out.
        collected: 90,
      },
      {
        user: user(t.tom, "Tom Tech"),
        knocks: 0,
        knocks_by_pin_type: {},
        leads: 0,
        won: 0,
        customers: 0,
        sale_value: 0,
        collected: 40,
      },
    ]);
    // Lead 3 is Ann's (assigned) and on Bob's pin: credited to Bob alone, so the rows add up to the totals.
    expect(res.body.totals).toEqual({
      knocks: 4,
      knocks_by_pin_type: { [t.typeA]: 2, [t.typeB]: 2 },
      leads: 4,
      won: 1,
      customers: 1,
      sale_value: 650,
      collected: 380,
    });
    // The funnel's conversions, from those totals: the page shows them as they are.
    expect(res.body.conversion).toEqual({ leads: 1, won: 0.25, customers: 1, collected: 380 / 650 });
    const none = await report(t.key, "from=2020-01-01&to=2020-01-31");
    expect(none.body.conversion).toEqual({ leads: null, won: null, customers: null, collected: null });
  });

  it("credits each lead once: to the creator of its first pin, else to its owner", async () => {
    const t = await knockToCashTenant();
    const co = t.companyId;
    const leadNumbers = (body: FieldActivityReport) =>
      Object.fromEntries(body.data.map((row) => [row.user.user_id, [row.leads, row.won, row.customers]]));
    const addsUp = (body: FieldActivityReport) =>
      expect(
        ["leads", "won", "customers"].map((k) =>
          body.data.reduce((n, row) => n + row[k as "leads" | "won" | "customers"], 0),
        ),
      ).toEqual([body.totals.leads, body.totals.won, body.totals.customers]);
    // Lead 1 (won, converted) is made Ann's own and then linked to a pin of Tom's dropped before
    // hers: Tom's, once, and no longer Ann's too.
    await database.db.execute(
      sql`update leads set assigned_to = ${t.ann} where company_id = ${co} and name = 'L1'`,
    );
    const [lead1] = (
      await database.db.execute<{ id: string }>(
        sql`select id from leads where company_id = ${co} and name = 'L1'`,
      )
    ).rows;
    await database.db.insert(pins).values({
      companyId: co,
      id: newId(ID_PREFIX.pin),
      pinTypeId: t.typeA,
      createdBy: t.tom,
      latitude: INSIDE[1],
      longitude: INSIDE[0],
      leadId: lead1!.id,
      createdAt: new Date("2020-01-01T00:00:00Z"),
    });
    const res = await report(t.key, RANGE);
    expect(leadNumbers(res.body)).toEqual({
      [t.ann]: [1, 0, 0],
      [t.bob]: [2, 0, 0],
      [t.tom]: [1, 1, 1],
    });
    expect(res.body.totals).toMatchObject({ leads: 4, won: 1, customers: 1 });
    addsUp(res.body);
    const csv = await exportRoute(apiRequest(`/reports/field-activity/export?${RANGE}`, { key: t.key }), {
      params: Promise.resolve({}),
    });
    const tomLine = (await csv.text()).split("\r\n").find((line) => line.startsWith(`"${t.tom}"`));
    const leadsAt = FIELD_ACTIVITY_CSV_HEADER.indexOf("leads");
    expect(tomLine?.split(",").slice(leadsAt, leadsAt + 3)).toEqual(["1", "1", "1"]);
  });

  it("keeps to a territory: knocks at pins, leads and customers inside it", async () => {
    const t = await knockToCashTenant();
    const res = await report(t.key, `${RANGE}&territory_id=${t.territoryId}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        user: user(t.ann, "Ann Rep"),
        knocks: 2,
        knocks_by_pin_type: { [t.typeA]: 1, [t.typeB]: 1 },
        leads: 1,
        won: 1,
        customers: 1,
        sale_value: 400,
        collected: 90,
      },
      {
        user: user(t.bob, "Bob Rep"),
        knocks: 1,
        knocks_by_pin_type: { [t.typeB]: 1 },
        leads: 1,
        won: 0,
        customers: 0,
        sale_value: 0,
        collected: 0,
      },
    ]);
    expect(res.body.totals).toMatchObject({
      knocks: 3,
      leads: 2,
      won: 1,
      customers: 1,
      sale_value: 400,
      collected: 90,
    });
    const unknown = await report(t.key, `${RANGE}&territory_id=ter_unknown`);
    expect([unknown.status, unknown.body.message]).toEqual([404, "Territory not found"]);
    // Another company's territory is unknown too.
    const other = await knockToCashTenant();
    const foreign = await report(t.key, `territory_id=${other.territoryId}`);
    expect(foreign.status).toBe(404);
  });

  it("adds up to the plan and job reports over the same data", async () => {
    const t = await knockToCashTenant();
    const planReport = async (query: string) =>
      (
        await call<ServicePlanReportResponse>(
          servicePlanReportRoute,
          apiRequest(`/reports/service-plans?${query}`, { key: t.key }),
        )
      ).body.data;
    const jobReport = async (query: string) =>
      (
        await call<ServicedJobReportResponse>(
          servicedJobReportRoute,
          apiRequest(`/reports/serviced-jobs?${query}`, { key: t.key }),
        )
      ).body.data;
    const bySeller = (plans: ServicePlanReportResponse["data"]) =>
      Object.fromEntries(plans.by_sales_rep.map((rep) => [rep.sold_by.user_id, rep]));

    // Sale value: the plans created in the range, per seller and in all.
    const inRange = await report(t.key, RANGE);
    const plansInRange = await planReport(
      "created_at_range_start=2026-03-01&created_at_range_end=2026-03-31",
    );
    expect(inRange.body.totals.sale_value).toBe(plansInRange.sale_value);
    for (const row of inRange.body.data) {
      expect(row.sale_value).toBe(bySeller(plansInRange)[row.user.user_id]?.sale_value ?? 0);
    }

    // Over the whole tenant: every plan's sale value, and every payment, as the job report nets them.
    const everything = await report(t.key, "");
    const allPlans = await planReport("");
    const allJobs = await jobReport("only_completed=false");
    expect(everything.body.totals.sale_value).toBe(allPlans.sale_value);
    expect(everything.body.totals.collected).toBe(allJobs.total_received);
    expect(everything.body.totals.collected).toBe(allPlans.total_received);
    for (const row of everything.body.data) {
      const seller = bySeller(allPlans)[row.user.user_id];
      expect([row.sale_value, row.collected]).toEqual([seller?.sale_value ?? 0, seller?.total_received ?? 0]);
    }
    // With April's 10 now in, and February's knock and January's lead too.
    expect(everything.body.totals).toMatchObject({ knocks: 6, leads: 5, won: 2, collected: 390 });
  });

  it("reads the money collected from the payments and from the plans' totals alike", async () => {
    const t = await knockToCashTenant();
    const co = t.companyId;
    // A payment without a date, and an archived job whose payment no longer counts.
    await database.db.execute(sql`insert into job_payments
      (company_id, id, job_id, amount, payment_date, payment_method, payment_type, status)
      select company_id, ${newId(ID_PREFIX.payment)}, id, 7, null, 'cash', 'payment', 'succeeded'
      from jobs where company_id = ${co} and status = 'Completed' and line_items_total = 100`);
    await database.db.execute(
      sql`update jobs set archived = true where company_id = ${co} and line_items_total = 250`,
    );
    const area = await territoryArea({ db: database.db, companyId: co }, t.territoryId);
    const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`);
    const cases: [string, { from?: Date; to?: Date }, string | undefined][] = [
      ["March", { from: day("2026-03-01"), to: day("2026-04-01") }, undefined],
      ["March, in the territory", { from: day("2026-03-01"), to: day("2026-04-01") }, area],
      ["from March 7", { from: day("2026-03-07") }, undefined],
      ["until March 8", { to: day("2026-03-08") }, undefined],
      ["everything", {}, undefined],
      ["everything, in the territory", {}, area],
    ];
    const collected = async (
      bounds: { from?: Date; to?: Date },
      inside: string | undefined,
      from: CollectedFrom,
    ) =>
      Object.fromEntries(
        (
          await queryReportRows<{ user_id: string | null; collected: number | null }>(
            database.db,
            fieldActivitySql(co, bounds, inside, ["won"], from),
          )
        )
          .filter((row) => row.user_id !== null && row.collected !== null)
          .map((row) => [row.user_id, Number(row.collected)]),
      );
    for (const [name, bounds, inside] of cases) {
      const byPayments = await collected(bounds, inside, "payments");
      expect(await collected(bounds, inside, "plan-totals"), name).toEqual(byPayments);
    }
    // The cases are not empty: the undated 7 counts only without bounds, Bob's archived job never,
    // and a user whose money nets to nothing (Ann from March 7: −30 + 20 + 10) has no row for it.
    expect(await collected({}, undefined, "payments")).toEqual({ [t.ann]: 107, [t.tom]: 40 });
    expect(await collected({ to: day("2026-03-08") }, undefined, "payments")).toEqual({ [t.ann]: 70 });
    expect(await collected({ from: day("2026-03-07") }, undefined, "payments")).toEqual({ [t.tom]: 40 });
  });

  it("counts won leads by the default pipeline when the company has not stored one", async () => {
    const t = await knockToCashTenant();
    const stored = await report(t.key, RANGE);
    await database.db.execute(sql`delete from pipeline_stages where company_id = ${t.companyId}`);
    const byDefault = await report(t.key, RANGE);
    // The stored pipeline's won stage is the default's ("won"): the same numbers either way.
    expect(byDefault.body.totals.won).toBe(1);
    expect(byDefault.body).toEqual(stored.body);
  });

  const exportCsv = async (key: string, query = RANGE) => {
    const res = await exportRoute(apiRequest(`/reports/field-activity/export?${query}`, { key }), {
      params: Promise.resolve({}),
    });
    return { res, lines: (await res.text()).split("\r\n") };
  };

  it("exports the report as CSV, a column per pin type in the settings' order", async () => {
    const t = await knockToCashTenant();
    // The settings put "Not home" before "Interested", against their labels' order.
    await database.db.execute(sql`update pin_types set position = case when id = ${t.typeA} then 0 else 1 end
      where company_id = ${t.companyId}`);
    const { res, lines } = await exportCsv(t.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="field-activity-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    // Every text cell quoted; the knocks of each outcome in its own column, headed by its label.
    expect(lines.at(-1)).toBe("");
    expect(lines.slice(0, -1)).toEqual([
      [...FIELD_ACTIVITY_CSV_HEADER, "Not home", "Interested"].map((name) => `"${name}"`).join(","),
      `"${t.bob}","Bob Rep","${t.bob}@example.test",1,2,0,0,250.00,250.00,0,1`,
      `"${t.ann}","Ann Rep","${t.ann}@example.test",3,2,1,1,400.00,90.00,2,1`,
      `"${t.tom}","Tom Tech","${t.tom}@example.test",0,0,0,0,0.00,40.00,0,0`,
      `"","Total","",4,4,1,1,650.00,380.00,2,2`,
    ]);
    // A range without knocks: the fixed columns only, as the screen shows no outcome.
    const quiet = await exportCsv(t.key, "from=2030-01-01");
    expect(quiet.lines[0]).toBe(FIELD_ACTIVITY_CSV_HEADER.map((name) => `"${name}"`).join(","));
  });

  it("heads pin type columns uniquely and neutralised, through the CSV writer", async () => {
    const t = await knockToCashTenant();
    // A label equal to a fixed column, and one a spreadsheet would run as a formula.
    await database.db.execute(sql`update pin_types set label = 'won' where id = ${t.typeA}`);
    await database.db.execute(sql`update pin_types set label = '=HYPERLINK("x")' where id = ${t.typeB}`);
    const { lines } = await exportCsv(t.key);
    const header = [
      ...FIELD_ACTIVITY_CSV_HEADER.map((name) => `"${name}"`),
      `"'=HYPERLINK(""x"")"`,
      '"won (2)"',
    ];
    expect(lines[0]).toBe(header.join(","));
    const total = lines.find((line) => line.startsWith('"","Total"'));
    expect(total?.split(",").slice(-2)).toEqual(["2", "2"]);
  });

  it("refuses a backwards range, and answers managers and admins but not reps", async () => {
    const t = await knockToCashTenant();
    const backwards = await report(t.key, "from=2026-03-02&to=2026-03-01");
    expect([backwards.status, backwards.body.error_code]).toEqual([400, "VALIDATION_ERROR"]);
    const empty = await report(t.key, "from=2030-01-01");
    expect([empty.status, empty.body.data, empty.body.totals.knocks]).toEqual([200, [], 0]);
    for (const [role, status] of [
      ["admin", 200],
      ["manager", 200],
      ["sales_rep", 403],
      ["technician", 403],
    ] as const) {
      const member = await createUser(database.db, t.companyId, { role });
      const cookie = await createSessionCookie(database.db, member);
      const res = await call(reportRoute, apiRequest(`/reports/field-activity?${RANGE}`, { cookie }));
      expect(res.status, role).toBe(status);
    }
    const pinsOnly = await createApiKey(database.db, t.companyId, { scopes: ["pins:read"] });
    const refused = await call<{ error_code: string }>(
      reportRoute,
      apiRequest(`/reports/field-activity`, { key: pinsOnly.key }),
    );
    expect([refused.status, refused.body.error_code]).toEqual([403, "INSUFFICIENT_SCOPE"]);
  });
});

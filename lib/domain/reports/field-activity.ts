import { sql, type SQL } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { loadPipeline } from "@/lib/domain/pipeline/pipeline";
import { planNumbersSql } from "@/lib/domain/service-plans/numbers";
import { listableJob } from "@/lib/domain/serviced-jobs/money";
import { insideArea, territoryArea } from "@/lib/domain/territories/area";
import { cents } from "@/lib/schemas/common";
import type {
  FieldActivityReport,
  FieldActivityRow,
  GetFieldActivityReportQuery,
} from "@/lib/schemas/reports";
import { csvLine, csvMoney, datedFilename, type CsvCell, type CsvExport } from "./csv";
import { allOf, queryReportRows, timestampParam, toNumber } from "./sql";

/*
 * GET /reports/field-activity (extensions.md E7): from knock to cash, per user. One statement
 * aggregates each source once, grouped by user (never a query per user):
 * - knocks: pin_visits in the range, read by pin_visits_at_idx (company, at, user, pin type);
 * - leads: the leads created in the range that are assigned to a user or made from a user's pin
 *   (pins.lead_id, pins.created_by), each (lead, user) once; won: now in a stage of kind won;
 *   customers: the distinct leads.customer_id of those leads. The (lead, user) pairs are kept
 *   apart without a DISTINCT over all of them (an assigned lead is one row; a pin adds a row only
 *   for another user), so the counts per user hash instead of sorting a tenant's leads; the
 *   totals count each lead once: its assigned row, else one row of its pins.
 * - sale_value: the plans sold (sold_by) created in the range, by the plan numbers of the plan
 *   report (lib/domain/service-plans/numbers.ts);
 * - collected: succeeded payments minus succeeded refunds dated in the range (read by
 *   job_payments_date_idx), on the listable jobs of the plans a user sold (the job money rule of
 *   lib/domain/serviced-jobs/money.ts).
 * With a territory: knocks at pins inside it, leads whose location is inside it, and the plans and
 * payments of customers whose property location is inside it.
 */

interface Bounds {
  from?: Date;
  to?: Date;
}

const inRange = (column: SQL, { from, to }: Bounds): SQL =>
  allOf([from && sql`${column} >= ${timestampParam(from)}`, to && sql`${column} <= ${timestampParam(to)}`]);

interface UserRow extends Record<string, unknown> {
  user_id: string | null;
  name: string | null;
  email: string | null;
  knocks: number | string | null;
  knocks_by_pin_type: Record<string, number | string> | string | null;
  leads: number | string | null;
  won: number | string | null;
  customers: number | string | null;
  sale_value: number | string | null;
  collected: number | string | null;
}

/** The report's one statement (exported for the plan checks of the benchmark tools). */
export function fieldActivitySql(
  companyId: string,
  bounds: Bounds,
  area: string | undefined,
  wonStages: readonly string[],
): SQL {
  const pinsInside = area
    ? sql`and v.pin_id in (select p.id from pins p where p.company_id = ${companyId} and ${insideArea("p", area)})`
    : sql``;
  const leadInside = area ? sql`and ${insideArea("l", area)}` : sql``;
  const isWon =
    wonStages.length > 0
      ? sql`c.stage in (${sql.join(
          wonStages.map((key) => sql`${key}`),
          sql`, `,
        )})`
      : sql`false`;
  const customerInside = area
    ? sql`and sp.customer_id in (select c.id from customers c where c.company_id = ${companyId} and ${insideArea("c", area)})`
    : sql``;
  return sql`with
    knocks_by_type as (
      select v.user_id, v.pin_type_id, count(*) as n
      from pin_visits v
      where v.company_id = ${companyId} and ${inRange(sql`v.at`, bounds)} ${pinsInside}
      group by v.user_id, v.pin_type_id
    ),
    knocks as (
      select k.user_id, sum(k.n) as knocks, json_object_agg(k.pin_type_id, k.n)::text as knocks_by_pin_type
      from knocks_by_type k group by k.user_id
    ),
    credited as (
      select l.id, l.stage, l.customer_id, l.assigned_to as user_id, false as via_pin, true as lead_assigned
      from leads l
      where l.company_id = ${companyId} and l.assigned_to is not null
        and ${inRange(sql`l.created_at`, bounds)} ${leadInside}
      union all
      select distinct l.id, l.stage, l.customer_id, p.created_by, true, l.assigned_to is not null
      from pins p
      join leads l on l.company_id = p.company_id and l.id = p.lead_id
      where p.company_id = ${companyId} and p.lead_id is not null
        and l.assigned_to is distinct from p.created_by
        and ${inRange(sql`l.created_at`, bounds)} ${leadInside}
    ),
    lead_numbers as (
      select c.user_id, count(*) as leads, count(*) filter (where ${isWon}) as won
      from credited c
      group by c.user_id
    ),
    customer_numbers as (
      select d.user_id, count(*) as customers
      from (select distinct c.user_id, c.customer_id from credited c where c.customer_id is not null) d
      group by d.user_id
    ),
    lead_totals as (
      select count(*) as leads, count(*) filter (where ${isWon}) as won,
        count(distinct c.customer_id) filter (where c.customer_id is not null) as customers
      from (
        select c.id, c.stage, c.customer_id from credited c where not c.via_pin
        union all
        select distinct c.id, c.stage, c.customer_id from credited c where c.via_pin and not c.lead_assigned
      ) c
    ),
    sales as (
      select sp.sold_by as user_id, sum(sp.sale_value) as sale_value
      from (
        select sp.sold_by, ${planNumbersSql("sp")}
        from service_plans sp
        where sp.company_id = ${companyId} and sp.sold_by is not null
          and ${inRange(sql`sp.created_at`, bounds)} ${customerInside}
      ) sp
      group by sp.sold_by
    ),
    collected as (
      select sp.sold_by as user_id,
        sum(case when pay.payment_type = 'refund' then -pay.amount else pay.amount end) as collected
      from job_payments pay
      join jobs j on j.company_id = pay.company_id and j.id = pay.job_id and ${listableJob("j")}
      join service_plans sp on sp.company_id = j.company_id and sp.id = j.service_plan_id
      where pay.company_id = ${companyId} and pay.status = 'succeeded' and sp.sold_by is not null
        and ${inRange(sql`pay.payment_date`, bounds)} ${customerInside}
      group by sp.sold_by
    ),
    active_users as (
      select user_id from knocks
      union select user_id from lead_numbers
      union select user_id from sales
      union select user_id from collected
    )
    select a.user_id, u.name, u.email, k.knocks, k.knocks_by_pin_type,
      ln.leads, ln.won, cn.customers, s.sale_value::float8 as sale_value, c.collected::float8 as collected
    from active_users a
    left join users u on u.company_id = ${companyId} and u.id = a.user_id
    left join knocks k on k.user_id = a.user_id
    left join lead_numbers ln on ln.user_id = a.user_id
    left join customer_numbers cn on cn.user_id = a.user_id
    left join sales s on s.user_id = a.user_id
    left join collected c on c.user_id = a.user_id
    union all
    select null, null, null, null, null, t.leads, t.won, t.customers, null, null
    from lead_totals t`;
}

/** Knocks per pin type, by pin type id (a stable order for the JSON and the CSV). */
const byPinTypeId = (entries: [string, number][]): Record<string, number> =>
  Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

const countsOf = (value: UserRow["knocks_by_pin_type"]): Record<string, number> => {
  const parsed = typeof value === "string" ? (JSON.parse(value) as Record<string, number | string>) : value;
  return byPinTypeId(Object.entries(parsed ?? {}).map(([type, n]) => [type, toNumber(n)]));
};

/** Leaderboard order: collected, then sale value, highest first; then name and id. */
const byCollected = (a: FieldActivityRow, b: FieldActivityRow) =>
  b.collected - a.collected ||
  b.sale_value - a.sale_value ||
  b.knocks - a.knocks ||
  (a.user.name < b.user.name ? -1 : a.user.name > b.user.name ? 1 : 0) ||
  (a.user.user_id < b.user.user_id ? -1 : 1);

/** GET /reports/field-activity: the statement's rows as the report. */
export async function getFieldActivityReport({
  ctx,
  input,
}: {
  ctx: Pick<DomainContext, "db" | "companyId">;
  input: GetFieldActivityReportQuery;
}): Promise<FieldActivityReport> {
  const area = input.territory_id === undefined ? undefined : await territoryArea(ctx, input.territory_id);
  // The company's pipeline as everywhere else: the stored stages, or the default ones when none
  // are stored (reading pipeline_stages alone counted nothing as won for such a company).
  const wonStages = (await loadPipeline(ctx.db, ctx.companyId))
    .filter((stage) => stage.kind === "won")
    .map((stage) => stage.key);
  const rows = await queryReportRows<UserRow>(
    ctx.db,
    fieldActivitySql(ctx.companyId, { from: input.from, to: input.to }, area, wonStages),
  );
  const everyone = rows.find((row) => row.user_id === null);
  const data = rows
    .filter((row) => row.user_id !== null)
    .map((row): FieldActivityRow => ({
      user: { user_id: row.user_id!, name: row.name ?? "", email: row.email ?? "" },
      knocks: toNumber(row.knocks),
      knocks_by_pin_type: countsOf(row.knocks_by_pin_type),
      leads: toNumber(row.leads),
      won: toNumber(row.won),
      customers: toNumber(row.customers),
      sale_value: cents(toNumber(row.sale_value)),
      collected: cents(toNumber(row.collected)),
    }))
    .sort(byCollected);
  const byPinType: Record<string, number> = {};
  for (const row of data) {
    for (const [type, n] of Object.entries(row.knocks_by_pin_type))
      byPinType[type] = (byPinType[type] ?? 0) + n;
  }
  const sum = (pick: (row: FieldActivityRow) => number) => data.reduce((total, row) => total + pick(row), 0);
  return {
    status: "success",
    data,
    totals: {
      knocks: sum((row) => row.knocks),
      knocks_by_pin_type: byPinTypeId(Object.entries(byPinType)),
      leads: toNumber(everyone?.leads),
      won: toNumber(everyone?.won),
      customers: toNumber(everyone?.customers),
      sale_value: cents(sum((row) => row.sale_value)),
      collected: cents(sum((row) => row.collected)),
    },
  };
}

/** The CSV export's columns: the report's numbers, knocks per pin type as one JSON object. */
export const FIELD_ACTIVITY_CSV_HEADER = [
  "user_id",
  "name",
  "email",
  "knocks",
  "knocks_by_pin_type",
  "leads",
  "won",
  "customers",
  "sale_value",
  "collected",
] as const;

/**
 * GET /reports/field-activity/export: the report as CSV, a row per user in the report's order and
 * a last row "Total" (no user id or email) with its totals. A user per row, so it is written at once.
 */
export async function exportFieldActivityCsv({
  ctx,
  input,
}: {
  ctx: Pick<DomainContext, "db" | "companyId">;
  input: GetFieldActivityReportQuery;
}): Promise<CsvExport> {
  const report = await getFieldActivityReport({ ctx, input });
  const cells = (user: FieldActivityRow["user"], numbers: FieldActivityReport["totals"]): CsvCell[] => [
    user.user_id,
    user.name,
    user.email,
    numbers.knocks,
    JSON.stringify(numbers.knocks_by_pin_type),
    numbers.leads,
    numbers.won,
    numbers.customers,
    csvMoney(numbers.sale_value),
    csvMoney(numbers.collected),
  ];
  const text = [
    csvLine(FIELD_ACTIVITY_CSV_HEADER),
    ...report.data.map((row) => csvLine(cells(row.user, row))),
    csvLine(cells({ user_id: "", name: "Total", email: "" }, report.totals)),
  ].join("");
  const bytes = new TextEncoder().encode(text);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return { filename: datedFilename("field-activity"), stream };
}

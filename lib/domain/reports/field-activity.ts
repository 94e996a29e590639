import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DomainContext } from "@/lib/domain/context";
import { loadPipeline } from "@/lib/domain/pipeline/pipeline";
import { planNumbersSql } from "@/lib/domain/service-plans/numbers";
import { listableJob } from "@/lib/domain/serviced-jobs/money";
import { loadPinTypesInOrder } from "@/lib/domain/pin-types/list";
import { insideArea, territoryArea } from "@/lib/domain/territories/area";
import { cents } from "@/lib/schemas/common";
import type {
  FieldActivityReport,
  FieldActivityRow,
  GetFieldActivityReportQuery,
} from "@/lib/schemas/reports";
import { csvMoney, csvOfRows, datedFilename, type CsvCell, type CsvExport } from "./csv";
import { allOf, queryReportRows, timestampParam, toNumber } from "./sql";

// GET /reports/field-activity (extensions.md E7): knock to cash per user, each source aggregated
// once in one statement, never a query per user; a territory narrows every source by location.

interface Bounds {
  from?: Date;
  to?: Date;
}

const inRange = (column: SQL, { from, to }: Bounds): SQL =>
  allOf([from && sql`${column} >= ${timestampParam(from)}`, to && sql`${column} <= ${timestampParam(to)}`]);

/** Dates outside the range; a payment without a date is outside any bounded range. */
const outsideRange = (column: SQL, { from, to }: Bounds): SQL => {
  const beyond = [
    from && sql`${column} < ${timestampParam(from)}`,
    to && sql`${column} > ${timestampParam(to)}`,
  ];
  const present = beyond.filter((c): c is SQL => Boolean(c));
  return present.length === 0 ? sql`false` : sql`(${column} is null or ${sql.join(present, sql` or `)})`;
};

/**
 * Collected money comes from the range's payments, or from the plans' kept totals less payments
 * outside the range: same sums, and the second reads far fewer when the range holds most of them.
 */
export type CollectedFrom = "payments" | "plan-totals";

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

/**
 * The report's one statement (exported for the plan checks of the benchmark tools). Each lead is
 * credited once (E7): to the creator of its first pin, else to its owner, so a link cannot copy
 * another user's lead, win and customer into a second row.
 */
export function fieldActivitySql(
  companyId: string,
  bounds: Bounds,
  area: string | undefined,
  wonStages: readonly string[],
  collectedFrom: CollectedFrom,
): SQL {
  const pinsInside = area
    ? sql`and v.pin_id in (select p.id from pins p where p.company_id = ${companyId} and ${insideArea("p", area)})`
    : sql``;
  const leadInside = area ? sql`and ${insideArea("l", area)}` : sql``;
  const isWon =
    wonStages.length > 0
      ? sql`l.stage in (${sql.join(
          wonStages.map((key) => sql`${key}`),
          sql`, `,
        )})`
      : sql`false`;
  const customerInside = area
    ? sql`and sp.customer_id in (select c.id from customers c where c.company_id = ${companyId} and ${insideArea("c", area)})`
    : sql``;
  const signedAmount = sql`case when pay.payment_type = 'refund' then -pay.amount else pay.amount end`;
  // Each payment looks up its job and its plan by key (LATERAL … LIMIT 1 is never flattened into
  // a join): a month's payments otherwise make the planner hash the tenant's million jobs.
  const soldPayments = (dated: SQL) => sql`
    from job_payments pay
    cross join lateral (
      select j.service_plan_id from jobs j
      where j.company_id = pay.company_id and j.id = pay.job_id and ${listableJob("j")}
      limit 1
    ) j
    cross join lateral (
      select sp.sold_by, sp.customer_id from service_plans sp
      where sp.company_id = pay.company_id and sp.id = j.service_plan_id
      limit 1
    ) sp
    where pay.company_id = ${companyId} and pay.status = 'succeeded' and sp.sold_by is not null
      and ${dated} ${customerInside}`;
  const collectedMoney =
    collectedFrom === "payments"
      ? sql`select sp.sold_by as user_id, ${signedAmount} as amount ${soldPayments(inRange(sql`pay.payment_date`, bounds))}`
      : sql`select sp.sold_by as user_id, sp.jobs_received as amount
          from service_plans sp
          where sp.company_id = ${companyId} and sp.sold_by is not null ${customerInside}
          union all
          select sp.sold_by, -(${signedAmount}) ${soldPayments(outsideRange(sql`pay.payment_date`, bounds))}`;
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
    first_pins as (
      select distinct on (p.lead_id) p.lead_id, p.created_by
      from pins p
      join leads l on l.company_id = p.company_id and l.id = p.lead_id
      where p.company_id = ${companyId} and p.lead_id is not null
        and ${inRange(sql`l.created_at`, bounds)} ${leadInside}
      order by p.lead_id, p.created_at, p.id
    ),
    credited as (
      select coalesce(fp.created_by, l.assigned_to) as user_id, l.customer_id, ${isWon} as won
      from leads l
      left join first_pins fp on fp.lead_id = l.id
      where l.company_id = ${companyId} and ${inRange(sql`l.created_at`, bounds)} ${leadInside}
        and (fp.created_by is not null or l.assigned_to is not null)
    ),
    lead_numbers as (
      select c.user_id, count(*) as leads, count(*) filter (where c.won) as won,
        count(c.customer_id) as customers
      from credited c
      group by c.user_id
    ),
    lead_totals as (
      select count(*) as leads, count(*) filter (where c.won) as won,
        count(distinct c.customer_id) as customers
      from credited c
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
      select m.user_id, sum(m.amount) as collected
      from (${collectedMoney}) m
      group by m.user_id
      having sum(m.amount) <> 0
    ),
    active_users as (
      select user_id from knocks
      union select user_id from lead_numbers
      union select user_id from sales
      union select user_id from collected
    )
    select a.user_id, u.name, u.email, k.knocks, k.knocks_by_pin_type,
      ln.leads, ln.won, ln.customers, s.sale_value::float8 as sale_value, c.collected::float8 as collected
    from active_users a
    left join users u on u.company_id = ${companyId} and u.id = a.user_id
    left join knocks k on k.user_id = a.user_id
    left join lead_numbers ln on ln.user_id = a.user_id
    left join sales s on s.user_id = a.user_id
    left join collected c on c.user_id = a.user_id
    union all
    select null, null, null, null, null, t.leads, t.won, t.customers, null, null
    from lead_totals t`;
}

/** Payments counted at most on each side of the range to choose: a month against a tenant's years. */
const SOURCE_PROBE = 20_000;

/** The cheaper source of the money collected: the side of the range with fewer payments. */
async function collectedSource(
  { db, companyId }: Pick<DomainContext, "db" | "companyId">,
  bounds: Bounds,
): Promise<CollectedFrom> {
  if (!bounds.from && !bounds.to) return "plan-totals";
  const probe = (dated: SQL) =>
    sql`(select count(*) from (
      select 1 from job_payments pay where pay.company_id = ${companyId} and ${dated} limit ${SOURCE_PROBE}
    ) x)`;
  const { rows } = await db.execute<{ inside: unknown; outside: unknown }>(
    sql`select ${probe(inRange(sql`pay.payment_date`, bounds))} as inside,
      ${probe(outsideRange(sql`pay.payment_date`, bounds))} as outside`,
  );
  const [row] = rows;
  return toNumber(row?.outside) < toNumber(row?.inside) ? "plan-totals" : "payments";
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
  const bounds = { from: input.from, to: input.to };
  const rows = await queryReportRows<UserRow>(
    ctx.db,
    fieldActivitySql(ctx.companyId, bounds, area, wonStages, await collectedSource(ctx, bounds)),
    // Every part of the statement ends in a small aggregate read once: parallel workers would add
    // their start and gather to each part, and take the cores that concurrent requests need.
    { parallel: false },
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
  const totals: FieldActivityReport["totals"] = {
    knocks: sum((row) => row.knocks),
    knocks_by_pin_type: byPinTypeId(Object.entries(byPinType)),
    leads: toNumber(everyone?.leads),
    won: toNumber(everyone?.won),
    customers: toNumber(everyone?.customers),
    sale_value: cents(sum((row) => row.sale_value)),
    collected: cents(sum((row) => row.collected)),
  };
  return { status: "success", data, totals, conversion: funnelConversion(totals) };
}

/** Each step of the funnel over the one before it; none after an empty step. */
export function funnelConversion(totals: FieldActivityReport["totals"]): FieldActivityReport["conversion"] {
  const over = (value: number, previous: number) => (previous > 0 ? value / previous : null);
  return {
    leads: over(totals.leads, totals.knocks),
    won: over(totals.won, totals.leads),
    customers: over(totals.customers, totals.won),
    collected: over(totals.collected, totals.sale_value),
  };
}

/** The CSV export's fixed columns; one column per pin type knocked follows them. */
export const FIELD_ACTIVITY_CSV_HEADER = [
  "user_id",
  "name",
  "email",
  "knocks",
  "leads",
  "won",
  "customers",
  "sale_value",
  "collected",
] as const;

/** What follows the fixed columns, for the route's docs (the columns depend on the range). */
export const FIELD_ACTIVITY_CSV_MORE_COLUMNS =
  "then one column per pin type knocked in the range, headed by its label, in the company's pin type " +
  "order (as the report's screen); a label already used gets ` (2)`, ` (3)`…";

interface PinTypeColumn {
  id: string;
  header: string;
}

/**
 * The pin type columns, as the screen shows them: the types knocked in the range, in the settings'
 * order (a knocked type cannot be removed). Headers are unique so that a spreadsheet can key on them.
 */
function pinTypeColumns(
  pinTypes: readonly { id: string; label: string }[],
  knocked: Record<string, number>,
): PinTypeColumn[] {
  const used = new Set<string>(FIELD_ACTIVITY_CSV_HEADER);
  return pinTypes
    .filter((type) => (knocked[type.id] ?? 0) > 0)
    .map(({ id, label }) => {
      let header = label;
      for (let n = 2; used.has(header); n++) header = `${label} (${n})`;
      used.add(header);
      return { id, header };
    });
}

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
  const columns = pinTypeColumns(
    await loadPinTypesInOrder(ctx.db, ctx.companyId),
    report.totals.knocks_by_pin_type,
  );
  const cells = (user: FieldActivityRow["user"], numbers: FieldActivityReport["totals"]): CsvCell[] => [
    user.user_id,
    user.name,
    user.email,
    numbers.knocks,
    numbers.leads,
    numbers.won,
    numbers.customers,
    csvMoney(numbers.sale_value),
    csvMoney(numbers.collected),
    ...columns.map((column) => numbers.knocks_by_pin_type[column.id] ?? 0),
  ];
  return csvOfRows(
    datedFilename("field-activity"),
    [...FIELD_ACTIVITY_CSV_HEADER, ...columns.map((column) => column.header)],
    [
      ...report.data.map((row) => cells(row.user, row)),
      cells({ user_id: "", name: "Total", email: "" }, report.totals),
    ],
  );
}

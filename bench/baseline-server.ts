// The bench baseline: node:http and the driver replaying our captured statements with hand-built
// JSON, so the comparison measures Next.js, the request pipeline and Drizzle (checked by baseline.test.ts).
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { CapturedStatement } from "./capture";
import { PLAN_FREQUENCIES } from "@/lib/values/enums";
import { normalizeEmail, normalizePhone, uniqueTags } from "@/lib/values/normalize";
import { newId } from "@/lib/ids";
import { DEFAULT_PIPELINE, storedStage, type Stage } from "@/lib/schemas/pipeline";

export interface BookRoute {
  caseId: string;
  pattern: string;
  /** The query string exactly as the case sends it ("" for none). */
  search: string;
  /** For `:id` patterns: the id of the captured request, replaced by the requested one. */
  templateId?: string;
  mapper: MapperName;
  statements: CapturedStatement[];
}

/** What the baseline is told before it starts (bench/.cache/book-*.json). */
export interface Book {
  companyId: string;
  auth: { text: string; params: unknown[]; name?: string; keyHash: string };
  routes: BookRoute[];
}

export type MapperName =
  | "leads-list"
  | "lead"
  | "lead-stage-totals"
  | "customers-list"
  | "customer"
  | "plans-list"
  | "jobs-list"
  | "pins-list"
  | "pin-types"
  | "report-plans"
  | "report-jobs";

type Row = Record<string, unknown>;
/** `name`: run as that prepared statement where the driver has them (as ours did). */
export type QueryFn = (text: string, params?: unknown[], name?: string) => Promise<Row[]>;

export interface Driver {
  query: QueryFn;
  transaction<T>(fn: (query: QueryFn) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  body: unknown;
}

// ---------------------------------------------------------------- value helpers

const cents = (n: unknown) => Math.round(num(n) * 100) / 100;
function num(value: unknown): number {
  if (value === null || value === undefined) return 0;
  return typeof value === "number" ? value : Number(value);
}
function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}
function jsonList(value: unknown): Row[] {
  if (value === null || value === undefined) return [];
  const parsed: unknown = typeof value === "string" ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? (parsed as Row[]) : [];
}
const str = (value: unknown) => (value === null || value === undefined ? "" : String(value));
const orNull = (value: unknown) => (value === undefined ? null : value);
function location(row: Row): [number, number] | null {
  return row.latitude == null || row.longitude == null ? null : [num(row.latitude), num(row.longitude)];
}

// ---------------------------------------------------------------- records (the API's JSON, by hand)

function lead(row: Row): Row {
  return {
    id: row.id,
    name: row.name ?? "",
    email: orNull(row.email),
    phone: orNull(row.phone),
    property_street1: orNull(row.property_street1),
    property_street2: orNull(row.property_street2),
    property_city: orNull(row.property_city),
    property_state: orNull(row.property_state),
    property_zip: orNull(row.property_zip),
    property_country: orNull(row.property_country),
    priority: orNull(row.priority),
    projected_value: row.projected_value == null ? null : cents(row.projected_value),
    value_score: row.value_score == null ? null : num(row.value_score),
    service_type: orNull(row.service_type),
    lead_source: orNull(row.lead_source),
    stage: orNull(row.stage),
    lost_reason: orNull(row.lost_reason),
    tags: row.tags,
    notes: orNull(row.notes),
    follow_up_date: iso(row.follow_up_date),
    assigned_to: orNull(row.assigned_to),
    archived: row.archived,
    archived_at: iso(row.archived_at),
    customer_id: orNull(row.customer_id),
    created_at: iso(row.created_at),
    location: location(row),
  };
}

function leadUpsert(row: Row, matchedOn: "id" | "phone" | "email" | null): Row {
  const l = lead(row);
  return {
    ...l,
    address_street1: l.property_street1,
    address_street2: l.property_street2,
    address_city: l.property_city,
    address_state: l.property_state,
    address_zip: l.property_zip,
    address_country: l.property_country,
    source: l.lead_source,
    status: "success",
    message: matchedOn ? "Lead updated" : "Lead created",
    matched_on: matchedOn,
  };
}

/** String fields with a value only (the customer JSON leaves empty ones out). */
function present(row: Row, names: string[]): Row {
  const out: Row = {};
  for (const name of names) {
    const value = row[name];
    if (value != null && value !== "") out[name] = value;
  }
  return out;
}

function customer(row: Row): Row {
  const loc = location(row);
  return {
    id: row.id,
    ...present(row, ["first_name", "last_name", "company_name", "email", "phone", "notes", "source"]),
    address: {
      street1: str(row.property_street1),
      ...(row.property_street2 ? { street2: row.property_street2 } : {}),
      city: str(row.property_city),
      state: str(row.property_state),
      zip: str(row.property_zip),
      country: str(row.property_country),
    },
    status: row.status,
    tags: row.tags,
    created_at: iso(row.created_at),
    ...(loc ? { location: loc } : {}),
    is_auto_pay: row.is_auto_pay,
  };
}

function frequencyName(frequency: unknown, label: unknown): string {
  if (frequency === "Custom") return typeof label === "string" && label.trim() ? label : "Custom";
  return str(frequency);
}

function plan(row: Row): Row {
  return {
    id: row.id,
    active: row.active,
    created_at: row.created_at,
    customer: {
      id: row.customer_id,
      company_name: str(row.customer_company_name),
      first_name: str(row.customer_first_name),
      last_name: str(row.customer_last_name),
    },
    num_completed_jobs: num(row.num_completed_jobs),
    num_pending_jobs: num(row.num_pending_jobs),
    num_scheduled_jobs: num(row.num_scheduled_jobs),
    sale_value: cents(row.sale_value),
    service_frequency: frequencyName(row.frequency, row.custom_frequency_label),
    service_type: str(row.service_type),
    sold_by: { email: str(row.sold_by_email), name: str(row.sold_by_name), user_id: str(row.sold_by_id) },
    start_date: row.start_date,
    total_received: cents(row.total_received),
  };
}

function job(row: Row): Row {
  return {
    id: row.id,
    created_at: row.created_at,
    customer: {
      id: row.customer_id,
      company_name: str(row.customer_company_name),
      first_name: str(row.customer_first_name),
      last_name: str(row.customer_last_name),
    },
    service_date: row.service_date,
    service_plan_id: row.service_plan_id,
    status: row.status,
    technicians: jsonList(row.technicians).map((t) => ({
      email: str(t.email),
      name: str(t.name),
      user_id: t.user_id,
    })),
    line_items: jsonList(row.line_items).map((li) => ({
      id: li.id,
      title: str(li.title),
      description: str(li.description),
      total_price: cents(li.total_price),
    })),
    payments: jsonList(row.payments).map((p) => ({
      id: p.id,
      amount: cents(p.amount),
      payment_date: p.payment_date ?? null,
      payment_method: p.payment_method,
      payment_type: p.payment_type,
      status: p.status,
    })),
    total: cents(row.line_total),
    total_received: cents(row.total_received),
    total_outstanding: cents(row.total_outstanding),
  };
}

function pin(row: Row): Row {
  return {
    id: row.id,
    created_at: row.created_at,
    created_by: { email: str(row.user_email), name: str(row.user_name), user_id: row.user_id },
    location: [num(row.latitude), num(row.longitude)],
    pin_type: { id: row.pin_type_id, color: row.pin_type_color, label: row.pin_type_label },
    address: { street1: row.street1, city: row.city, state: row.state, zip: row.zip },
    notes: row.notes,
    lead_id: row.lead_id,
    updated_at: row.updated_at,
    visit_count: num(row.visit_count),
    last_visit_at: row.last_visit_at,
  };
}

const FREQUENCY_ORDER: readonly string[] = PLAN_FREQUENCIES;
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function planTotals(row: Row | undefined): Row & { sale_value: number; total_received: number } {
  const sale = cents(row?.sale_value);
  const received = cents(row?.total_received);
  return {
    plan_count: num(row?.plan_count),
    sale_value: sale,
    total_received: received,
    collection_rate: sale > 0 ? Math.round((received / sale) * 10_000) / 10_000 : 0,
    num_completed_jobs: num(row?.num_completed_jobs),
    num_scheduled_jobs: num(row?.num_scheduled_jobs),
    num_pending_jobs: num(row?.num_pending_jobs),
  };
}

function planReport(rows: Row[]): Row {
  const of = (g: number) => rows.filter((r) => num(r.grouping) === g);
  const byFrequency = of(3)
    .map((r) => ({ frequency: str(r.frequency), ...planTotals(r) }))
    .sort((a, b) => FREQUENCY_ORDER.indexOf(a.frequency) - FREQUENCY_ORDER.indexOf(b.frequency));
  const byType = of(5)
    .map((r) => ({ service_type: str(r.service_type), ...planTotals(r) }))
    .sort((a, b) => b.sale_value - a.sale_value || byText(a.service_type, b.service_type));
  const byRep = of(6)
    .map((r) => ({
      sold_by: { email: str(r.sold_by_email), name: str(r.sold_by_name), user_id: str(r.sold_by) },
      ...planTotals(r),
    }))
    .sort(
      (a, b) =>
        b.total_received - a.total_received ||
        b.sale_value - a.sale_value ||
        byText(a.sold_by.name, b.sold_by.name) ||
        (a.sold_by.user_id < b.sold_by.user_id ? -1 : 1),
    );
  return {
    status: "success",
    data: {
      ...planTotals(of(7)[0]),
      by_frequency: byFrequency,
      by_service_type: byType,
      by_sales_rep: byRep,
    },
  };
}

/** The board's totals: rows per stage (total 0), in text order with no stage last, and the total (1). */
function stageTotals(rows: Row[]): Row {
  const totalsOf = (row: Row | undefined) => ({
    count: num(row?.count),
    projected_value: cents(row?.projected_value),
  });
  const data = rows
    .filter((r) => num(r.total) === 0)
    .map((r) => ({ stage: (r.stage ?? null) as string | null, ...totalsOf(r) }))
    .sort((a, b) =>
      a.stage === b.stage ? 0 : a.stage === null ? 1 : b.stage === null ? -1 : byText(a.stage, b.stage),
    );
  return { status: "success", data, totals: totalsOf(rows.find((r) => num(r.total) === 1)) };
}

function jobTotals(rows: (Row | undefined)[]) {
  const add = (key: string) => rows.reduce((sum, row) => sum + num(row?.[key]), 0);
  return {
    job_count: add("job_count"),
    total: cents(add("total")),
    total_received: cents(add("total_received")),
    total_outstanding: cents(add("total_outstanding")),
  };
}

function jobReport(rows: Row[], interval: string): Row {
  const overTime = rows
    .filter((r) => r.kind === "period")
    .map((r) => ({ period_start: (r.period_start ?? null) as string | null, ...jobTotals([r]) }))
    .sort((a, b) =>
      a.period_start === null ? 1 : b.period_start === null ? -1 : byText(a.period_start, b.period_start),
    );
  // A technician's rows (their assigned jobs and their crew jobs) summed.
  const perUser = new Map<string, Row[]>();
  for (const row of rows) {
    if (!["technician", "assigned", "crew"].includes(String(row.kind)) || row.user_id == null) continue;
    const id = String(row.user_id);
    perUser.set(id, [...(perUser.get(id) ?? []), row]);
  }
  const byTechnician = [...perUser.entries()]
    .map(([userId, parts]) => ({
      technician: { email: str(parts[0]?.user_email), name: str(parts[0]?.user_name), user_id: userId },
      ...jobTotals(parts),
    }))
    .sort(
      (a, b) =>
        b.total_received - a.total_received ||
        b.job_count - a.job_count ||
        byText(a.technician.name, b.technician.name) ||
        byText(a.technician.user_id, b.technician.user_id),
    );
  return {
    status: "success",
    data: {
      ...jobTotals([rows.find((r) => r.kind === "all")]),
      interval,
      over_time: overTime,
      by_technician: byTechnician,
    },
  };
}

// ---------------------------------------------------------------- answers

/** A count statement's answer: one row with one column. */
const isCount = (rows: Row[]) => rows.length === 1 && Object.keys(rows[0] ?? {}).length === 1;

function pageOf(search: URLSearchParams): { page: number; limit: number } {
  return { page: Number(search.get("page") ?? 1), limit: Number(search.get("limit") ?? 50) };
}

/**
 * A list's answer: from a page and a count statement, or one statement whose rows carry the total
 * (a gram search; an empty page is one row with the total and nulls).
 */
function list(results: Row[][], search: URLSearchParams, map: (row: Row) => Row): Row {
  const single = results.length === 1 && "total" in (results[0]?.[0] ?? {});
  const rows = single
    ? (results[0] ?? []).filter((r) => r.id != null)
    : (results.find((r) => !isCount(r)) ?? []);
  const countRows = single ? (results[0] ?? []) : (results.find(isCount) ?? []);
  const total = num(single ? countRows[0]?.total : Object.values(countRows[0] ?? {})[0]);
  const { page, limit } = pageOf(search);
  return {
    status: "success",
    data: rows.map(map),
    pagination: { has_more: page * limit < total, limit, page, total },
  };
}

const notFound = (what: string): Answer => ({
  status: 404,
  body: { status: "error", message: `${what} not found` },
});

function answer(mapper: MapperName, results: Row[][], search: URLSearchParams): Answer {
  const first = results[0] ?? [];
  switch (mapper) {
    case "leads-list":
      return { status: 200, body: list(results, search, lead) };
    case "customers-list":
      return { status: 200, body: list(results, search, customer) };
    case "plans-list":
      return { status: 200, body: list(results, search, plan) };
    case "jobs-list":
      return { status: 200, body: list(results, search, job) };
    case "pins-list":
      return { status: 200, body: list(results, search, pin) };
    case "lead":
      return first[0] ? { status: 200, body: { status: "success", data: lead(first[0]) } } : notFound("Lead");
    case "customer":
      return first[0]
        ? {
            status: 200,
            body: {
              status: "success",
              data: {
                ...customer(first[0]),
                has_payment_method: first[0].has_payment_method,
                ...present(first[0], [
                  "billing_street1",
                  "billing_street2",
                  "billing_city",
                  "billing_state",
                  "billing_zip",
                  "billing_country",
                ]),
                billing_same_as_property: first[0].billing_same_as_property,
                ...present(first[0], ["service_frequency", "service_type"]),
                archived: first[0].archived,
                ...(first[0].archived_at ? { archived_at: iso(first[0].archived_at) } : {}),
                ...present(first[0], ["lead_id"]),
              },
            },
          }
        : notFound("Customer");
    case "lead-stage-totals":
      return { status: 200, body: stageTotals(first) };
    case "pin-types":
      return {
        status: 200,
        body: {
          status: "success",
          data: first.map((r) => ({ id: r.id, color: r.color, label: r.label, position: num(r.position) })),
        },
      };
    case "report-plans":
      return { status: 200, body: planReport(first) };
    case "report-jobs":
      return { status: 200, body: jobReport(first, search.get("interval") ?? "month") };
  }
}

const CONTROL = /^\s*(begin|commit|rollback)\b/i;
/** Statements whose rows make the answer (not `set local …`, not transaction control). */
const ANSWERS = /^\s*(select|with)\b/i;

/** Runs statements group by group; the statements of one group at the same time, as captured. */
async function runGroups(
  query: QueryFn,
  statements: CapturedStatement[],
  swap: Map<unknown, unknown>,
): Promise<{ text: string; rows: Row[] }[]> {
  const results: { text: string; rows: Row[] }[] = [];
  const groups = [...new Set(statements.map((s) => s.group))];
  for (const group of groups) {
    const members = statements.filter((s) => s.group === group);
    const answers = await Promise.all(
      members.map((s) =>
        query(
          s.text,
          s.params.map((p) => (swap.has(p) ? swap.get(p) : p)),
          s.name,
        ),
      ),
    );
    results.push(...members.map((s, i) => ({ text: s.text, rows: answers[i] ?? [] })));
  }
  return results;
}

/**
 * Replays a case's statements: those between a captured `begin` and `commit` in one transaction
 * (reports set `work_mem` locally), the others on the pool.
 */
async function replay(
  driver: Driver,
  statements: CapturedStatement[],
  swap: Map<unknown, unknown>,
): Promise<Row[][]> {
  const results: { text: string; rows: Row[] }[] = [];
  let i = 0;
  while (i < statements.length) {
    const statement = statements[i]!;
    if (/^\s*begin\b/i.test(statement.text)) {
      let end = statements.findIndex((s, j) => j > i && CONTROL.test(s.text));
      if (end === -1) end = statements.length;
      const inner = statements.slice(i + 1, end);
      results.push(...(await driver.transaction((query) => runGroups(query, inner, swap))));
      i = end + 1;
      continue;
    }
    let end = statements.findIndex((s, j) => j > i && /^\s*begin\b/i.test(s.text));
    if (end === -1) end = statements.length;
    const plain = statements.slice(i, end).filter((s) => !CONTROL.test(s.text));
    results.push(...(await runGroups(driver.query, plain, swap)));
    i = end;
  }
  return results.filter((r) => ANSWERS.test(r.text)).map((r) => r.rows);
}

const NEWEST = "order by created_at desc nulls last, id desc nulls last limit 1 for update";
const MAX_TAGS = 100;
const MERGED_TAGS = (param: string) =>
  `(tags || array(select t from unnest(${param}::text[]) with ordinality as u(t, n) where t <> all(tags) order by n))`;

/**
 * POST /leads in plain SQL, with the same statements as upsertRecord, since they depend on the
 * body; bench/baseline.test.ts checks the sequence against ours.
 */
async function upsertLead(driver: Driver, companyId: string, keyId: string, body: Row): Promise<Answer> {
  if (typeof body.stage === "string" && body.stage) {
    const stored = await driver.query(
      "select key, label, color, kind from pipeline_stages where company_id = $1 order by position",
      [companyId],
    );
    const pipeline = stored.length > 0 ? (stored as unknown as Stage[]) : DEFAULT_PIPELINE;
    body = { ...body, stage: storedStage(pipeline, body.stage) };
  }
  const phone = body.phone == null ? null : normalizePhone(String(body.phone));
  const email = normalizeEmail(body.email == null ? null : String(body.email));
  const id = body.id === undefined ? undefined : String(body.id);
  const values: Row = {};
  const set = (column: string, value: unknown) => {
    if (value !== undefined) values[column] = value;
  };
  set("name", body.name === undefined ? undefined : body.name || null);
  if (body.email !== undefined) Object.assign(values, { email: body.email, email_normalized: email });
  if (body.phone !== undefined) Object.assign(values, { phone: body.phone, phone_normalized: phone });
  for (const [from, to] of [
    ["address_street1", "property_street1"],
    ["address_street2", "property_street2"],
    ["address_city", "property_city"],
    ["address_state", "property_state"],
    ["address_zip", "property_zip"],
    ["address_country", "property_country"],
    ["priority", "priority"],
    ["projected_value", "projected_value"],
    ["service_type", "service_type"],
    ["source", "lead_source"],
    ["stage", "stage"],
    ["notes", "notes"],
    ["follow_up_date", "follow_up_date"],
  ] as const)
    set(to, body[from]);
  const tags = uniqueTags(Array.isArray(body.tags) ? (body.tags as string[]) : []);
  if (id === undefined && !phone && !email && !values.name && !body.phone) {
    return {
      status: 400,
      body: { status: "error", message: "a new lead needs a name, an email or a phone" },
    };
  }

  const insert = async (query: QueryFn): Promise<Answer> => {
    const row: Row = { ...values, id: newId("lead"), company_id: companyId, tags };
    const columns = Object.keys(row);
    const [created] = await query(
      `insert into leads (${columns.join(", ")}) values (${columns.map((_, i) => `$${i + 1}`).join(", ")}) returning *`,
      Object.values(row),
    );
    return { status: 201, body: leadUpsert(created ?? {}, null) };
  };
  const update = async (
    query: QueryFn,
    leadId: string,
    matchedOn: "id" | "phone" | "email",
  ): Promise<Answer> => {
    const columns = Object.keys(values);
    const n = columns.length;
    const assignments = [
      ...columns.map((c, i) => `${c} = $${i + 1}`),
      `tags = ${MERGED_TAGS(`$${n + 1}`)}`,
      `updated_at = $${n + 2}`,
    ];
    const [updated] = await query(
      `update leads set ${assignments.join(", ")}
       where company_id = $${n + 3} and id = $${n + 4} and cardinality(${MERGED_TAGS(`$${n + 5}`)}) <= $${n + 6}
       returning *`,
      [...Object.values(values), tags, new Date(), companyId, leadId, tags, MAX_TAGS],
    );
    if (updated) return { status: 200, body: leadUpsert(updated, matchedOn) };
    const [stored] = await query(
      `select cardinality(${MERGED_TAGS("$1")}) as count from leads where company_id = $2 and id = $3`,
      [tags, companyId, leadId],
    );
    if (!stored) return notFound("Lead");
    return { status: 400, body: { status: "error", message: `${String(stored.count)} tags after merging` } };
  };

  return driver.transaction(async (query) => {
    const locks: string[] = [];
    if (phone) locks.push(`leads:phone:${companyId}:${phone}`);
    if (email) locks.push(`leads:email:${companyId}:${email}`);
    if (locks.length > 0) {
      await query(
        `select ${locks.map((_, i) => `pg_advisory_xact_lock(hashtextextended($${i + 1}, 0))`).join(", ")}`,
        locks,
      );
    }
    const [match] =
      id !== undefined
        ? [{ id, matched_on: "id" }]
        : phone && email
          ? await query(
              `with by_phone as (select id, 'phone' as matched_on from leads where company_id = $1 and phone_normalized = $2 ${NEWEST}),
             by_email as (select id, 'email' as matched_on from leads where company_id = $1 and email_normalized = $3
               and not exists (select from by_phone) ${NEWEST}),
             target as (select * from by_phone union all select * from by_email)
             select id, matched_on from target`,
              [companyId, phone, email],
            )
          : phone || email
            ? await query(
                `select id, '${phone ? "phone" : "email"}' as matched_on from leads where company_id = $1 and ${phone ? "phone_normalized" : "email_normalized"} = $2 ${NEWEST}`,
                [companyId, phone ?? email],
              )
            : [];
    const activity = (leadId: unknown, type: string, changes: unknown[]) =>
      query(
        `insert into record_activity (company_id, record_type, record_id, type, actor_kind, actor_id, changes)
         values ($1, 'lead', $2, $3, 'api_key', $4, $5) returning *`,
        [companyId, leadId, type, keyId, JSON.stringify(changes)],
      );
    // Ours writes, after each change, its event if an enabled webhook endpoint wants it (E8).
    const event = (type: string, record: Row) =>
      query(
        `insert into webhook_events (company_id, id, type, record_type, record_id, payload)
         select $1, $2, $3, 'lead', $4, $5::jsonb
         where exists (select from webhook_endpoints w where w.company_id = $1 and w.enabled and $3 = any(w.events))`,
        [
          companyId,
          `evt_${randomUUID().replace(/-/g, "")}`,
          type,
          record.id,
          JSON.stringify({ type, timestamp: new Date().toISOString(), data: record }),
        ],
      );
    if (!match) {
      const created = await insert(query);
      await activity((created.body as Row).id, "created", []);
      await event("lead.created", created.body as Row);
      return created;
    }
    const [before] = await query(`select * from leads where company_id = $1 and id = $2 for update`, [
      companyId,
      match.id,
    ]);
    if (!before) return notFound("Lead");
    const answer = await update(query, String(match.id), match.matched_on as "id" | "phone" | "email");
    if (answer.status !== 200) return answer;
    const changes = changedFields(lead(before), answer.body as Row);
    if (changes.length > 0) {
      await activity(match.id, "updated", changes);
      await event("lead.updated", answer.body as Row);
    }
    return answer;
  });
}

/** An update's changed fields, as lib/domain/activity/activity.ts changedFields finds them. */
function changedFields(before: Row, after: Row): { field: string; from: unknown; to: unknown }[] {
  const ignored = new Set(["id", "created_at", "archived", "archived_at"]);
  return Object.keys(before)
    .filter((field) => !ignored.has(field))
    .filter((field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null))
    .map((field) => ({ field, from: before[field] ?? null, to: after[field] ?? null }));
}

/** The request → answer core, without HTTP (the test calls it directly). */
export function createBaseline(book: Book, driver: Driver) {
  const routes = new Map<string, BookRoute>();
  for (const route of book.routes) routes.set(`${route.pattern}${route.search}`, route);

  /** The key's id, or the refusal. */
  async function authenticate(key: string | undefined): Promise<Answer | string> {
    if (!key)
      return {
        status: 401,
        body: { status: "error", message: "Authentication required", error_code: "AUTHENTICATION_REQUIRED" },
      };
    const hash = createHash("sha256").update(key.trim(), "utf8").digest("hex");
    const params = book.auth.params.map((p) => (p === book.auth.keyHash ? hash : p));
    const [row] = await driver.query(book.auth.text, params, book.auth.name);
    if (!row)
      return {
        status: 401,
        body: { status: "error", message: "Invalid API key", error_code: "INVALID_API_KEY" },
      };
    if (row.used == null)
      return {
        status: 429,
        body: { status: "error", message: "Daily limit exceeded", error_code: "RATE_LIMIT_EXCEEDED" },
      };
    return String(row.id);
  }

  return async function handle(
    method: string,
    url: string,
    headers: Record<string, string | undefined>,
    body: string,
  ): Promise<Answer> {
    const keyId = await authenticate(headers["x-api-key"]);
    if (typeof keyId !== "string") return keyId;
    if (headers["service-api-version"] !== "1.1.0") {
      return {
        status: 400,
        body: { status: "error", message: "Unsupported version", error_code: "UNSUPPORTED_API_VERSION" },
      };
    }
    const parsed = new URL(url, "http://baseline");
    if (method === "POST" && parsed.pathname === "/api/leads") {
      let input: unknown;
      try {
        input = JSON.parse(body);
      } catch {
        return {
          status: 400,
          body: { status: "error", message: "Invalid JSON", error_code: "INVALID_JSON" },
        };
      }
      return upsertLead(driver, book.companyId, keyId, input as Row);
    }
    if (method !== "GET") return { status: 405, body: { status: "error", message: "Method not allowed" } };
    let route = routes.get(`${parsed.pathname}${parsed.search}`);
    const swap = new Map<unknown, unknown>();
    if (!route) {
      const slash = parsed.pathname.lastIndexOf("/");
      route = routes.get(`${parsed.pathname.slice(0, slash)}/:id`);
      if (route?.templateId) swap.set(route.templateId, decodeURIComponent(parsed.pathname.slice(slash + 1)));
    }
    if (!route)
      return { status: 404, body: { status: "error", message: "No such case", error_code: "NOT_FOUND" } };
    const results = await replay(driver, route.statements, swap);
    return answer(route.mapper, results, parsed.searchParams);
  };
}

// ---------------------------------------------------------------- drivers and the HTTP server

export async function openDriver(databaseUrl: string): Promise<Driver> {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const { default: pg } = await import("pg");
    // The API's pool size (DB_POOL_SIZE default): the same number of sessions on the database.
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: 10,
      application_name: "fieldcrm-baseline",
      // As the API's pool (POSTGRES_SESSION_OPTIONS in lib/db/client.ts; the baseline keeps out of
      // our layers, so it spells the value itself): the same statements under the same settings.
      options: "-c jit=off",
    });
    pool.on("error", () => {});
    return {
      query: async (text, params, name) =>
        (await pool.query(name ? { name, text, values: params } : { text, values: params })).rows as Row[],
      async transaction(fn) {
        const client = await pool.connect();
        try {
          await client.query("begin");
          const result = await fn(
            async (text, params, name) =>
              (await client.query(name ? { name, text, values: params } : { text, values: params }))
                .rows as Row[],
          );
          await client.query("commit");
          return result;
        } catch (error) {
          await client.query("rollback").catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }
  // The extensions the schema's indexes need, as lib/db/client.ts loads them.
  const [{ PGlite }, { pg_trgm }, { btree_gin }, { btree_gist }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite/contrib/btree_gin"),
    import("@electric-sql/pglite/contrib/btree_gist"),
  ]);
  const dataDir = databaseUrl.startsWith("file:") ? databaseUrl.slice(5) : undefined;
  const lite = await PGlite.create({ dataDir, extensions: { pg_trgm, btree_gin, btree_gist } });
  return {
    query: async (text, params) => (await lite.query<Row>(text, params)).rows,
    transaction: (fn) =>
      lite.transaction((tx) => fn(async (text, params) => (await tx.query<Row>(text, params)).rows)),
    close: () => lite.close(),
  };
}

function serve(handle: ReturnType<typeof createBaseline>, port: number): http.Server {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers: Record<string, string | undefined> = {
        "x-api-key": req.headers["x-api-key"] as string | undefined,
        "service-api-version": req.headers["service-api-version"] as string | undefined,
      };
      handle(req.method ?? "GET", req.url ?? "/", headers, Buffer.concat(chunks).toString("utf8"))
        .catch((): Answer => ({ status: 500, body: { status: "error", message: "Internal server error" } }))
        .then(({ status, body }) => {
          res.writeHead(status, {
            "content-type": "application/json; charset=utf-8",
            "x-request-id": randomUUID(),
            "cache-control": "no-store",
          });
          res.end(JSON.stringify(body));
        });
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(port, "127.0.0.1");
  return server;
}

async function main(): Promise<void> {
  const port = Number(process.env.BASELINE_PORT ?? 3450);
  const databaseUrl = process.env.BASELINE_DATABASE_URL;
  const bookPath = process.env.BASELINE_BOOK;
  if (!databaseUrl || !bookPath) throw new Error("BASELINE_DATABASE_URL and BASELINE_BOOK are required");
  const book = JSON.parse(fs.readFileSync(bookPath, "utf8")) as Book;
  const driver = await openDriver(databaseUrl);
  const server = serve(createBaseline(book, driver), port);
  const stop = () => server.close(() => void driver.close().finally(() => process.exit(0)));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

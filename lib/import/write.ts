import { and, eq, getTableColumns, getTableName, inArray, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { API_KEY_PREFIX, apiKeyDisplayPrefix, hashPassword, verifyPassword } from "@/lib/auth/secrets";
import { queryRows, type Tx } from "@/lib/db/client";
import {
  apiKeys,
  companies,
  customers,
  jobCrew,
  jobLineItems,
  jobPayments,
  jobs,
  jobVisits,
  leads,
  pins,
  pinTypes,
  servicePlans,
  users,
} from "@/lib/db/schema";
import { normalizeEmail, normalizePhone } from "@/lib/domain/normalize";
import type { ParsedDocument, SectionName } from "./format";
import { childId, type PreparedIds } from "./ids";

/**
 * Rows per statement. Each statement carries one array parameter per column (see columnArrays),
 * so PostgreSQL's limit of 65535 bind parameters is never near, whatever the batch size.
 */
const ROWS_PER_STATEMENT = 5_000;

export interface SectionCount {
  /** Records in the file. */
  total: number;
  inserted: number;
  updated: number;
  /** Already stored exactly so: not written again. */
  unchanged: number;
}
export type ImportCounts = Record<SectionName, SectionCount> & {
  /** Job visits, crew, line items and payments written (they replace the job's previous ones). */
  job_children: number;
};

export interface WriteProgress {
  (done: number): void;
}

/** One row to upsert; `soft` columns keep the stored value when there is one (the file did not give it). */
interface UpsertRow {
  values: Record<string, unknown>;
  soft?: readonly string[];
}

const NEEDS_ESCAPE = /[\\"]/;
const ESCAPED = /[\\"]/g;

/** Text quoted for a PostgreSQL array literal. */
function quoted(text: string): string {
  return NEEDS_ESCAPE.test(text) ? `"${text.replace(ESCAPED, "\\$&")}"` : `"${text}"`;
}

/** An element of a PostgreSQL array literal: always quoted, NULL for null. */
function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "string") return quoted(value);
  if (typeof value === "number") return `"${value}"`;
  if (typeof value === "boolean") return value ? '"t"' : '"f"';
  if (value instanceof Date) return `"${value.toISOString()}"`;
  if (Array.isArray(value)) return quoted(arrayLiteral(value));
  return quoted(String(value));
}

function arrayLiteral(values: readonly unknown[]): string {
  let out = "{";
  for (let i = 0; i < values.length; i++) out += (i === 0 ? "" : ",") + arrayElement(values[i]);
  return `${out}}`;
}

function columnLiteral(rows: readonly Record<string, unknown>[], key: string): string {
  let out = "{";
  for (let i = 0; i < rows.length; i++) out += (i === 0 ? "" : ",") + arrayElement(rows[i]![key]);
  return `${out}}`;
}

/** Lets pending I/O run: the previous statement's bytes reach the database while the next is built. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A batch of rows as `select ... from unnest($1::t1[], $2::t2[], ...)`: one array parameter per
 * column instead of one parameter per value. Building and sending millions of single parameters
 * cost more than the database's own work (100,000 leads: 3.5 million parameters); arrays keep the
 * import within its time budget on both engines. Array columns (tags) travel as arrays of array
 * literals and are cast back per row. Built a column at a time, yielding in between (see
 * StatementPipeline).
 */
async function columnArrays(
  columns: Record<string, PgColumn>,
  keys: readonly string[],
  rows: readonly Record<string, unknown>[],
): Promise<SQL> {
  const params: SQL[] = [];
  for (const key of keys) {
    const type = columns[key]!.getSQLType();
    const literal = columnLiteral(rows, key);
    params.push(type.endsWith("[]") ? sql`${literal}::text[]` : sql`${literal}::${sql.raw(type)}[]`);
    await yieldToEventLoop();
  }
  const selected = keys.map((key, i) => {
    const type = columns[key]!.getSQLType();
    return type.endsWith("[]") ? sql.raw(`u.c${i}::${type}`) : sql.raw(`u.c${i}`);
  });
  return sql`select ${sql.join(selected, sql`, `)} from unnest(${sql.join(params, sql`, `)}) as u(${sql.raw(
    keys.map((_, i) => `c${i}`).join(", "),
  )})`;
}

/**
 * At most one statement in flight, and the next one built meanwhile: on PostgreSQL the database
 * maintains the leads' indexes (most of an import's time) while this process prepares the next
 * batch, so the two cores work at once. A failed statement fails the import at the next push or
 * at finish, before anything else is sent; the transaction then rolls back.
 */
class StatementPipeline<T> {
  private inflight: Promise<T> | undefined;

  constructor(private readonly settle: (result: T) => void) {}

  async push(run: () => Promise<T>): Promise<void> {
    await this.finish();
    const started = run();
    // Observed at the next push or finish; this keeps a failure from counting as unhandled meanwhile.
    started.catch(() => {});
    this.inflight = started;
    await yieldToEventLoop();
  }

  async finish(): Promise<void> {
    const inflight = this.inflight;
    this.inflight = undefined;
    if (inflight) this.settle(await inflight);
  }
}

/**
 * INSERT ... ON CONFLICT (company_id, id) DO UPDATE, in batches. A row that is already stored with
 * the same values is left alone (the WHERE of the update), so importing a file twice writes
 * nothing the second time and `updated_at` moves only when something changed. Rows are made from
 * the records one batch at a time (a million leads never exist as rows all at once), and rows
 * with the same soft columns share a statement.
 */
async function upsertRows<R>(
  tx: Tx,
  table: PgTable,
  conflictKeys: readonly string[],
  records: readonly R[],
  toRow: (record: R) => UpsertRow,
  advance: (n: number) => void,
): Promise<Omit<SectionCount, "total">> {
  const counts = { inserted: 0, updated: 0, unchanged: 0 };
  if (records.length === 0) return counts;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const tableName = sql.identifier(getTableName(table));
  const name = (key: string) => sql.identifier(columns[key]!.name);
  const stored = (key: string) => sql`${tableName}.${name(key)}`;
  const proposed = (key: string) => sql`excluded.${name(key)}`;

  interface Group {
    keys: string[];
    rows: Record<string, unknown>[];
    /** The statement around the rows: `insert ... (columns)` and `on conflict ...`. */
    head: SQL;
    tail: SQL;
  }
  const groupOf = (soft: readonly string[], keys: string[]): Group => {
    const softSet = new Set(soft);
    const updated = keys.filter((k) => !conflictKeys.includes(k) && k !== "updatedAt");
    const value = (key: string) =>
      softSet.has(key) ? sql`coalesce(${stored(key)}, ${proposed(key)})` : proposed(key);
    const assignments = updated.map((k) => sql`${name(k)} = ${value(k)}`);
    if ("updatedAt" in columns) assignments.push(sql`${name("updatedAt")} = now()`);
    const changed = sql`(${sql.join(updated.map(stored), sql`, `)}) is distinct from (${sql.join(
      updated.map(value),
      sql`, `,
    )})`;
    return {
      keys,
      rows: [],
      head: sql`insert into ${tableName} (${sql.join(keys.map(name), sql`, `)})`,
      tail: sql`on conflict (${sql.join(conflictKeys.map(name), sql`, `)}) do update
          set ${sql.join(assignments, sql`, `)}
          where ${changed}
          returning (xmax = 0) as inserted`,
    };
  };

  const pipeline = new StatementPipeline<{ rows: number; written: number; inserted: number }>((r) => {
    counts.inserted += r.inserted;
    counts.updated += r.written - r.inserted;
    counts.unchanged += r.rows - r.written;
    advance(r.rows);
  });
  const flush = async (group: Group) => {
    const rows = group.rows;
    group.rows = [];
    const select = await columnArrays(columns, group.keys, rows);
    await pipeline.push(async () => {
      // Counted in the database: a million RETURNING rows need not travel back.
      const [result] = await queryRows<{ written: number | string; inserted: number | string }>(
        tx,
        sql`with written as (${group.head} ${select} ${group.tail})
          select count(*)::int as written, (count(*) filter (where inserted))::int as inserted from written`,
      );
      return { rows: rows.length, written: Number(result!.written), inserted: Number(result!.inserted) };
    });
  };

  const groups = new Map<string, Group>();
  for (const record of records) {
    const row = toRow(record);
    const soft = row.soft ?? [];
    const key = soft.join(",");
    let group = groups.get(key);
    if (!group) {
      group = groupOf(soft, Object.keys(row.values));
      groups.set(key, group);
    }
    group.rows.push(row.values);
    if (group.rows.length >= ROWS_PER_STATEMENT) await flush(group);
  }
  for (const group of groups.values()) if (group.rows.length > 0) await flush(group);
  await pipeline.finish();
  return counts;
}

async function insertRows(
  tx: Tx,
  table: PgTable,
  rows: Record<string, unknown>[],
  advance: (n: number) => void,
) {
  if (rows.length === 0) return;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const keys = Object.keys(rows[0]!);
  const head = sql`insert into ${sql.identifier(getTableName(table))} (${sql.join(
    keys.map((k) => sql.identifier(columns[k]!.name)),
    sql`, `,
  )})`;
  const pipeline = new StatementPipeline<number>(advance);
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
    const select = await columnArrays(columns, keys, chunk);
    await pipeline.push(async () => {
      await tx.execute(sql`${head} ${select}`);
      return chunk.length;
    });
  }
  await pipeline.finish();
}

function latLng(location: readonly [number, number] | null | undefined) {
  return location ? { latitude: location[0], longitude: location[1] } : { latitude: null, longitude: null };
}

/** `created_at` when given; otherwise now on insert and the stored one on a later import. */
function createdAtOf(createdAt: Date | undefined, now: Date, soft: string[]) {
  if (createdAt) return createdAt;
  soft.push("createdAt");
  return now;
}

/** Archived records keep the moment they were archived unless the file says when. */
function archivedAtOf(archived: boolean, archivedAt: Date | null | undefined, now: Date, soft: string[]) {
  if (!archived) return null;
  if (archivedAt) return archivedAt;
  soft.push("archivedAt");
  return now;
}

const PASSWORD_CONCURRENCY = 4;

/**
 * scrypt hashes are salted, so hashing again would change the row on every import. A stored hash
 * that already verifies the file's password is kept: the import stays idempotent (and fast).
 */
async function passwordHashes(tx: Tx, doc: ParsedDocument, ids: PreparedIds): Promise<Map<number, string>> {
  const wanted = doc.users.filter((u) => u.record.password !== undefined);
  const out = new Map<number, string>();
  if (wanted.length === 0) return out;
  const stored = new Map<string, string | null>();
  const userIds = wanted.map((u) => ids.recordId("users", u.index));
  for (let i = 0; i < userIds.length; i += 5000) {
    const rows = await tx
      .select({ companyId: users.companyId, id: users.id, hash: users.passwordHash })
      .from(users)
      .where(inArray(users.id, userIds.slice(i, i + 5000)));
    for (const row of rows) stored.set(`${row.companyId}\u0000${row.id}`, row.hash);
  }
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const { index, record } = wanted[next++]!;
      const password = record.password!;
      const current = stored.get(`${record.company_id}\u0000${ids.recordId("users", index)}`);
      out.set(
        index,
        current && (await verifyPassword(password, current)) ? current : await hashPassword(password),
      );
    }
  };
  await Promise.all(Array.from({ length: PASSWORD_CONCURRENCY }, worker));
  return out;
}

/** Writes a checked document. Runs inside the import's transaction. */
export async function writeDocument(
  tx: Tx,
  doc: ParsedDocument,
  ids: PreparedIds,
  progress: WriteProgress,
): Promise<ImportCounts> {
  const now = new Date();
  let done = 0;
  const advance = (n: number) => {
    done += n;
    progress(done);
  };
  const counts = {} as ImportCounts;
  const run = async <R>(
    section: SectionName,
    table: PgTable,
    records: readonly R[],
    toRow: (record: R) => UpsertRow,
    conflict = ["companyId", "id"],
  ) => {
    counts[section] = {
      total: records.length,
      ...(await upsertRows(tx, table, conflict, records, toRow, advance)),
    };
  };

  await run(
    "companies",
    companies,
    doc.companies,
    ({ record: c }) => {
      const soft: string[] = [];
      return { values: { id: c.id, name: c.name, createdAt: createdAtOf(c.created_at, now, soft) }, soft };
    },
    ["id"],
  );

  const hashes = await passwordHashes(tx, doc, ids);
  await run("users", users, doc.users, ({ index, record: u }) => {
    const soft: string[] = [];
    const createdAt = createdAtOf(u.created_at, now, soft);
    const passwordHash = hashes.get(index);
    if (passwordHash === undefined) soft.push("passwordHash");
    return {
      values: {
        companyId: u.company_id,
        id: ids.recordId("users", index),
        name: u.name,
        email: u.email,
        emailNormalized: normalizeEmail(u.email),
        role: u.role,
        passwordHash,
        active: u.active ?? true,
        createdAt,
        updatedAt: createdAt,
      },
      soft,
    };
  });

  await run("api_keys", apiKeys, doc.api_keys, ({ index, record: k }) => {
    const soft: string[] = [];
    const createdAt = createdAtOf(k.created_at, now, soft);
    let revokedAt: Date | null = null;
    if (k.revoked) {
      revokedAt = now;
      soft.push("revokedAt");
    }
    return {
      values: {
        companyId: k.company_id,
        id: ids.apiKeyId(index),
        name: k.name,
        // Keys of another system may be short: never show more than a few characters of those.
        prefix: k.key.startsWith(API_KEY_PREFIX) ? apiKeyDisplayPrefix(k.key) : k.key.slice(0, 6),
        keyHash: ids.apiKeyHash(index),
        scopes: [...new Set(k.scopes)],
        dailyLimit: k.daily_limit ?? 1000,
        revokedAt,
        createdAt,
      },
      soft,
    };
  });

  await run("pin_types", pinTypes, doc.pin_types, ({ index, record: t }) => ({
    values: {
      companyId: t.company_id,
      id: ids.recordId("pin_types", index),
      label: t.label,
      color: t.color,
    },
  }));

  await run("pins", pins, doc.pins, ({ index, record: p }) => {
    const soft: string[] = [];
    return {
      values: {
        companyId: p.company_id,
        id: ids.recordId("pins", index),
        pinTypeId: p.pin_type_id,
        createdBy: p.created_by,
        ...latLng(p.location),
        createdAt: createdAtOf(p.created_at, now, soft),
      },
      soft,
    };
  });

  await run("customers", customers, doc.customers, ({ index, record: c }) => {
    const soft: string[] = [];
    const createdAt = createdAtOf(c.created_at, now, soft);
    const archived = c.archived ?? false;
    const same = c.billing_same_as_property ?? false;
    return {
      values: {
        companyId: c.company_id,
        id: ids.recordId("customers", index),
        firstName: c.first_name ?? null,
        lastName: c.last_name ?? null,
        companyName: c.company_name ?? null,
        email: c.email ?? null,
        emailNormalized: normalizeEmail(c.email),
        phone: c.phone ?? null,
        phoneNormalized: normalizePhone(c.phone),
        notes: c.notes ?? null,
        source: c.source ?? null,
        propertyStreet1: c.property_street1 ?? null,
        propertyStreet2: c.property_street2 ?? null,
        propertyCity: c.property_city ?? null,
        propertyState: c.property_state ?? null,
        propertyZip: c.property_zip ?? null,
        propertyCountry: c.property_country ?? null,
        billingStreet1: (same ? c.property_street1 : c.billing_street1) ?? null,
        billingStreet2: (same ? c.property_street2 : c.billing_street2) ?? null,
        billingCity: (same ? c.property_city : c.billing_city) ?? null,
        billingState: (same ? c.property_state : c.billing_state) ?? null,
        billingZip: (same ? c.property_zip : c.billing_zip) ?? null,
        billingCountry: (same ? c.property_country : c.billing_country) ?? null,
        billingSameAsProperty: same,
        serviceFrequency: c.service_frequency ?? null,
        serviceType: c.service_type ?? null,
        status: c.status ?? "active",
        tags: c.tags ?? [],
        archived,
        archivedAt: archivedAtOf(archived, c.archived_at, now, soft),
        isAutoPay: c.is_auto_pay ?? false,
        hasPaymentMethod: c.has_payment_method ?? false,
        createdAt,
        updatedAt: createdAt,
        ...latLng(c.location),
      },
      soft,
    };
  });

  await run("leads", leads, doc.leads, ({ index, record: l }) => {
    const soft: string[] = [];
    const createdAt = createdAtOf(l.created_at, now, soft);
    const archived = l.archived ?? false;
    return {
      values: {
        companyId: l.company_id,
        id: ids.recordId("leads", index),
        name: l.name ?? null,
        email: l.email ?? null,
        emailNormalized: normalizeEmail(l.email),
        phone: l.phone ?? null,
        phoneNormalized: normalizePhone(l.phone),
        propertyStreet1: l.property_street1 ?? null,
        propertyStreet2: l.property_street2 ?? null,
        propertyCity: l.property_city ?? null,
        propertyState: l.property_state ?? null,
        propertyZip: l.property_zip ?? null,
        propertyCountry: l.property_country ?? null,
        priority: l.priority ?? null,
        projectedValue: l.projected_value ?? null,
        valueScore: l.value_score ?? null,
        serviceType: l.service_type ?? null,
        leadSource: l.lead_source ?? null,
        stage: l.stage ?? null,
        tags: l.tags ?? [],
        notes: l.notes ?? null,
        followUpDate: l.follow_up_date ?? null,
        assignedTo: l.assigned_to ?? null,
        archived,
        archivedAt: archivedAtOf(archived, l.archived_at, now, soft),
        createdAt,
        updatedAt: createdAt,
        ...latLng(l.location),
      },
      soft,
    };
  });

  await run("service_plans", servicePlans, doc.service_plans, ({ index, record: p }) => {
    const soft: string[] = [];
    return {
      values: {
        companyId: p.company_id,
        id: ids.recordId("service_plans", index),
        customerId: p.customer_id,
        soldBy: p.sold_by ?? null,
        frequency: p.frequency,
        customFrequencyLabel: p.custom_frequency_label ?? null,
        serviceType: p.service_type ?? null,
        startDate: p.start_date ?? null,
        active: p.active ?? true,
        totalVisits: p.total_visits ?? null,
        pricePerVisit: p.price_per_visit ?? 0,
        createdAt: createdAtOf(p.created_at, now, soft),
      },
      soft,
    };
  });

  await run("jobs", jobs, doc.jobs, ({ index, record: j }) => {
    const soft: string[] = [];
    // service_date is the earliest visit's start (kept here, where visits are written).
    let serviceDate: Date | null | undefined;
    if (j.visits) {
      serviceDate = null;
      for (const v of j.visits) if (!serviceDate || v.start < serviceDate) serviceDate = v.start;
    } else soft.push("serviceDate");
    return {
      values: {
        companyId: j.company_id,
        id: ids.recordId("jobs", index),
        customerId: j.customer_id,
        servicePlanId: j.service_plan_id ?? null,
        status: j.status,
        isQuote: j.is_quote ?? false,
        archived: j.archived ?? false,
        assignedTo: j.assigned_to ?? null,
        serviceDate,
        createdAt: createdAtOf(j.created_at, now, soft),
      },
      soft,
    };
  });

  counts.job_children = await replaceJobChildren(tx, doc, ids, advance);
  return counts;
}

/**
 * A job's visits, crew, line items and payments are replaced by the file's (when the file gives
 * that list; an absent list keeps what is stored). Delete and insert in the same transaction.
 */
async function replaceJobChildren(
  tx: Tx,
  doc: ParsedDocument,
  ids: PreparedIds,
  advance: (n: number) => void,
): Promise<number> {
  let written = 0;
  const kinds = [
    { kind: "visits", table: jobVisits },
    { kind: "crew", table: jobCrew },
    { kind: "line_items", table: jobLineItems },
    { kind: "payments", table: jobPayments },
  ] as const;
  for (const { kind, table } of kinds) {
    const replaced = new Map<string, string[]>();
    const rows: Record<string, unknown>[] = [];
    for (const { index, record: job } of doc.jobs) {
      const list = job[kind];
      if (!list) continue;
      const jobId = ids.recordId("jobs", index);
      if (!replaced.has(job.company_id)) replaced.set(job.company_id, []);
      replaced.get(job.company_id)!.push(jobId);
      const base = { companyId: job.company_id, jobId };
      if (kind === "visits")
        job.visits!.forEach((v, i) =>
          rows.push({ ...base, id: childId(jobId, kind, i), startsAt: v.start, endsAt: v.end ?? null }),
        );
      else if (kind === "crew")
        [...new Set(job.crew)].forEach((userId, i) =>
          rows.push({ ...base, id: childId(jobId, kind, i), userId, position: i }),
        );
      else if (kind === "line_items")
        job.line_items!.forEach((li, i) =>
          rows.push({
            ...base,
            id: li.id ?? childId(jobId, kind, i),
            title: li.title ?? "",
            description: li.description ?? "",
            totalPrice: li.total_price,
            position: i,
          }),
        );
      else
        job.payments!.forEach((p, i) =>
          rows.push({
            ...base,
            id: p.id ?? childId(jobId, kind, i),
            amount: p.amount,
            paymentDate: p.payment_date ?? null,
            paymentMethod: p.payment_method,
            paymentType: p.payment_type,
            status: p.status,
          }),
        );
    }
    for (const [companyId, jobIds] of replaced) {
      for (let i = 0; i < jobIds.length; i += 5000)
        await tx
          .delete(table)
          .where(and(eq(table.companyId, companyId), inArray(table.jobId, jobIds.slice(i, i + 5000))));
    }
    await insertRows(tx, table, rows, advance);
    written += rows.length;
  }
  return written;
}

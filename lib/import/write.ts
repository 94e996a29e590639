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

/** An element of a PostgreSQL array literal: always quoted, NULL for null. */
function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  let text: string;
  if (value instanceof Date) text = value.toISOString();
  else if (typeof value === "boolean") text = value ? "t" : "f";
  else if (Array.isArray(value)) text = arrayLiteral(value);
  else text = String(value);
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function arrayLiteral(values: readonly unknown[]): string {
  return `{${values.map(arrayElement).join(",")}}`;
}

/**
 * A batch of rows as `select ... from unnest($1::t1[], $2::t2[], ...)`: one array parameter per
 * column instead of one parameter per value. Building and sending millions of single parameters
 * cost more than the database's own work (100,000 leads: 3.5 million parameters); arrays keep the
 * import within its time budget on both engines. Array columns (tags) travel as arrays of array
 * literals and are cast back per row.
 */
function columnArrays(
  columns: Record<string, PgColumn>,
  keys: string[],
  rows: Record<string, unknown>[],
): SQL {
  const params = keys.map((key) => {
    const column = columns[key]!;
    const type = column.getSQLType();
    const literal = arrayLiteral(rows.map((r) => r[key]));
    return type.endsWith("[]") ? sql`${literal}::text[]` : sql`${literal}::${sql.raw(type)}[]`;
  });
  const selected = keys.map((key, i) => {
    const type = columns[key]!.getSQLType();
    return type.endsWith("[]") ? sql.raw(`u.c${i}::${type}`) : sql.raw(`u.c${i}`);
  });
  return sql`select ${sql.join(selected, sql`, `)} from unnest(${sql.join(params, sql`, `)}) as u(${sql.raw(
    keys.map((_, i) => `c${i}`).join(", "),
  )})`;
}

/**
 * INSERT ... ON CONFLICT (company_id, id) DO UPDATE, in batches. A row that is already stored with
 * the same values is left alone (the WHERE of the update), so importing a file twice writes
 * nothing the second time and `updated_at` moves only when something changed.
 */
async function upsertRows(
  tx: Tx,
  table: PgTable,
  conflictKeys: readonly string[],
  rows: UpsertRow[],
  advance: (n: number) => void,
): Promise<Omit<SectionCount, "total">> {
  const counts = { inserted: 0, updated: 0, unchanged: 0 };
  if (rows.length === 0) return counts;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const tableName = sql.identifier(getTableName(table));
  const name = (key: string) => sql.identifier(columns[key]!.name);
  const stored = (key: string) => sql`${tableName}.${name(key)}`;
  const proposed = (key: string) => sql`excluded.${name(key)}`;

  const groups = new Map<string, UpsertRow[]>();
  for (const row of rows) {
    const key = (row.soft ?? []).join(",");
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(row);
  }
  for (const group of groups.values()) {
    const soft = new Set(group[0]!.soft ?? []);
    const keys = Object.keys(group[0]!.values);
    const updated = keys.filter((k) => !conflictKeys.includes(k) && k !== "updatedAt");
    const value = (key: string) =>
      soft.has(key) ? sql`coalesce(${stored(key)}, ${proposed(key)})` : proposed(key);
    const assignments = updated.map((k) => sql`${name(k)} = ${value(k)}`);
    if ("updatedAt" in columns) assignments.push(sql`${name("updatedAt")} = now()`);
    const changed = sql`(${sql.join(updated.map(stored), sql`, `)}) is distinct from (${sql.join(
      updated.map(value),
      sql`, `,
    )})`;
    for (let i = 0; i < group.length; i += ROWS_PER_STATEMENT) {
      const chunk = group.slice(i, i + ROWS_PER_STATEMENT);
      const result = await queryRows<{ inserted: boolean | string }>(
        tx,
        sql`insert into ${tableName} (${sql.join(keys.map(name), sql`, `)})
          ${columnArrays(
            columns,
            keys,
            chunk.map((r) => r.values),
          )}
          on conflict (${sql.join(conflictKeys.map(name), sql`, `)}) do update
          set ${sql.join(assignments, sql`, `)}
          where ${changed}
          returning (xmax = 0) as inserted`,
      );
      const inserted = result.filter((r) => r.inserted === true || r.inserted === "t").length;
      counts.inserted += inserted;
      counts.updated += result.length - inserted;
      counts.unchanged += chunk.length - result.length;
      advance(chunk.length);
    }
  }
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
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
    await tx.execute(
      sql`insert into ${sql.identifier(getTableName(table))} (${sql.join(
        keys.map((k) => sql.identifier(columns[k]!.name)),
        sql`, `,
      )}) ${columnArrays(columns, keys, chunk)}`,
    );
    advance(chunk.length);
  }
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
  const run = async (
    section: SectionName,
    table: PgTable,
    rows: UpsertRow[],
    conflict = ["companyId", "id"],
  ) => {
    counts[section] = { total: rows.length, ...(await upsertRows(tx, table, conflict, rows, advance)) };
  };

  await run(
    "companies",
    companies,
    doc.companies.map(({ record: c }) => {
      const soft: string[] = [];
      return { values: { id: c.id, name: c.name, createdAt: createdAtOf(c.created_at, now, soft) }, soft };
    }),
    ["id"],
  );

  const hashes = await passwordHashes(tx, doc, ids);
  await run(
    "users",
    users,
    doc.users.map(({ index, record: u }) => {
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
    }),
  );

  await run(
    "api_keys",
    apiKeys,
    doc.api_keys.map(({ index, record: k }) => {
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
    }),
  );

  await run(
    "pin_types",
    pinTypes,
    doc.pin_types.map(({ index, record: t }) => ({
      values: {
        companyId: t.company_id,
        id: ids.recordId("pin_types", index),
        label: t.label,
        color: t.color,
      },
    })),
  );

  await run(
    "pins",
    pins,
    doc.pins.map(({ index, record: p }) => {
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
    }),
  );

  await run(
    "customers",
    customers,
    doc.customers.map(({ index, record: c }) => {
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
    }),
  );

  await run(
    "leads",
    leads,
    doc.leads.map(({ index, record: l }) => {
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
    }),
  );

  await run(
    "service_plans",
    servicePlans,
    doc.service_plans.map(({ index, record: p }) => {
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
    }),
  );

  await run(
    "jobs",
    jobs,
    doc.jobs.map(({ index, record: j }) => {
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
    }),
  );

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

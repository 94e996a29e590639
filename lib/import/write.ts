import "server-only";
import { and, eq, getTableColumns, getTableName, inArray, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { API_KEY_PREFIX, apiKeyDisplayPrefix, hashPassword, verifyPassword } from "@/lib/auth/secrets";
import { arrayElement } from "@/lib/db/array-literal";
import { type Tx } from "@/lib/db/client";
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
  pinVisits,
  pipelineStages,
  recordActivity,
  servicePlans,
  users,
  webhookEndpoints,
  type ActivityRecordType,
} from "@/lib/db/schema";
import { emitRecordEvents, type EventRecordType } from "@/lib/domain/webhooks/emit";
import { newCustomerColumns } from "@/lib/domain/customers/customer-record";
import { leadColumns } from "@/lib/domain/leads/lead-record";
import { DEFAULT_DAILY_LIMIT } from "@/lib/values/limits";
import { normalizeEmail } from "@/lib/values/normalize";
import { DEFAULT_PIPELINE, storedStage, type Stage } from "@/lib/schemas/pipeline";
import { SECTION_NAMES, type ParsedDocument, type SectionName } from "./format";
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

function columnLiteral(rows: readonly Record<string, unknown>[], key: string): string {
  let out = "{";
  for (let i = 0; i < rows.length; i++) out += (i === 0 ? "" : ",") + arrayElement(rows[i]![key]);
  return `${out}}`;
}

/** Lets pending I/O run: the previous statement's bytes reach the database while the next is built. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Rows as `select ... from unnest($1::t1[], ...)`: one array parameter per column, since millions
 * of single parameters cost more than the database's work. Built a column at a time, yielding.
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
 * One statement in flight while the next is built, so the database and this process work at
 * once. A failure surfaces at the next push or settle, before anything else is sent.
 */
class StatementPipeline {
  private inflight: Promise<void> | undefined;

  async push(run: () => Promise<void>): Promise<void> {
    await this.settle();
    const started = run();
    // Observed at the next push or settle; this keeps a failure from counting as unhandled meanwhile.
    started.catch(() => {});
    this.inflight = started;
    await yieldToEventLoop();
  }

  async settle(): Promise<void> {
    const inflight = this.inflight;
    this.inflight = undefined;
    await inflight;
  }
}

/** How the records of one section become rows of its table. */
interface SectionTable<S extends SectionName> {
  table: PgTable;
  /** Records whose activity is kept (extensions.md E3): each one written gets an import entry. */
  activity?: ActivityRecordType;
  /** Records that have webhook events (extensions.md E8): each one written gets its event. */
  events?: EventRecordType;
  /** The columns of ON CONFLICT; (company_id, id) unless given. */
  conflict?: readonly string[];
  /**
   * Rows each newly inserted record brings, in the same statement: `statement` reads the CTE
   * `written` (`where inserted`), which also returns company_id, id and the `returning` columns.
   */
  withInserted?: { returning: readonly string[]; statement: SQL };
  toRow: (entry: ParsedDocument[S][number]) => UpsertRow;
}

interface StatementGroup {
  keys: string[];
  rows: Record<string, unknown>[];
  /** The statement around the rows: `insert ... (columns)` and `on conflict ...`. */
  head: SQL;
  tail: SQL;
}

/**
 * Upserts one section in batches; unchanged rows are skipped (the update's WHERE) so a re-import
 * writes nothing and `updated_at` moves only on change. Rows are built as records arrive.
 */
class SectionUpsert<S extends SectionName> {
  private readonly columns: Record<string, PgColumn>;
  private readonly groups = new Map<string, StatementGroup>();

  constructor(
    private readonly tx: Tx,
    private readonly pipeline: StatementPipeline,
    private readonly spec: SectionTable<S>,
    private readonly count: SectionCount,
    private readonly advance: (n: number) => void,
  ) {
    this.columns = getTableColumns(spec.table) as Record<string, PgColumn>;
  }

  async add(entries: ParsedDocument[S]): Promise<void> {
    for (const entry of entries) {
      const row = this.spec.toRow(entry);
      const soft = row.soft ?? [];
      const key = soft.join(",");
      let group = this.groups.get(key);
      if (!group) {
        group = this.group(soft, Object.keys(row.values));
        this.groups.set(key, group);
      }
      group.rows.push(row.values);
      if (group.rows.length >= ROWS_PER_STATEMENT) await this.flush(group);
    }
  }

  async end(): Promise<void> {
    for (const group of this.groups.values()) if (group.rows.length > 0) await this.flush(group);
  }

  private group(soft: readonly string[], keys: string[]): StatementGroup {
    const { columns } = this;
    const conflictKeys = this.spec.conflict ?? ["companyId", "id"];
    const tableName = sql.identifier(getTableName(this.spec.table));
    const name = (key: string) => sql.identifier(columns[key]!.name);
    const stored = (key: string) => sql`${tableName}.${name(key)}`;
    const proposed = (key: string) => sql`excluded.${name(key)}`;
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
          returning (xmax = 0) as inserted${
            this.spec.activity || this.spec.withInserted || this.spec.events
              ? sql`, ${name("companyId")} as company_id, ${name("id")} as id`
              : sql``
          }${this.spec.activity ? sql`, ${name("archived")} as archived` : sql``}${sql.join(
            (this.spec.withInserted?.returning ?? []).map((key) => sql`, ${name(key)}`),
            sql``,
          )}`,
    };
  }

  /**
   * `, logged as (…)`: an activity entry for each record the statement wrote; an update's changed
   * fields are not listed, since the statement does not read the rows it replaces. An update that
   * flips `archived` is an archive or unarchive, as the archive endpoints record it: the table read
   * beside the upsert shows the row as it was, all parts of one statement sharing one snapshot.
   * Only updated rows are looked up, by key: a join would read the whole table once per batch.
   */
  private logged(): SQL {
    const recordType = this.spec.activity;
    const table = sql.identifier(getTableName(this.spec.table));
    const withInserted = this.spec.withInserted
      ? sql`, with_inserted as (${this.spec.withInserted.statement})`
      : sql``;
    if (!recordType) return withInserted;
    return sql`, logged as (
      insert into ${recordActivity} ("company_id", "record_type", "record_id", "type", "actor_kind")
      select w.company_id, ${recordType}, w.id,
        case when w.inserted then 'created'
          when (select before."archived" from ${table} before
              where before."company_id" = w.company_id and before."id" = w.id) is distinct from w.archived
            then case when w.archived then 'archived' else 'unarchived' end
          else 'updated' end,
        'import'
      from written w)${withInserted}`;
  }

  /**
   * `, evented`: the written records of companies with an enabled webhook endpoint, as
   * [company_id, id, inserted]; none travel back for the others, so an import stays cheap.
   */
  private evented(): SQL {
    if (!this.spec.events) return sql``;
    return sql`, (select json_agg(json_build_array(w.company_id, w.id, w.inserted)) from written w
      where exists (select 1 from ${webhookEndpoints} e where e."company_id" = w.company_id and e."enabled"))::text
      as evented`;
  }

  /** The events of the written records, per company, in the import's transaction. */
  private async emit(recordType: EventRecordType, evented: [string, string, boolean][] | string) {
    const rows = typeof evented === "string" ? (JSON.parse(evented) as [string, string, boolean][]) : evented;
    const byCompany = new Map<string, { created: string[]; updated: string[] }>();
    for (const [companyId, id, inserted] of rows) {
      let changes = byCompany.get(companyId);
      if (!changes) byCompany.set(companyId, (changes = { created: [], updated: [] }));
      (inserted ? changes.created : changes.updated).push(id);
    }
    for (const [companyId, changes] of byCompany)
      await emitRecordEvents(this.tx, companyId, recordType, changes);
  }

  private async flush(group: StatementGroup): Promise<void> {
    const rows = group.rows;
    group.rows = [];
    const select = await columnArrays(this.columns, group.keys, rows);
    await this.pipeline.push(async () => {
      // Counted in the database: a million RETURNING rows need not travel back.
      const [result] = (
        await this.tx.execute<{
          written: number | string;
          inserted: number | string;
          evented?: [string, string, boolean][] | string | null;
        }>(sql`with written as (${group.head} ${select} ${group.tail})${this.logged()}
          select count(*)::int as written, (count(*) filter (where inserted))::int as inserted${this.evented()}
          from written`)
      ).rows;
      if (this.spec.events && result!.evented) await this.emit(this.spec.events, result!.evented);
      const written = Number(result!.written);
      const inserted = Number(result!.inserted);
      this.count.inserted += inserted;
      this.count.updated += written - inserted;
      this.count.unchanged += rows.length - written;
      this.advance(rows.length);
    });
  }
}

async function insertRows(
  tx: Tx,
  pipeline: StatementPipeline,
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
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
    const select = await columnArrays(columns, keys, chunk);
    await pipeline.push(async () => {
      await tx.execute(sql`${head} ${select}`);
      advance(chunk.length);
    });
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
 * Password hashes are salted, so hashing again would change the row on every import. A stored hash
 * that already verifies the file's password is kept: the import stays idempotent (and fast).
 */
async function passwordHashes(
  tx: Tx,
  entries: ParsedDocument["users"],
  ids: PreparedIds,
): Promise<Map<number, string>> {
  const wanted = entries.filter((u) => u.record.password !== undefined);
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

type SectionTables = { [S in SectionName]: SectionTable<S> };

/**
 * The pipelines of the leads' companies not read yet, into `out`: a lead's stage is stored as
 * create-or-update stores it (a stage's key for its key or label in any case; extensions.md E2).
 */
async function readPipelines(
  tx: Tx,
  entries: ParsedDocument["leads"],
  out: Map<string, Stage[]>,
  settle: () => Promise<void>,
) {
  const missing = [...new Set(entries.map((e) => e.record.company_id))].filter((id) => !out.has(id));
  if (missing.length === 0) return;
  // A read: the statement in flight goes first. Once per company, so slices keep overlapping.
  await settle();
  const rows = await tx
    .select()
    .from(pipelineStages)
    .where(inArray(pipelineStages.companyId, missing))
    .orderBy(pipelineStages.companyId, pipelineStages.position);
  for (const id of missing) out.set(id, []);
  for (const { companyId, key, label, color, kind } of rows)
    out.get(companyId)!.push({ key, label, color, kind });
  for (const id of missing) if (out.get(id)!.length === 0) out.set(id, [...DEFAULT_PIPELINE]);
}

/**
 * Each section's table and rows. `hashes`: the users' password hashes, known before users are
 * written; `pipelines`: the leads' companies' pipelines, read before leads are written.
 */
function sectionTables(
  now: Date,
  ids: PreparedIds,
  hashes: Map<number, string>,
  pipelines: Map<string, Stage[]>,
): SectionTables {
  return {
    companies: {
      table: companies,
      conflict: ["id"],
      toRow: ({ record: c }) => {
        const soft: string[] = [];
        return { values: { id: c.id, name: c.name, createdAt: createdAtOf(c.created_at, now, soft) }, soft };
      },
    },

    users: {
      table: users,
      toRow: ({ index, record: u }) => {
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
      },
    },

    api_keys: {
      table: apiKeys,
      toRow: ({ index, record: k }) => {
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
            dailyLimit: k.daily_limit ?? DEFAULT_DAILY_LIMIT,
            revokedAt,
            createdAt,
          },
          soft,
        };
      },
    },

    pin_types: {
      table: pinTypes,
      toRow: ({ index, record: t }) => ({
        values: {
          companyId: t.company_id,
          id: ids.recordId("pin_types", index),
          label: t.label,
          color: t.color,
        },
      }),
    },

    pins: {
      events: "pin",
      table: pins,
      // A new pin was dropped by a knock: its first visit (extensions.md E5), by its creator.
      withInserted: {
        returning: ["createdAt", "createdBy", "pinTypeId"],
        statement: sql`insert into ${pinVisits} ("company_id", "pin_id", "at", "user_id", "pin_type_id")
          select company_id, id, created_at, created_by, pin_type_id from written where inserted`,
      },
      toRow: ({ index, record: p }) => {
        const soft: string[] = [];
        const createdAt = createdAtOf(p.created_at, now, soft);
        // The visit counters are the API's once the pin exists: a later import keeps them.
        soft.push("visitCount", "lastVisitAt");
        return {
          values: {
            companyId: p.company_id,
            id: ids.recordId("pins", index),
            pinTypeId: p.pin_type_id,
            createdBy: p.created_by,
            ...latLng(p.location),
            createdAt,
            updatedAt: createdAt,
            visitCount: 1,
            lastVisitAt: createdAt,
          },
          soft,
        };
      },
    },

    customers: {
      table: customers,
      activity: "customer",
      events: "customer",
      toRow: ({ index, record: c }) => {
        const soft: string[] = [];
        const createdAt = createdAtOf(c.created_at, now, soft);
        const archived = c.archived ?? false;
        return {
          values: {
            companyId: c.company_id,
            id: ids.recordId("customers", index),
            ...newCustomerColumns(c),
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
      },
    },

    leads: {
      table: leads,
      activity: "lead",
      events: "lead",
      toRow: ({ index, record: l }) => {
        const soft: string[] = [];
        const createdAt = createdAtOf(l.created_at, now, soft);
        const archived = l.archived ?? false;
        return {
          values: {
            companyId: l.company_id,
            id: ids.recordId("leads", index),
            ...leadColumns(l, "null"),
            stage: typeof l.stage === "string" ? storedStage(pipelines.get(l.company_id)!, l.stage) : null,
            tags: l.tags ?? [],
            archived,
            archivedAt: archivedAtOf(archived, l.archived_at, now, soft),
            createdAt,
            updatedAt: createdAt,
            ...latLng(l.location),
          },
          soft,
        };
      },
    },

    service_plans: {
      table: servicePlans,
      toRow: ({ index, record: p }) => {
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
      },
    },

    jobs: {
      table: jobs,
      toRow: ({ index, record: j }) => {
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
      },
    },
  };
}

/** The name of the savepoint that a failed write returns to (see DocumentWriter). */
const SAVEPOINT = "import_write";

/**
 * Writes checked records in file order inside the import's transaction. A refused write rolls
 * back to the savepoint but checking goes on, so every problem is listed before `finish` throws.
 */
export class DocumentWriter {
  readonly counts: ImportCounts;
  private readonly pipeline = new StatementPipeline();
  private readonly tables: SectionTables;
  private readonly hashes = new Map<number, string>();
  private readonly stagePipelines = new Map<string, Stage[]>();
  private current: { section: SectionName; upsert: SectionUpsert<SectionName> } | undefined;
  private jobEntries: ParsedDocument["jobs"] = [];
  private started = false;
  private failure: { error: unknown } | undefined;
  private done = 0;

  constructor(
    private readonly tx: Tx,
    private readonly ids: PreparedIds,
    private readonly progress: WriteProgress,
  ) {
    this.tables = sectionTables(new Date(), ids, this.hashes, this.stagePipelines);
    this.counts = Object.fromEntries(
      SECTION_NAMES.map((name) => [name, { total: 0, inserted: 0, updated: 0, unchanged: 0 }]),
    ) as unknown as ImportCounts;
    this.counts.job_children = 0;
  }

  /** Writes checked records of a section; sections come in the file's order. */
  async write<S extends SectionName>(section: S, entries: ParsedDocument[S]): Promise<void> {
    if (this.failure || entries.length === 0) return;
    await this.guard(async () => {
      if (!this.started) {
        this.started = true;
        await this.tx.execute(sql.raw(`savepoint ${SAVEPOINT}`));
      }
      if (this.current?.section !== section) await this.endSection();
      if (section === "users") {
        // Reads stored hashes: the statement in flight goes first.
        await this.pipeline.settle();
        for (const [index, hash] of await passwordHashes(
          this.tx,
          entries as ParsedDocument["users"],
          this.ids,
        ))
          this.hashes.set(index, hash);
      }
      if (section === "leads") {
        await readPipelines(this.tx, entries as ParsedDocument["leads"], this.stagePipelines, () =>
          this.pipeline.settle(),
        );
      }
      if (section === "jobs") this.jobEntries = this.jobEntries.concat(entries as ParsedDocument["jobs"]);
      this.current ??= {
        section,
        upsert: new SectionUpsert(
          this.tx,
          this.pipeline,
          this.tables[section] as unknown as SectionTable<SectionName>,
          this.counts[section],
          (n) => this.advance(n),
        ),
      };
      this.counts[section].total += entries.length;
      await this.current.upsert.add(entries);
    });
  }

  /**
   * Lets the statement in flight finish, before the transaction is used for something else (the
   * checks' look-ups): a refused write is then handled here rather than failing the next query.
   */
  async settle(): Promise<void> {
    if (this.failure) return;
    await this.guard(() => this.pipeline.settle());
  }

  /** Writes what is still buffered and the jobs' children; throws the database's refusal, if any. */
  async finish(): Promise<ImportCounts> {
    if (!this.failure) await this.guard(() => this.endSection());
    if (!this.failure) await this.guard(() => this.pipeline.settle());
    if (this.failure) throw this.failure.error;
    return this.counts;
  }

  private async endSection(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    if (!current) return;
    await current.upsert.end();
    if (current.section === "jobs") {
      this.counts.job_children = await replaceJobChildren(
        this.tx,
        this.pipeline,
        this.jobEntries,
        this.ids,
        (n) => this.advance(n),
      );
      this.jobEntries = [];
    }
  }

  private advance(n: number): void {
    this.done += n;
    this.progress(this.done);
  }

  private async guard(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.failure = { error };
      // A statement still in flight ends (or fails) before the writes are undone.
      await this.pipeline.settle().catch(() => {});
      await this.tx.execute(sql.raw(`rollback to savepoint ${SAVEPOINT}`));
    }
  }
}

/**
 * A job's visits, crew, line items and payments are replaced by the file's (when the file gives
 * that list; an absent list keeps what is stored). Delete and insert in the same transaction.
 */
async function replaceJobChildren(
  tx: Tx,
  pipeline: StatementPipeline,
  jobEntries: ParsedDocument["jobs"],
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
    for (const { index, record: job } of jobEntries) {
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
    await pipeline.settle();
    for (const [companyId, jobIds] of replaced) {
      for (let i = 0; i < jobIds.length; i += 5000)
        await tx
          .delete(table)
          .where(and(eq(table.companyId, companyId), inArray(table.jobId, jobIds.slice(i, i + 5000))));
    }
    await insertRows(tx, pipeline, table, rows, advance);
    written += rows.length;
  }
  return written;
}

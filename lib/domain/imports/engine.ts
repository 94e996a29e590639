import "server-only";
import { and, eq, getTableColumns, gt, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "@/lib/db/client";
import { importRows, imports, recordActivity, users, type ImportResultCounts } from "@/lib/db/schema";
import { changedFields, type NewActivity } from "@/lib/domain/activity/activity";
import { backgroundTurns } from "@/lib/domain/background";
import { ValidationError } from "@/lib/domain/errors";
import { loadPipeline } from "@/lib/domain/pipeline/pipeline";
import type { MatchedOn } from "@/lib/domain/upsert/upsert-record";
import { textArrayParam } from "@/lib/domain/lists/sql-fragments";
import { emitRecordEvents } from "@/lib/domain/webhooks/emit";
import { convertRow, type RowProblem } from "@/lib/import/csv/convert";
import type { ImportMapping } from "@/lib/import/csv/mapping";
import { ID_PREFIX, newId } from "@/lib/ids";
import { IMPORT_PROBLEMS_KEPT } from "@/lib/schemas/imports";
import { claimIdentities, releaseClaims, waitForEarlierWriters } from "./claims";
import { ImportCancelledError, ImportInProgressError, NoSuchImportError } from "./errors";
import { importLockKey, sharesOneConnection } from "./locks";
import { mappingProblems } from "./mapping-check";
import { recordKind, sameValue, type PreparedRow, type RecordKind, type RecordState } from "./records";
import { arrayLiteral } from "@/lib/db/array-literal";
import { insertRowsSql, updateRowsSql } from "./rows-sql";
import { ShadowKeys } from "./shadow-keys";

/**
 * The engine of a CSV import (extensions.md E9): the dry run and the import are the same run, in
 * one transaction, the dry run rolled back at its end. Rows are handled in file order as if each
 * were a POST /leads (or /customers) call, a batch at a time: one lookup of the batch's ids, phones
 * and emails, the matching in memory, then one insert and one update per batch.
 */

/** Staged rows per batch: each statement stays small, whatever the file. */
export const IMPORT_BATCH_ROWS = 2_000;

export interface RunImportInput {
  companyId: string;
  importId: string;
  mapping: ImportMapping;
  dryRun: boolean;
  /** Called after each batch, inside the run (never with the run's transaction). */
  onProgress?: (done: number, total: number) => void | Promise<void>;
  /** Aborted: the run stops between batches and rolls back (ImportCancelledError). */
  signal?: AbortSignal;
  /** Rows per batch (tests cross batch boundaries with small files). */
  batchRows?: number;
  /** The width of the dry run's key hashes (tests make every key collide with a small one). */
  shadowKeyBits?: number;
}

export interface RunImportOutput {
  result: ImportResultCounts;
  /** Sorted by row, the first 10,000. */
  problems: RowProblem[];
  problemCount: number;
}

/**
 * The dry run's table of what it would write (temporary: dropped with its transaction), one row
 * per slot; it is looked up by slot only, the slots found through the run's ShadowKeys.
 */
const SHADOW = "import_dry_run_shadow";

/** Thrown to roll the run's transaction back once its outcome is known. */
class RunRollback extends Error {}

/** The engine: dry run (rolled back) or import (committed) of an uploaded import with this mapping. */
export async function runImport(db: Db, input: RunImportInput): Promise<RunImportOutput> {
  const { companyId, importId } = input;
  const [stored] = await db
    .select({ type: imports.type, headers: imports.headers, rowCount: imports.rowCount })
    .from(imports)
    .where(and(eq(imports.companyId, companyId), eq(imports.id, importId)));
  if (!stored) throw new NoSuchImportError();
  const problems = mappingProblems(stored.type, stored.headers, input.mapping);
  if (problems.length > 0) throw new ValidationError(problems);

  // On PostgreSQL the identities the import may create are claimed (committed) first, so a
  // concurrent create-or-update of one of them waits for the run instead of making a duplicate.
  const shared = sharesOneConnection(db);
  const claims =
    !input.dryRun && !shared
      ? await claimIdentities(db, { companyId, importId, type: stored.type, mapping: input.mapping })
      : undefined;
  let output: RunImportOutput | undefined;
  try {
    await db.transaction(async (tx) => {
      const [lock] = (
        await tx.execute<{ locked: boolean }>(
          sql`select pg_try_advisory_xact_lock(${importLockKey(companyId)}) as locked`,
        )
      ).rows;
      if (!lock?.locked) throw new ImportInProgressError(undefined);
      if (claims) await waitForEarlierWriters(tx, claims.snapshot);
      const kind = recordKind(stored.type, await companyRules(tx, companyId, stored.type));
      const run = new BatchRun(tx, kind, companyId, stored.headers, input.mapping, input.dryRun, !shared);
      await run.setUp(input.shadowKeyBits);
      const batchRows = input.batchRows ?? IMPORT_BATCH_ROWS;
      const staged = (after: number) =>
        tx
          // As JSON: the drivers parse it natively, a text[] character by character.
          .select({ row: importRows.row, values: sql<string[]>`array_to_json(${importRows.values})` })
          .from(importRows)
          .where(
            and(
              eq(importRows.companyId, companyId),
              eq(importRows.importId, importId),
              gt(importRows.row, after),
            ),
          )
          .orderBy(importRows.row)
          .limit(batchRows);
      // The next batch is read and converted while the previous one is written.
      let next = staged(0);
      let writing: Promise<number> | undefined;
      let done = 0;
      for (;;) {
        const batch = await next;
        if (batch.length > 0) next = staged(batch[batch.length - 1]!.row);
        const prepared = await run.prepare(batch);
        if (writing) {
          done += await writing;
          await input.onProgress?.(done, stored.rowCount);
        }
        if (batch.length === 0) break;
        if (input.signal?.aborted) throw new ImportCancelledError();
        writing = run.apply(prepared).then(() => batch.length);
        // Awaited at the next batch or the end; this keeps a failure from counting as unhandled meanwhile.
        writing.catch(() => {});
      }
      output = run.output();
      if (input.dryRun || output.result.refused > 0) throw new RunRollback();
    });
  } catch (error) {
    if (!(error instanceof RunRollback)) throw error;
  } finally {
    if (claims) await releaseClaims(db, companyId, importId);
  }
  return output!;
}

/** What the lead rules check against: the pipeline (stage by key or label) and the users. */
async function companyRules(tx: DbOrTx, companyId: string, type: "leads" | "customers") {
  if (type === "customers") return { pipeline: [], userIds: new Set<string>() };
  const [pipeline, owners] = await Promise.all([
    loadPipeline(tx, companyId),
    tx.select({ id: users.id }).from(users).where(eq(users.companyId, companyId)),
  ]);
  return { pipeline, userIds: new Set(owners.map((u) => u.id)) };
}

/** A batch's rows in file order: prepared, or refused with their problems. */
type PreparedBatch = ({ row: number; ask: PreparedRow } | { row: number; problems: RowProblem[] })[];

/** A record the batch knows: as stored (or created), and as the batch leaves it. */
interface KnownRecord {
  state: RecordState;
  /** As stored before this batch (a created record: as created). */
  original: RecordState;
  /** Newest first: created_at, then id (records the run creates are the newest). */
  sortKey: string;
  /** Inserted by this batch. */
  created: boolean;
  /** A stored record this batch changed. */
  dirty: boolean;
  /** The dry run's shadow row of the record, once it has one. */
  slot?: number;
}

/** The newest of some records, as matching picks it (created_at desc, id desc). */
function newest(records: Iterable<KnownRecord>): KnownRecord | undefined {
  let best: KnownRecord | undefined;
  for (const record of records) {
    if (
      !best ||
      record.sortKey > best.sortKey ||
      (record.sortKey === best.sortKey && record.state.id > best.state.id)
    ) {
      best = record;
    }
  }
  return best;
}

/** The run's counts and problems across batches, and one batch's work. */
class BatchRun {
  private readonly result: ImportResultCounts = {
    created: 0,
    updated: 0,
    refused: 0,
    matched_on: { id: 0, phone: 0, email: 0 },
  };
  private readonly problems: RowProblem[] = [];
  private problemCount = 0;
  private createdCount = 0;
  /** The dry run's shadow rows by id, phone and email. */
  private shadowKeys = new ShadowKeys();
  private shadowSlots = 0;
  private readonly columnOf: Map<string, string>;
  private readonly selected: Record<string, PgColumn>;
  /**
   * The run is background work (lib/domain/background): it gives way to requests between rows,
   * and between a batch's statements for about as long as the last one took.
   */
  private readonly turn: () => Promise<void>;
  private readonly writeTurn: () => Promise<void>;

  constructor(
    private readonly tx: DbOrTx,
    private readonly kind: RecordKind,
    private readonly companyId: string,
    private readonly headers: string[],
    private readonly mapping: ImportMapping,
    private readonly dryRun: boolean,
    /** False on the embedded database: the run holds the one connection requests wait for. */
    waitForRequests: boolean,
  ) {
    // The column a field came from, so a refusal names it as the file does.
    this.columnOf = new Map();
    mapping.forEach((field, i) => {
      if (field && !this.columnOf.has(field)) this.columnOf.set(field, headers[i] ?? "");
    });
    this.selected = getTableColumns(kind.table) as Record<string, PgColumn>;
    this.turn = backgroundTurns({ waitForRequests });
    this.writeTurn = backgroundTurns({ waitForRequests });
  }

  /**
   * A dry run writes no record: what it would create or change goes to a temporary table of
   * identities and tags (no triggers, no list counts), which later batches match against. Its
   * only index is the slot's: which slots hold an id, phone or email is kept in memory
   * (ShadowKeys), so no batch searches the growing table.
   */
  async setUp(shadowKeyBits?: number): Promise<void> {
    if (!this.dryRun) return;
    this.shadowKeys = new ShadowKeys(shadowKeyBits);
    await this.tx.execute(
      sql.raw(`create temporary table ${SHADOW} (slot integer primary key, id text not null,
      phone text, email text, sort_key text not null, tags text[] not null) on commit drop`),
    );
  }

  /** The dry run's write: the touched records' identities and tags into the shadow table. */
  private async shadow(touched: KnownRecord[]): Promise<void> {
    if (touched.length === 0) return;
    for (const record of touched) {
      const { state } = record;
      if (record.slot === undefined) {
        record.slot = this.shadowSlots++;
        // A record the run creates has a new id no row can name; a stored one's id is looked up.
        if (!record.created) this.shadowKeys.add("id", state.id, record.slot);
      }
      if (state.phoneNormalized) this.shadowKeys.add("phone", state.phoneNormalized, record.slot);
      if (state.emailNormalized) this.shadowKeys.add("email", state.emailNormalized, record.slot);
    }
    const states = touched.map((r) => r.state);
    const column = (values: unknown[]) => arrayLiteral(values);
    await this.tx.execute(sql`insert into ${sql.raw(SHADOW)} (slot, id, phone, email, sort_key, tags)
      select u.slot, u.id, u.phone, u.email, u.sort_key, u.tags::text[]
      from unnest(${column(touched.map((r) => r.slot))}::integer[], ${column(states.map((s) => s.id))}::text[],
        ${column(states.map((s) => s.phoneNormalized))}::text[], ${column(states.map((s) => s.emailNormalized))}::text[],
        ${column(touched.map((r) => r.sortKey))}::text[], ${column(states.map((s) => s.tags))}::text[])
        as u(slot, id, phone, email, sort_key, tags)
      on conflict (slot) do update set phone = excluded.phone, email = excluded.email, tags = excluded.tags`);
  }

  /**
   * The shadow rows that may hold one of these ids, phones or emails (hash candidates: the caller
   * compares the values), in one lookup by slot.
   */
  private async shadowRows(ids: Iterable<string>, phones: Set<string>, emails: Set<string>) {
    const slots = new Set<number>();
    this.shadowKeys.collect("id", ids, slots);
    this.shadowKeys.collect("phone", phones, slots);
    this.shadowKeys.collect("email", emails, slots);
    if (slots.size === 0) return [];
    const found = await this.tx.execute<{
      slot: number;
      id: string;
      phone: string | null;
      email: string | null;
      sort_key: string;
      tags: string[];
    }>(sql`select slot, id, phone, email, sort_key, tags from ${sql.raw(SHADOW)}
      where slot = any(${arrayLiteral([...slots])}::integer[])`);
    return found.rows;
  }

  output(): RunImportOutput {
    return { result: this.result, problems: this.problems, problemCount: this.problemCount };
  }

  private refuse(_row: number, problems: RowProblem[]) {
    this.result.refused++;
    this.problemCount += problems.length;
    for (const problem of problems) {
      if (this.problems.length < IMPORT_PROBLEMS_KEPT) this.problems.push(problem);
    }
  }

  private fieldProblem(row: number, field: string | null, reason: string): RowProblem {
    const column = field ? (this.columnOf.get(field) ?? null) : null;
    return { row, column, field, reason };
  }

  /**
   * A batch's rows converted as POST would validate their bodies, then prepared as POST would:
   * in memory only, so it runs while the database writes the previous batch.
   */
  async prepare(staged: { row: number; values: string[] }[]): Promise<PreparedBatch> {
    const { kind } = this;
    const rows: PreparedBatch = [];
    for (const record of staged) {
      await this.turn();
      const converted = convertRow(kind.type, this.headers, this.mapping, record);
      if (!converted.ok) {
        rows.push({ row: record.row, problems: converted.problems });
        continue;
      }
      const ask = kind.prepare(converted.input);
      if (Array.isArray(ask)) {
        rows.push({
          row: record.row,
          problems: ask.map((r) => this.fieldProblem(record.row, r.field, r.reason)),
        });
        continue;
      }
      rows.push({ row: record.row, ask });
    }
    return rows;
  }

  /** A prepared batch matched and written, its refusals counted in row order. */
  async apply(batch: PreparedBatch): Promise<void> {
    const { kind } = this;
    const prepared: { row: number; ask: PreparedRow }[] = [];
    for (const entry of batch) if ("ask" in entry) prepared.push(entry);
    await this.writeTurn();
    const known = await this.lookup(prepared.map((p) => p.ask));
    const byPhone = new Map<string, Set<KnownRecord>>();
    const byEmail = new Map<string, Set<KnownRecord>>();
    const index = (record: KnownRecord, add: boolean) => {
      for (const [map, key] of [
        [byPhone, record.state.phoneNormalized],
        [byEmail, record.state.emailNormalized],
      ] as const) {
        if (!key) continue;
        let set = map.get(key);
        if (!set) map.set(key, (set = new Set()));
        if (add) set.add(record);
        else set.delete(record);
      }
    };
    for (const record of known.values()) index(record, true);

    const touched: KnownRecord[] = [];
    for (const entry of batch) {
      await this.writeTurn();
      if (!("ask" in entry)) {
        this.refuse(entry.row, entry.problems);
        continue;
      }
      const { row, ask } = entry;
      let match: { record: KnownRecord; on: MatchedOn } | undefined;
      if (ask.keys.id !== undefined) {
        const record = known.get(ask.keys.id);
        if (!record) {
          this.refuse(row, [this.fieldProblem(row, "id", `no ${kind.noun} with this id`)]);
          continue;
        }
        match = { record, on: "id" };
      } else {
        const phone = ask.keys.phone ? newest(byPhone.get(ask.keys.phone) ?? []) : undefined;
        const email = !phone && ask.keys.email ? newest(byEmail.get(ask.keys.email) ?? []) : undefined;
        if (phone) match = { record: phone, on: "phone" };
        else if (email) match = { record: email, on: "email" };
      }

      if (!match) {
        const sortKey = `~${String(this.createdCount++).padStart(10, "0")}`;
        // A dry run's new record is never stored: its sort key (no stored id starts so) names it.
        const id = this.dryRun
          ? sortKey
          : newId(kind.recordType === "lead" ? ID_PREFIX.lead : ID_PREFIX.customer);
        const state = {
          ...ask.create,
          id,
          companyId: this.companyId,
          tags: ask.tags,
        } as unknown as RecordState;
        const record: KnownRecord = {
          state,
          original: state,
          sortKey,
          created: true,
          dirty: false,
        };
        known.set(id, record);
        index(record, true);
        touched.push(record);
        this.result.created++;
        continue;
      }

      const { record } = match;
      const after = kind.updated(record.state, ask);
      if (Array.isArray(after)) {
        this.refuse(
          row,
          after.map((r) => this.fieldProblem(row, r.field, r.reason)),
        );
        continue;
      }
      this.result.updated++;
      this.result.matched_on[match.on]++;
      if (!this.differs(record.state, after)) continue;
      index(record, false);
      record.state = after;
      index(record, true);
      if (!record.created && !record.dirty) {
        record.dirty = true;
        touched.push(record);
      }
    }

    await this.write(touched);
  }

  /** Whether a record's columns (tags included) differ between two states. */
  private differs(a: RecordState, b: RecordState): boolean {
    return this.kind.columns.some((column) => !sameValue(a[column], b[column])) || !sameValue(a.tags, b.tags);
  }

  /**
   * The stored records the batch's ids, phones and emails name, locked until the run ends, in
   * one statement (the run's transaction sees its earlier batches).
   */
  private async lookup(asks: PreparedRow[]): Promise<Map<string, KnownRecord>> {
    const ids = new Set<string>();
    const phones = new Set<string>();
    const emails = new Set<string>();
    for (const { keys } of asks) {
      if (keys.id !== undefined) ids.add(keys.id);
      else {
        if (keys.phone) phones.add(keys.phone);
        if (keys.email) emails.add(keys.email);
      }
    }
    const known = new Map<string, KnownRecord>();
    if (ids.size + phones.size + emails.size === 0) return known;
    const table = this.kind.table;
    const textArray = (values: Set<string>) => textArrayParam([...values]);
    const named = (id: SQL, phone: SQL, email: SQL) =>
      sql`(${id} = any(${textArray(ids)}) or ${phone} = any(${textArray(phones)}) or ${email} = any(${textArray(emails)}))`;
    const select = this.tx
      .select({
        ...this.selected,
        sortKey: sql<string>`to_char(${table.createdAt} at time zone 'UTC', 'YYYYMMDDHH24MISSUS')`,
      })
      .from(table);
    const matching = and(
      eq(table.companyId, this.companyId),
      named(sql`${table.id}`, sql`${table.phoneNormalized}`, sql`${table.emailNormalized}`),
    );
    let rows: Record<string, unknown>[];
    if (this.dryRun) {
      rows = await select.where(matching);
      // A record the dry run touched is as its shadow row says; the stored row is what it was
      // before. The stored rows' own ids are looked up too, so that every one shadowed is seen.
      const storedIds = rows.map((row) => String(row.id));
      const shadowed = new Set<string>();
      for (const row of await this.shadowRows([...ids, ...storedIds], phones, emails)) {
        shadowed.add(row.id);
        const asked =
          ids.has(row.id) ||
          (row.phone !== null && phones.has(row.phone)) ||
          (row.email !== null && emails.has(row.email));
        if (!asked) continue;
        const state = { id: row.id, phoneNormalized: row.phone, emailNormalized: row.email, tags: row.tags };
        known.set(row.id, {
          state,
          original: state,
          sortKey: row.sort_key,
          created: false,
          dirty: false,
          slot: row.slot,
        });
      }
      rows = rows.filter((row) => !shadowed.has(String(row.id)));
    } else {
      rows = await select.where(matching).for("update");
    }
    for (const row of rows) {
      const { sortKey, ...state } = row as Record<string, unknown> & { sortKey: string };
      known.set(String(state.id), {
        state: state as RecordState,
        original: state as RecordState,
        sortKey,
        created: false,
        dirty: false,
      });
    }
    return known;
  }

  /**
   * One insert of the batch's new records, one update of the changed ones, their activity (one
   * entry per record: created, or updated with the batch's net changes) and their events. A record
   * the batch changed and changed back is not written: importing a file twice changes nothing.
   */
  private async write(touched: KnownRecord[]): Promise<void> {
    const { kind, tx, companyId } = this;
    if (this.dryRun) return this.shadow(touched);
    const created = touched.filter((r) => r.created).map((r) => r.state);
    const changed = touched.filter((r) => r.dirty && this.differs(r.original, r.state));
    const updated = changed.map((r) => r.state);
    if (created.length > 0) {
      await this.writeTurn();
      await tx.execute(insertRowsSql(kind.table, ["companyId", "id", ...kind.columns, "tags"], created));
    }
    if (updated.length > 0) {
      await this.writeTurn();
      const now = new Date();
      await tx.execute(
        updateRowsSql(
          kind.table,
          companyId,
          ["id", ...kind.columns, "tags", "updatedAt"],
          updated.map((state) => ({ ...state, updatedAt: now })),
        ),
      );
    }
    const activity: NewActivity[] = created.map((state) => ({
      recordType: kind.recordType,
      recordId: state.id,
      type: "created",
    }));
    for (const record of changed) {
      await this.writeTurn();
      const changes = changedFields(kind.answer(record.original), kind.answer(record.state), kind.ignore);
      if (changes.length > 0) {
        activity.push({ recordType: kind.recordType, recordId: record.state.id, type: "updated", changes });
      }
    }
    if (activity.length > 0) {
      await this.writeTurn();
      // One statement of array parameters (addActivity binds each value: thousands per batch).
      const rows = activity.map((entry) => ({
        companyId,
        recordType: entry.recordType,
        recordId: entry.recordId,
        type: entry.type,
        actorKind: "import",
        changes: JSON.stringify(entry.changes ?? []),
      }));
      await tx.execute(
        insertRowsSql(
          recordActivity,
          ["companyId", "recordType", "recordId", "type", "actorKind", "changes"],
          rows,
        ),
      );
    }
    await this.writeTurn();
    await emitRecordEvents(tx, companyId, kind.recordType, {
      created: created.map((s) => s.id),
      updated: updated.map((s) => s.id),
    });
  }
}

import "server-only";
import { and, eq, getTableName, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, AnyPgTable, PgTable, SelectedFieldsFlat } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "@/lib/db/client";
import type { ActivityRecordType } from "@/lib/db/schema";
import { addActivity, changedFields, type ActivityActor } from "@/lib/domain/activity/activity";
import { emitRecordEvents } from "@/lib/domain/webhooks/emit";
import { claimedIdentityWait, importClaiming } from "@/lib/domain/imports/claims";
import { ImportInProgressError } from "@/lib/domain/imports/errors";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { ValidationError } from "@/lib/domain/errors";
import { newestFirst } from "@/lib/domain/lists/newest-list";
import { mergedTags, withoutTags } from "@/lib/domain/normalize";
import { DRY_RUN_MESSAGE } from "@/lib/schemas/upsert-fields";

// Create-or-update of a lead or customer (contract section 6): matching, identity locks and the
// write; each resource brings its own values, validation and fields.

/** What create-or-update needs of a table: tenant key, normalized identities, creation time, tags. */
export type UpsertTable = AnyPgTable & {
  companyId: AnyPgColumn;
  id: AnyPgColumn;
  phoneNormalized: AnyPgColumn;
  emailNormalized: AnyPgColumn;
  createdAt: AnyPgColumn;
  updatedAt: AnyPgColumn;
  tags: AnyPgColumn;
};

/** How a call names the record it updates: its id, else its normalized phone, else email. */
export interface MatchKeys {
  id?: string | undefined;
  phone: string | null;
  email: string | null;
}

/** Column values by field name; on an update a value may be SQL over the stored row's columns. */
export type ColumnValues<T extends UpsertTable> = {
  [K in keyof T["$inferInsert"]]?: T["$inferInsert"][K] | SQL;
};

export interface UpsertSpec<T extends UpsertTable> {
  table: T;
  /** The record's fields (recordFields): what the write returns. */
  fields: SelectedFieldsFlat;
  companyId: string;
  keys: MatchKeys;
  /** What an update sets: the fields present in the body (tags and updated_at are added here). */
  update: ColumnValues<T>;
  /** A new record's columns, company_id and tags left out (added here). */
  create: Omit<T["$inferInsert"], "companyId" | "tags">;
  /** The body's tags, de-duplicated (uniqueTags): appended to an update's stored ones. */
  tags: readonly string[];
  /** Tags taken out after the merge (the dashboard's Undo of added tags); none: empty or absent. */
  removeTags?: readonly string[];
  /** At most this many tags after merging; more: tooManyTags(count) is thrown, nothing written. */
  maxTags: number;
  /** "auto" (default): match as above; "none": always create (keys.id must then be absent). */
  match?: "auto" | "none";
  notFound: () => Error;
  tooManyTags: (count: number) => Error;
  /** The record's activity entry (extensions.md E3), written in the write's transaction. */
  activity: UpsertActivity;
}

/** What the activity entry of a create-or-update needs. */
export interface UpsertActivity {
  recordType: ActivityRecordType;
  actor: ActivityActor;
  /**
   * The record as GET answers it, of a row of spec.fields: an update's changes are those of the
   * answer, and the record's webhook event carries it.
   */
  answer: (row: never) => object;
  /** Answer fields an update's changes leave out (set by every write, or not the caller's). */
  ignore: ReadonlySet<string>;
}

/** What a create-or-update matched: the record named by `id`, or one with the same phone or email. */
export type MatchedOn = "id" | "phone" | "email";

/** What a create-or-update did (or, in a dry run, would do). */
export interface UpsertOutcome<R> {
  created: boolean;
  /** null when the record was created. */
  matchedOn: MatchedOn | null;
  row: R;
}

/**
 * Create-or-update (contract section 6): by id, else newest phone match, else email, else create.
 * Identity locks take their own statement, so the match's snapshot sees a waited-for call's record.
 */
export async function upsertRecord<T extends UpsertTable, R = { id: string }>(
  db: Db,
  spec: UpsertSpec<T>,
): Promise<UpsertOutcome<R>> {
  try {
    return await db.transaction(async (tx) => (await upsertRecordIn<R>(tx, spec)).outcome);
  } catch (error) {
    throw (await waitedForImport(db, spec, error)) ?? error;
  }
}

/**
 * A call that timed out waiting for a running import (it claimed the call's phone or email) is
 * told so, as a conflict to retry later, rather than as the database being unavailable.
 */
async function waitedForImport(db: Db, spec: UpsertSpec<UpsertTable>, error: unknown) {
  if (!needsLocks(spec) || !isDatabaseUnavailable(error)) return undefined;
  const running = await importClaiming(db, getTableName(spec.table), spec.companyId, spec.keys).catch(
    () => undefined,
  );
  if (!running) return undefined;
  return new ImportInProgressError(
    running,
    `An import (${running}) is writing a record with this phone or email; try again when it ends`,
  );
}

/**
 * upsertRecord in the caller's transaction: also answers the matched record as it was before the
 * write (null when none).
 */
export async function upsertRecordIn<R>(
  tx: DbOrTx,
  spec: UpsertSpec<UpsertTable>,
  options: { events?: boolean } = {},
): Promise<{ outcome: UpsertOutcome<R>; before: R | null }> {
  const match = await findMatch(tx, spec);
  const before = match ? await selectRecord<R>(tx, spec, match.id) : null;
  if (match && !before) throw spec.notFound();
  const outcome = await write<R>(tx, spec, match);
  const { recordType, actor, ignore } = spec.activity;
  const answer = spec.activity.answer as (row: R) => Record<string, unknown>;
  const record = outcome.row as { id: string };
  const after = answer(outcome.row);
  // The event's payload is the written row as GET answers it: no second read.
  const records = new Map([[record.id, after]]);
  if (!before) {
    await addActivity(tx, spec.companyId, actor, [{ recordType, recordId: record.id, type: "created" }]);
    // A caller that changes the record again (a conversion) emits the event itself, once.
    if (options.events !== false)
      await emitRecordEvents(tx, spec.companyId, recordType, { created: [record.id], records });
  } else {
    const changes = changedFields(answer(before), after, ignore);
    // An update that changed nothing leaves no entry.
    if (changes.length > 0) {
      await addActivity(tx, spec.companyId, actor, [
        { recordType, recordId: record.id, type: "updated", changes },
      ]);
      if (options.events !== false) {
        await emitRecordEvents(tx, spec.companyId, recordType, { updated: [record.id], records });
      }
    }
  }
  return { outcome, before };
}

/**
 * The body's `match` (extensions E1), default "auto". "none" creates a new record, so naming the
 * record to update by `id` as well is a contradiction: a 400 naming `match`.
 */
export function matchOption(input: { id?: string | undefined; match?: "auto" | "none" | undefined }) {
  if (input.match === "none" && input.id !== undefined) {
    throw new ValidationError([{ field: "match", message: 'must not be "none" when an id is given' }]);
  }
  return input.match ?? "auto";
}

/** Thrown to roll a dry run's transaction back. */
class DryRunRollback extends Error {}

/**
 * Runs `work` as the real call would, then rolls back everything it and the triggers wrote.
 * Answers what `work` returned, with the real call's errors.
 */
export async function inRolledBackTransaction<T>(db: Db, work: (tx: DbOrTx) => Promise<T>): Promise<T> {
  let answer: { value: T } | undefined;
  try {
    await db.transaction(async (tx) => {
      answer = { value: await work(tx) };
      throw new DryRunRollback();
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
  }
  return answer!.value;
}

/** A record in a dry run's answer: its id only when it exists (a rolled-back insert's id never does). */
export type DryRunRecord<A extends { id: string }> = Omit<A, "id"> & { id?: string };

/** The record `created` says was inserted by the rolled-back work, without the id it got. */
export function dryRunRecord<A extends { id: string }>(record: A, created: boolean): DryRunRecord<A> {
  if (!created) return record;
  const copy: DryRunRecord<A> = { ...record };
  delete copy.id;
  return copy;
}

/** The answer of a create-or-update's dry run (extensions E1). */
export interface DryRunAnswer<E, A extends { id: string }> {
  status: "success";
  message: typeof DRY_RUN_MESSAGE;
  dry_run: true;
  matched_on: MatchedOn | null;
  existing: E | null;
  result: DryRunRecord<A>;
}

/**
 * A dry run of upsertRecord, rolled back: answers what matched, the matched record before the
 * write (`existing`, or null) and the call's answer (without an id when it would create).
 */
export async function dryRunUpsertRecord<T extends UpsertTable, R, E, A extends { id: string }>(
  db: Db,
  spec: UpsertSpec<T>,
  toExisting: (row: R) => E,
  toResult: (row: R, matchedOn: MatchedOn | null) => A,
): Promise<DryRunAnswer<E, A>> {
  return inRolledBackTransaction(db, async (tx) => {
    const { outcome, before } = await upsertRecordIn<R>(tx, spec);
    return {
      status: "success",
      message: DRY_RUN_MESSAGE,
      dry_run: true,
      matched_on: outcome.matchedOn,
      existing: before && toExisting(before),
      result: dryRunRecord(toResult(outcome.row, outcome.matchedOn), outcome.created),
    };
  });
}

/** Whether matching needs the identity locks: a phone or email to match by. */
const needsLocks = (spec: UpsertSpec<UpsertTable>) =>
  spec.match !== "none" && Boolean(spec.keys.phone || spec.keys.email);

/**
 * The record to update and what it matched on, or undefined to create. Phone or email take the
 * identity locks first (tx must be a transaction); an id is taken as given.
 */
async function findMatch(
  tx: DbOrTx,
  spec: UpsertSpec<UpsertTable>,
): Promise<{ id: string; on: MatchedOn } | undefined> {
  const { keys } = spec;
  if (spec.match === "none") return undefined;
  if (needsLocks(spec)) await lockIdentities(tx, spec.table, spec.companyId, keys);
  if (keys.id !== undefined) return { id: keys.id, on: "id" };
  if (!needsLocks(spec)) return undefined;
  return matchByIdentity(tx, spec.table, spec.companyId, keys);
}

/** The update of the match, or the insert of a new record. */
async function write<R>(
  tx: DbOrTx,
  spec: UpsertSpec<UpsertTable>,
  match: { id: string; on: MatchedOn } | undefined,
): Promise<UpsertOutcome<R>> {
  if (!match) return { created: true, matchedOn: null, row: await insertRecord<R>(tx, spec) };
  return { created: false, matchedOn: match.on, row: await updateRecord<R>(tx, spec, match.id) };
}

/** The stored record with that id (spec.fields), locked until the transaction ends, or null. */
async function selectRecord<R>(tx: DbOrTx, spec: UpsertSpec<UpsertTable>, id: string): Promise<R | null> {
  const table = spec.table as UpsertTable & PgTable;
  const [row] = await tx
    .select(spec.fields)
    .from(table)
    .where(and(eq(table.companyId, spec.companyId), eq(table.id, id)))
    .for("update");
  return (row as R | undefined) ?? null;
}

/** The insert of a new record: spec.create, the tenant and the tags. */
async function insertRecord<R>(tx: DbOrTx, spec: UpsertSpec<UpsertTable>): Promise<R> {
  const removed = new Set(spec.removeTags);
  const tags = spec.tags.filter((tag) => !removed.has(tag));
  const values = { ...spec.create, companyId: spec.companyId, tags };
  const [row] = await tx
    .insert(spec.table as PgTable)
    .values(values as never)
    .returning(spec.fields);
  return row as R;
}

/**
 * Updates the record with that id in one statement; nothing is written and it throws when there
 * is no such record or the merged tags would be too many.
 */
async function updateRecord<R>(tx: DbOrTx, spec: UpsertSpec<UpsertTable>, id: string): Promise<R> {
  const { companyId } = spec;
  const table = spec.table as UpsertTable & PgTable;
  const added = mergedTags(table.tags, sql.param(spec.tags, table.tags));
  const merged = spec.removeTags?.length ? withoutTags(added, sql.param(spec.removeTags, table.tags)) : added;
  const record = and(eq(table.companyId, companyId), eq(table.id, id));
  const [row] = await tx
    .update(table)
    .set({ ...spec.update, tags: merged, updatedAt: new Date() } as never)
    .where(and(record, sql`cardinality(${merged}) <= ${spec.maxTags}`))
    .returning(spec.fields);
  if (row) return row as R;
  // Nothing written: say why (the error path only).
  const [stored] = await tx
    .select({ count: sql<number>`cardinality(${merged})` })
    .from(table)
    .where(record);
  if (!stored) throw spec.notFound();
  throw spec.tooManyTags(Number(stored.count));
}

/**
 * One advisory lock per normalized identity (phone, then email: a fixed order, so no deadlock),
 * so concurrent calls with the same new identity serialize and the second finds the first's record.
 * An identity a CSV import claimed also waits for that import (lib/domain/imports/claims.ts).
 */
export async function lockIdentities(
  tx: DbOrTx,
  table: UpsertTable,
  companyId: string,
  identities: { phone: string | null; email: string | null },
): Promise<void> {
  const kind = getTableName(table);
  const keys: SQL[] = [];
  if (identities.phone) keys.push(lockKey(`${kind}:phone:${companyId}:${identities.phone}`));
  if (identities.email) keys.push(lockKey(`${kind}:email:${companyId}:${identities.email}`));
  if (keys.length === 0) return;
  // An identity a running CSV import claimed waits for the import, then matches its record.
  const importWait = claimedIdentityWait(kind, companyId, identities);
  if (importWait) keys.push(importWait);
  // The target list is evaluated left to right: phone before email.
  await tx.execute(sql`select ${sql.join(keys, sql`, `)}`);
}

const lockKey = (key: string) => sql`pg_advisory_xact_lock(hashtextextended(${key}, 0))`;

/**
 * The id of the record these keys update, locked `for update`, or undefined to create (an unknown
 * id too). One statement.
 */
export async function findRecordToUpdate(
  tx: DbOrTx,
  table: UpsertTable,
  companyId: string,
  keys: MatchKeys,
): Promise<string | undefined> {
  if (keys.id !== undefined) {
    const target = sql`select ${table.id} from ${table}
      where ${table.companyId} = ${companyId} and ${table.id} = ${keys.id} for update`;
    const { rows } = await tx.execute<{ id: string }>(target);
    return rows[0]?.id;
  }
  return (await matchByIdentity(tx, table, companyId, keys))?.id;
}

/**
 * The locked record this phone and email would update, and what it matched on. The identity
 * locks come first (tx must be a transaction), so a concurrent same-identity upsert waits.
 */
export async function lockAndMatchIdentity(
  tx: DbOrTx,
  table: UpsertTable,
  companyId: string,
  identities: { phone: string | null; email: string | null },
): Promise<{ id: string; on: "phone" | "email" } | undefined> {
  await lockIdentities(tx, table, companyId, identities);
  return matchByIdentity(tx, table, companyId, identities);
}

/**
 * findRecordToUpdate without an id: the record matched by phone or email and which of them it
 * matched on, locked, or undefined.
 */
async function matchByIdentity(
  tx: DbOrTx,
  table: UpsertTable,
  companyId: string,
  keys: MatchKeys,
): Promise<{ id: string; on: "phone" | "email" } | undefined> {
  const target = targetDefinition(table, companyId, keys);
  if (!target) return undefined;
  const { rows } = await tx.execute<{ id: string; on: "phone" | "email" }>(
    sql`with ${target} select id, "on" from target`,
  );
  const row = rows[0];
  return row && { id: row.id, on: row.on };
}

/**
 * `target as (…)`: the locked id to update and what matched. Phone and email are separate CTEs: one
 * "phone first" query could lock a row that matches only by email once re-checked (see the test).
 */
function targetDefinition(table: UpsertTable, companyId: string, keys: MatchKeys): SQL | undefined {
  const newest = (name: string, where: SQL) =>
    sql`${sql.identifier(name)} as (select ${table.id} from ${table}
      where ${table.companyId} = ${companyId} and ${where}
      order by ${sql.join(newestFirst(table.createdAt, table.id), sql`, `)} limit 1 for update)`;
  const byPhone = keys.phone ? sql`${table.phoneNormalized} = ${keys.phone}` : undefined;
  const byEmail = keys.email ? sql`${table.emailNormalized} = ${keys.email}` : undefined;
  if (byPhone && byEmail) {
    return sql`${newest("by_phone", byPhone)},
      ${newest("by_email", sql`${byEmail} and not exists (select from by_phone)`)},
      target as (select id, 'phone' as "on" from by_phone union all select id, 'email' from by_email)`;
  }
  if (byPhone)
    return sql`${newest("by_phone", byPhone)}, target as (select id, 'phone' as "on" from by_phone)`;
  if (byEmail)
    return sql`${newest("by_email", byEmail)}, target as (select id, 'email' as "on" from by_email)`;
  return undefined;
}

import { and, eq, getTableName, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, AnyPgTable, PgTable, SelectedFieldsFlat } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "@/lib/db/client";
import { newestFirst } from "@/lib/domain/lists/newest-list";
import { mergedTags } from "@/lib/domain/normalize";

/**
 * Create-or-update of a lead or customer (contract section 6): matching by id, phone or email,
 * the identity locks that serialize concurrent calls, and the write. Each resource brings its own
 * values, validation and record fields.
 */

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
  /** At most this many tags after merging; more: tooManyTags(count) is thrown, nothing written. */
  maxTags: number;
  notFound: () => Error;
  tooManyTags: (count: number) => Error;
}

/**
 * Create-or-update of one record (contract section 6): the record with keys.id (none: notFound),
 * else the newest of the company's records whose normalized phone matches, else the newest whose
 * normalized email matches (archived ones too), else a new one. An update sets spec.update and
 * appends the new tags (merged in SQL: the stored row as it is when written); a create inserts
 * spec.create. The row returned holds spec.fields.
 *
 * - only an id: one `update … returning` (no transaction: its row lock serializes it with other
 *   writers of the row, and it creates nothing);
 * - nothing to match by (no id, phone or email): one `insert … returning`;
 * - a phone or an email: in a transaction, lockIdentities, one matching statement, then the update
 *   or the insert. The lock has a statement of its own: a statement's snapshot is taken when it
 *   starts, so a match in the locking statement would miss the record that the call it waited for
 *   has just created.
 */
export async function upsertRecord<T extends UpsertTable, R = { id: string }>(
  db: Db,
  spec: UpsertSpec<T>,
): Promise<{ created: boolean; row: R }> {
  const { keys } = spec;
  if (keys.id === undefined && !keys.phone && !keys.email) {
    return { created: true, row: await insertRecord<R>(db, spec) };
  }
  if (!keys.phone && !keys.email) return { created: false, row: await updateRecord<R>(db, spec, keys.id!) };
  return db.transaction(async (tx) => {
    await lockIdentities(tx, spec.table, spec.companyId, keys);
    if (keys.id !== undefined) return { created: false, row: await updateRecord<R>(tx, spec, keys.id) };
    const matched = await findRecordToUpdate(tx, spec.table, spec.companyId, keys);
    if (matched !== undefined) return { created: false, row: await updateRecord<R>(tx, spec, matched) };
    return { created: true, row: await insertRecord<R>(tx, spec) };
  });
}

/** The insert of a new record: spec.create, the tenant and the tags. */
async function insertRecord<R>(tx: DbOrTx, spec: UpsertSpec<UpsertTable>): Promise<R> {
  const values = { ...spec.create, companyId: spec.companyId, tags: spec.tags };
  const [row] = await tx
    .insert(spec.table as PgTable)
    .values(values as never)
    .returning(spec.fields);
  return row as R;
}

/**
 * The update of the record with that id (locked by the caller's match, or by the update itself),
 * in one statement; nothing written and an error when there is no such record or the merged
 * tags would be too many.
 */
async function updateRecord<R>(tx: DbOrTx, spec: UpsertSpec<UpsertTable>, id: string): Promise<R> {
  const { companyId } = spec;
  const table = spec.table as UpsertTable & PgTable;
  const merged = mergedTags(table.tags, sql.param(spec.tags, table.tags));
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
 * Serializes create-or-update calls that could match or create the same record: one
 * transaction-scoped advisory lock per normalized identity (phone, then email: a fixed order, so
 * two calls never wait on each other in a cycle), taken before matching. Two concurrent calls
 * with the same new phone or email therefore run one after the other, and the second finds the
 * record the first created. Row locks are only taken after these, never before.
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
  // The target list is evaluated left to right: phone before email.
  await tx.execute(sql`select ${sql.join(keys, sql`, `)}`);
}

const lockKey = (key: string) => sql`pg_advisory_xact_lock(hashtextextended(${key}, 0))`;

/**
 * The id of the record a create-or-update call with these keys updates (locked until the end of
 * the transaction, `for update`), or undefined: it creates one (an unknown id: undefined too).
 * One statement.
 */
export async function findRecordToUpdate(
  tx: DbOrTx,
  table: UpsertTable,
  companyId: string,
  keys: MatchKeys,
): Promise<string | undefined> {
  const target = targetDefinition(table, companyId, keys);
  if (!target) return undefined;
  const { rows } = await tx.execute<{ id: string }>(sql`with ${target} select id from target`);
  return rows[0]?.id;
}

/**
 * `target as (…)` (and the CTEs it reads): the id of the record to update, locked, or no row.
 * Archived records match. Phone and email are a CTE each: `by_email` only runs when `by_phone`
 * found nothing, so the phone match is chosen and locked exactly as by a query of its own (the
 * `for update` of a `limit 1` query re-checks a row changed concurrently and then takes the
 * next one; one query ordered "phone first" could return a row that matched by phone when the
 * snapshot was taken but only by email once locked: upsert-record.test.ts shows it).
 */
function targetDefinition(table: UpsertTable, companyId: string, keys: MatchKeys): SQL | undefined {
  const newest = (name: string, where: SQL) =>
    sql`${sql.identifier(name)} as (select ${table.id} from ${table}
      where ${table.companyId} = ${companyId} and ${where}
      order by ${sql.join(newestFirst(table.createdAt, table.id), sql`, `)} limit 1 for update)`;
  if (keys.id !== undefined) {
    return sql`target as (select ${table.id} from ${table}
      where ${table.companyId} = ${companyId} and ${table.id} = ${keys.id} for update)`;
  }
  const byPhone = keys.phone ? sql`${table.phoneNormalized} = ${keys.phone}` : undefined;
  const byEmail = keys.email ? sql`${table.emailNormalized} = ${keys.email}` : undefined;
  if (byPhone && byEmail) {
    return sql`${newest("by_phone", byPhone)},
      ${newest("by_email", sql`${byEmail} and not exists (select from by_phone)`)},
      target as (select * from by_phone union all select * from by_email)`;
  }
  if (byPhone) return newest("target", byPhone);
  if (byEmail) return newest("target", byEmail);
  return undefined;
}

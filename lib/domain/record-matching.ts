import {
  Column,
  getTableColumns,
  getTableName,
  is,
  sql,
  SQL,
  type AnyColumn,
  type Param,
  type SQLChunk,
  type SQLWrapper,
} from "drizzle-orm";
import { PgArray, PgDialect, type AnyPgColumn, type AnyPgTable } from "drizzle-orm/pg-core";
import { queryPrepared, queryRows, type Db, type DbOrTx, type PreparedStatement } from "@/lib/db/client";
import { hasSearchGrams } from "@/lib/db/schema/columns";
import { pageAndTotal, sqlQuery, totalColumn, type CountQuery, type ListTotal } from "./list-page";
import { escapeLike } from "./normalize";
import { pageOffset } from "@/lib/schemas/common";

/**
 * Helpers shared by the lead and customer rules: create-or-update (matching, identity locks and
 * writing; each resource brings its own values and validation), and the search pattern of the
 * lists. The normalization rules themselves live in ./normalize.ts.
 */

// ---------------------------------------------------------------------------------------------
// Create-or-update (contract section 6)

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
  companyId: string;
  keys: MatchKeys;
  /** What an update sets: the fields present in the body (tags and updated_at are added here). */
  update: ColumnValues<T>;
  /** A new record's columns, company_id and tags left out (added here). */
  create: Omit<T["$inferInsert"], "companyId" | "tags">;
  /** The body's tags, de-duplicated (mergeTags([], tags)): appended to an update's stored ones. */
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
 * appends the new tags (tags and the limit merged in SQL: the stored row as it is when written);
 * a create inserts spec.create.
 *
 * Statements (bench/RESULTS.md finding 4 counted up to seven):
 * - only an id: one `update … returning` (no transaction: its row lock serializes it with other
 *   writers of the row, and it creates nothing);
 * - nothing to match by (no id, phone or email): one `insert … returning`;
 * - a phone or an email: begin, lockIdentities, one matching statement (phone, then email), the
 *   update or the insert, commit. The lock has a statement of its own: a statement's snapshot
 *   is taken when it starts, so a match in the locking statement would miss the record that the
 *   call it waited for has just created. Matching and inserting in one statement measured no
 *   better (a bigger statement to plan, and a slower update path).
 */
export async function upsertRecord<T extends UpsertTable>(
  db: Db,
  spec: UpsertSpec<T>,
): Promise<{ created: boolean; row: T["$inferSelect"] }> {
  const { table, keys } = spec;
  if (keys.id === undefined && !keys.phone && !keys.email) {
    const [raw] = await queryRows(db, insertStatement(spec));
    return { created: true, row: mapRow(table, raw!) };
  }
  if (!keys.phone && !keys.email) return { created: false, row: await updateRecord(db, spec, keys.id!) };
  return db.transaction(async (tx) => {
    await lockIdentities(tx, table, spec.companyId, keys);
    if (keys.id !== undefined) return { created: false, row: await updateRecord(tx, spec, keys.id) };
    const matched = await findRecordToUpdate(tx, table, spec.companyId, keys);
    if (matched !== undefined) return { created: false, row: await updateRecord(tx, spec, matched) };
    const [raw] = await queryRows(tx, insertStatement(spec));
    return { created: true, row: mapRow(table, raw!) };
  });
}

/**
 * The update of the record with that id (locked by the caller's match, or by the update itself),
 * in one statement; nothing written and an error when there is no such record or the merged
 * tags would be too many.
 */
async function updateRecord<T extends UpsertTable>(
  tx: DbOrTx,
  spec: UpsertSpec<T>,
  id: string,
): Promise<T["$inferSelect"]> {
  const { table, companyId } = spec;
  const merged = mergedTags(table.tags, sql.param(spec.tags, table.tags));
  const set = [
    ...assignments(table, spec.update),
    sql`${sql.identifier(table.tags.name)} = ${merged}`,
    sql`${sql.identifier(table.updatedAt.name)} = ${sql.param(new Date(), table.updatedAt)}`,
  ];
  const where = sql`${table.companyId} = ${companyId} and ${table.id} = ${id}`;
  const [raw] = await queryRows(
    tx,
    sql`update ${table} set ${sql.join(set, sql`, `)}
      where ${where} and cardinality(${merged}) <= ${spec.maxTags} returning *`,
  );
  if (raw) return mapRow(table, raw);
  // Nothing written: say why (the error path only).
  const [stored] = await queryRows<{ count: number }>(
    tx,
    sql`select cardinality(${merged}) as count from ${table} where ${where}`,
  );
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
  await queryRows(tx, sql`select ${sql.join(keys, sql`, `)}`);
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
  const [row] = await queryRows<{ id: string }>(tx, sql`with ${target} select id from target`);
  return row?.id;
}

/**
 * `target as (…)` (and the CTEs it reads): the id of the record to update, locked, or no row.
 * Archived records match. Phone and email are a CTE each: `by_email` only runs when `by_phone`
 * found nothing, so the phone match is chosen and locked exactly as by a query of its own (the
 * `for update` of a `limit 1` query re-checks a row changed concurrently and then takes the
 * next one; one query ordered "phone first" could return a row that matched by phone when the
 * snapshot was taken but only by email once locked: record-matching.test.ts shows it).
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

/** `insert … values … returning *` of a new record: spec.create, the tenant and the tags. */
function insertStatement<T extends UpsertTable>(spec: UpsertSpec<T>): SQL {
  const { table } = spec;
  const values: Record<string, unknown> = {
    ...spec.create,
    companyId: spec.companyId,
    tags: spec.tags,
  };
  const columns = getTableColumns(table) as Record<string, AnyColumn>;
  const names: SQLChunk[] = [];
  const params: SQLChunk[] = [];
  for (const [key, value] of Object.entries(values)) {
    const column = columns[key];
    if (!column || value === undefined) continue;
    names.push(sql.identifier(column.name));
    params.push(sql.param(value, column));
  }
  return sql`insert into ${table} (${sql.join(names, sql`, `)})
    values (${sql.join(params, sql`, `)}) returning *`;
}

/** `column = value` for each field given; SQL values as they are (they may read the stored row). */
function assignments(table: UpsertTable, values: Record<string, unknown>): SQL[] {
  const columns = getTableColumns(table) as Record<string, AnyColumn>;
  const out: SQL[] = [];
  for (const [key, value] of Object.entries(values)) {
    const column = columns[key];
    if (!column || value === undefined) continue;
    out.push(sql`${sql.identifier(column.name)} = ${is(value, SQL) ? value : sql.param(value, column)}`);
  }
  return out;
}

/**
 * The stored tags, then the new ones not yet present, in their order: mergeTags (./normalize.ts)
 * in SQL, so that an update merges with the row as it is when it is written. `incoming` must be
 * de-duplicated already (mergeTags([], tags)).
 */
export function mergedTags(stored: AnyColumn | SQL, incoming: Param | SQL): SQL {
  return sql`(${stored} || array(select t from unnest(${incoming}::text[]) with ordinality as u(t, n)
    where t <> all(${stored}) order by n))`;
}

/** A driver value to Drizzle's, or null where Drizzle's is the value as it comes. */
type ValueMapper = ((value: unknown) => unknown) | null;
/** Per column: its name in the row, its key in Drizzle's row, its ValueMapper. */
type Mapping = [name: string, key: string, map: ValueMapper][];
const mappings = new WeakMap<object, Mapping>();
const asItComes = Column.prototype.mapFromDriverValue;

/**
 * How a column's driver value becomes Drizzle's: null for the columns whose mapper returns it as
 * it comes (text, boolean), and for arrays of those the array as node-postgres parsed it (Drizzle's
 * mapper copies it element by element); otherwise the column's own mapper (timestamps to Date).
 */
function driverValueMapper(column: AnyColumn): ValueMapper {
  if (column.mapFromDriverValue === asItComes) return null;
  if (is(column, PgArray) && column.baseColumn.mapFromDriverValue === asItComes)
    return (value) => (Array.isArray(value) ? value : column.mapFromDriverValue(value as string));
  return (value) => column.mapFromDriverValue(value);
}

/**
 * A row of `select *` / `returning *` (column names, driver values) as Drizzle maps it. It runs for
 * every row of a list, so each table's columns and their mappers are looked up once.
 */
function mapRow<T extends AnyPgTable>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  let mapping = mappings.get(table);
  if (!mapping) {
    mapping = Object.entries(getTableColumns(table) as Record<string, AnyColumn>).map(([key, column]) => [
      column.name,
      key,
      driverValueMapper(column),
    ]);
    mappings.set(table, mapping);
  }
  const row: Record<string, unknown> = {};
  for (const [name, key, map] of mapping) {
    const value = raw[name];
    row[key] = value === null || value === undefined ? null : map ? map(value) : value;
  }
  return row as T["$inferSelect"];
}

/**
 * How a list selects its rows and reads each one: its table, the select list, and the driver's row
 * as the list's row (newestList).
 */
export interface ListedRows<
  R,
  T extends AnyPgTable & { id: AnyPgColumn } = AnyPgTable & { id: AnyPgColumn },
> {
  table: T;
  /** The select list, as text rendered once (renderedOnce). */
  select: SQL;
  /**
   * The driver's row made the list's row in place, and returned: the other columns of the
   * statement's row (a kept total) stay on it.
   */
  read(raw: Record<string, unknown>): R;
}

/** The column keys of a table's Drizzle row. */
type ColumnKey<T extends AnyPgTable> = keyof T["_"]["columns"] & keyof T["$inferSelect"] & string;

/**
 * Columns `K` of a table's row as the driver gives them: each under its SQL name, with Drizzle's
 * value (a timestamp as a Date).
 */
export type StoredRow<T extends AnyPgTable, K extends ColumnKey<T> = ColumnKey<T>> = {
  [P in K as T["_"]["columns"][P]["_"]["name"]]: T["$inferSelect"][P];
};

/**
 * A list read as the driver's rows (StoredRow): only the columns it answers with are selected, and
 * each driver row is the list's row, its few values that Drizzle maps otherwise (timestamps) set
 * again in place. mapRow made a second object of every column a row, with a Date for each
 * timestamp: 128 of the ~220 µs of reading, building and serializing a page of 50 customers
 * (bench/RESULTS.md, finding 31). `of` makes a Drizzle row (as create-or-update returns it) the
 * same row.
 */
export function storedRows<T extends AnyPgTable & { id: AnyPgColumn }, K extends ColumnKey<T>>(
  table: T,
  keys: readonly K[],
): ListedRows<StoredRow<T, K>, T> & { of(row: T["$inferSelect"]): StoredRow<T, K> } {
  const columns = getTableColumns(table) as Record<string, AnyColumn>;
  if (!keys.includes("id" as K)) throw new Error("storedRows: the id column is one of a list's columns");
  const listed = keys.map((key) => [key, columns[key]!] as const);
  const mapped: [name: string, map: (value: unknown) => unknown][] = [];
  for (const [, column] of listed) {
    const map = driverValueMapper(column);
    if (map) mapped.push([column.name, map]);
  }
  return {
    table,
    select: renderedOnce(
      sql.join(
        listed.map(([, column]) => sql`${column}`),
        sql`, `,
      ),
    ),
    read(raw) {
      for (const [name, map] of mapped) {
        const value = raw[name];
        if (value != null) raw[name] = map(value);
      }
      return raw as StoredRow<T, K>;
    },
    of(row) {
      const stored: Record<string, unknown> = {};
      for (const [key, column] of listed) stored[column.name] = row[key];
      return stored as StoredRow<T, K>;
    },
  };
}

const dialect = new PgDialect();

/**
 * A fragment without parameters as its text (`sql.raw`), rendered once: for the parts of a list's
 * statement that no request changes (a search's fields and grams expression, a select list), whose
 * text Drizzle would build from its chunks again on every request (bench/RESULTS.md, finding 30).
 * The text is what Drizzle renders for the fragment inside the statement.
 */
export function renderedOnce(fragment: SQL): SQL {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  if (params.length > 0) throw new Error("renderedOnce: a fragment with parameters");
  return sql.raw(text);
}

/**
 * One record of a tenant by its id, read as its list reads its rows (`rows.read`), or undefined:
 * `select <the listed columns> … where company_id = $1 and id = $2` as a named prepared
 * statement (queryPrepared), built once. Drizzle's own prepared select mapped every column to a
 * row of its own, which was then copied to the listed row.
 */
export function storedRecordById<R, T extends AnyPgTable & { companyId: AnyPgColumn; id: AnyPgColumn }>(
  rows: ListedRows<R, T>,
  name: string,
): (db: Db, companyId: string, id: string) => Promise<R | undefined> {
  const { table } = rows;
  const statement: PreparedStatement = {
    name,
    text: dialect.sqlToQuery(
      sql`select ${rows.select} from ${table}
        where ${table.companyId} = ${sql.placeholder("companyId")} and ${table.id} = ${sql.placeholder("id")}`,
    ).sql,
  };
  return async (db, companyId, id) => {
    const [raw] = await queryPrepared(db, statement, [companyId, id]);
    return raw ? rows.read(raw) : undefined;
  };
}

// ---------------------------------------------------------------------------------------------
// Lists

/** `%term%` for `lower(column) like …`: lower-cased, LIKE wildcards escaped (matched literally). */
export function containsPattern(term: string): string {
  return `%${escapeLike(term.toLowerCase())}%`;
}

/** `text[]` literal of the values, for the `tags && array[...]` filter. */
export function textArray(values: readonly string[]): SQL {
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
}

/** `[latitude, longitude]` when both are known. */
export function toLocation(latitude: number | null, longitude: number | null): [number, number] | null {
  return latitude == null || longitude == null ? null : [latitude, longitude];
}

/**
 * `created_at desc, id desc` spelled as the indexes are built (`desc nulls last`; drizzle's
 * `.desc()` in an index definition). A bare `desc` means `nulls first` in PostgreSQL, which the
 * planner cannot serve from those indexes, so it would sort the whole tenant instead. Both
 * columns are NOT NULL, so the order is the same.
 */
export function newestFirst(createdAt: AnyColumn | SQL, id: AnyColumn | SQL): SQL[] {
  return [sql`${createdAt} desc nulls last`, sql`${id} desc nulls last`];
}

/**
 * From this many skipped rows on, a list page is read in two steps (newestPage). Below it, one
 * index scan is cheaper: two steps cost about 0.5 ms more of planning and execution, repaid at
 * ~0.2 µs a skipped row, so from ~2,500 rows on with every page in memory, sooner when the rows
 * must come from disk (bench/RESULTS.md, finding 13).
 */
export const DEFERRED_PAGE_OFFSET = 2000;

/** A tenant table listed newest first (leads, customers). */
type NewestListTable = AnyPgTable & { companyId: AnyPgColumn; id: AnyPgColumn; createdAt: AnyPgColumn };

/**
 * A page of `table`'s rows matching `where`, newest first, each with the list's kept total when
 * there is one (totalColumn). A deep page (DEFERRED_PAGE_OFFSET) is a "deferred join": the page's
 * ids first, from the list's index alone (an index-only scan passes over the earlier pages without
 * reading their rows), then those rows by primary key. Page 1000 of the large tenant's leads: 15
 * ms of database time in one step, 6 ms in two.
 */
function newestPage<T extends NewestListTable, R extends object>(
  db: DbOrTx,
  listed: ListedRows<R, T>,
  companyId: string,
  where: SQL,
  window: { limit: number; offset: bigint },
  total: ListTotal,
): SQLWrapper & PromiseLike<R[]> {
  const { table } = listed;
  const order = sql.join(newestFirst(table.createdAt, table.id), sql`, `);
  const slice = sql`limit ${window.limit} offset ${window.offset}`;
  const rows = sql`select ${listed.select}${totalColumn(total)} from ${table}`;
  const statement =
    window.offset < DEFERRED_PAGE_OFFSET
      ? sql`${rows} where ${where} order by ${order} ${slice}`
      : sql`${rows} where ${table.companyId} = ${companyId} and ${table.id} in (
          select ${table.id} from ${table} where ${where} order by ${order} ${slice}
        ) order by ${order}`;
  // The list's select list, each row read once by `listed` (storedRows): a query builder's select
  // built and mapped each column of each row apart (up to a quarter of our CPU on a 50-row list:
  // bench/RESULTS.md, finding 27). A kept total rides on each row, which `read` keeps (pageAndTotal
  // reads it from the first).
  return sqlQuery(db, statement, listed.read);
}

/**
 * What a list reads, and the parts of its search's statement (newestMatches) that no request
 * changes, rendered once: built when the list is defined (newestListing).
 */
export interface NewestListing<R extends object, T extends NewestListTable> {
  rows: ListedRows<R, T>;
  matches: MatchesStatement;
}

/** A list's listing, from its rows: its search's statement parts rendered here, once. */
export function newestListing<R extends object, T extends NewestListTable>(
  rows: ListedRows<R, T>,
): NewestListing<R, T> {
  return { rows, matches: matchesStatement(rows) };
}

/**
 * The statements of a list request on the listing's table, newest first: with a search of grams
 * (sharesMatches), the page and the total in one statement (newestMatches); otherwise the page
 * (newestPage) and `total()`, the list's own total: its counters, read by the page's statement,
 * or a count(*) of the matches of a term under a gram beside it (lib/domain/list-page.ts).
 */
export function newestList<T extends NewestListTable, R extends object>(
  db: DbOrTx,
  listing: NewestListing<R, T>,
  companyId: string,
  where: SQL,
  request: { page: number; limit: number; search?: string },
  total: () => ListQueryTotal,
): ListQueries<R> {
  const window = { limit: request.limit, offset: pageOffset(request) };
  if (sharesMatches(request.search)) {
    return { matches: newestMatches(db, listing, companyId, where, window) };
  }
  const listTotal = total();
  return { page: newestPage(db, listing.rows, companyId, where, window, listTotal), total: listTotal };
}

/**
 * Whether a search reads its page and total in one statement (newestMatches): a term with grams
 * to look up in the search index (hasSearchGrams: three characters or more). The planner cannot
 * tell how many rows hold a term's grams (it multiplies the grams' frequencies as if they were
 * independent, and knows nothing of the LIKE beside them), so it always expects a handful and
 * reads the page's rows by the index, every match, then sorts them: the count finds the same
 * matches again. Found once for both, the large tenant's searches take about half the database
 * time (`son`, 105k matches: 545 → 330 ms; `mart`, 24k: 255 → 130 ms; `555`: 90 → 54 ms;
 * bench/RESULTS.md, finding 22). A term under a gram has no index to read: its page walks the
 * created_at index until it is full, and finding every match for it would cost more (`a`: 0.7 →
 * 1.8 s, finding 15).
 */
function sharesMatches(search: string | undefined): boolean {
  return search !== undefined && hasSearchGrams(search);
}

/** One row of newestMatches: the number of all matches, and one row of the page (null when the page is empty). */
export interface MatchRow<R> {
  total: number;
  row: R | null;
}

/**
 * A page of `table`'s rows matching `where`, newest first, and the number of all matches, in one
 * statement that finds the matches once: their keys (the CTE `matched`, read twice, so PostgreSQL
 * keeps it), counted, and the page's rows then fetched by key. An empty page is one row with the
 * total and a null `row`.
 */
function newestMatches<T extends NewestListTable, R extends object>(
  db: DbOrTx,
  listing: NewestListing<R, T>,
  companyId: string,
  where: SQL,
  window: { limit: number; offset: bigint },
): SQLWrapper & PromiseLike<MatchRow<R>[]> {
  const { rows, matches: parts } = listing;
  const statement = sql`${parts.matched}${where}${parts.page}${window.limit}${parts.offset}${window.offset}${parts.rows}${companyId}${parts.order}`;
  return sqlQuery(db, statement, (raw) => ({
    total: Number(raw.total),
    row: raw[rows.table.id.name] == null ? null : rows.read(raw),
  }));
}

/**
 * newestMatches' statement between its values, each part rendered to its text once (renderedOnce):
 *
 *     with matched as (select t.id, t.created_at from t where <where>),
 *       counted as (select count(*)::int as total from matched),
 *       page as (select id, created_at from matched order by <newest first> limit <limit> offset <offset>)
 *     select counted.total, <the list's columns> from counted
 *       left join page on true
 *       left join t on t.company_id = <companyId> and t.id = page.id
 *     order by <page's newest first>
 */
interface MatchesStatement {
  matched: SQL;
  page: SQL;
  offset: SQL;
  rows: SQL;
  order: SQL;
}

/** The parts of a list's MatchesStatement, rendered once when the list is defined (newestListing). */
function matchesStatement<T extends NewestListTable>(listed: ListedRows<object, T>): MatchesStatement {
  const { table } = listed;
  const id = sql.identifier(table.id.name);
  const createdAt = sql.identifier(table.createdAt.name);
  const order = (from: SQL) => sql.join(newestFirst(sql`${from}.${createdAt}`, sql`${from}.${id}`), sql`, `);
  return {
    matched: renderedOnce(sql`with matched as (select ${table.id}, ${table.createdAt} from ${table} where `),
    page: renderedOnce(sql`), counted as (select count(*)::int as total from matched),
    page as (select ${id}, ${createdAt} from matched order by ${order(sql`matched`)}
      limit `),
    offset: sql.raw(" offset "),
    rows: renderedOnce(sql`)
    select counted.total, ${listed.select} from counted
      left join page on true
      left join ${table} on ${table.companyId} = `),
    order: renderedOnce(sql` and ${table.id} = page.${id}
    order by ${order(sql`page`)}`),
  };
}

/** A lead or customer list's total, kept or counted, each a query whose plan a test can check. */
export type ListQueryTotal = ListTotal<CountQuery>;

/**
 * The statements of a list request: a page and its total (read by the page's statement from the
 * counters, or counted beside it), or the page and the total in one statement that finds the
 * matches once (newestMatches, a search of grams).
 */
export type ListQueries<R> =
  | { page: SQLWrapper & PromiseLike<R[]>; total: ListQueryTotal }
  | { matches: SQLWrapper & PromiseLike<MatchRow<R>[]> };

/** Runs a list request's statements: its page's rows and the total of its matches. */
export async function listRows<R extends object>(
  queries: ListQueries<R>,
): Promise<{ rows: R[]; total: number }> {
  if ("matches" in queries) {
    const found = await queries.matches;
    return { rows: found.flatMap((m) => (m.row ? [m.row] : [])), total: Number(found[0]?.total ?? 0) };
  }
  return pageAndTotal(queries.page, queries.total);
}

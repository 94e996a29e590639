import "server-only";
import { createHash } from "node:crypto";
import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { z } from "zod";
import { ValidationError } from "@/lib/domain/errors";
import { timestampParam } from "@/lib/domain/reports/sql";
import type { Pagination } from "@/lib/schemas/common";

/**
 * The change feed (extensions.md E10): a walk over a list's records in the order of their changes.
 *
 * Each row carries the id of the transaction that last wrote it and a sequence number (a trigger,
 * drizzle/0036_change_feed.sql). Timestamps and sequences are taken before commit, so a walk ordered
 * by them alone would pass a change whose transaction commits later. A walk is ordered by
 * (transaction id, sequence, id) instead and hands out only rows whose transaction is older than
 * its snapshot's horizon (HORIZON): every such transaction has ended, and any transaction still
 * open, or yet to write, has an id at or above it, so its rows come after everything handed out.
 */

/** The lists that walk their changes; a cursor belongs to one of them. */
export type FeedList = "leads" | "customers" | "pins";

/** The columns of a walked table (as columns, or as SQL over an alias). */
export interface FeedColumns {
  id: AnyColumn | SQL;
  changeXid: AnyColumn | SQL;
  changeSeq: AnyColumn | SQL;
  updatedAt: AnyColumn | SQL;
}

/** A walk's request: where it starts, or where its previous page ended. */
export interface FeedQuery {
  updated_since?: Date;
  cursor?: string;
  page?: bigint;
  limit: number;
}

/** What a cursor holds: the walk's start and filters, and the place of its last handed-out row. */
const cursorSchema = z.object({
  v: z.literal(1),
  /** The list walked. */
  l: z.enum(["leads", "customers", "pins"]),
  /** The filters' fingerprint (filterFingerprint). */
  f: z.string(),
  /** updated_since, ISO 8601, or null. */
  s: z.string().nullable(),
  /** The horizon of the walk's first page: rows of transactions from then on are in the walk whatever their time. */
  h: z.string().regex(/^\d{1,20}$/),
  /** The last handed-out row: transaction id, sequence, id. */
  x: z.string().regex(/^\d{1,20}$/),
  q: z.string().regex(/^\d{1,20}$/),
  i: z.string().max(200),
  /** The page number of the next page, and the records handed out before it. */
  n: z.number().int().min(2),
  t: z.number().int().min(0),
});
type Cursor = z.output<typeof cursorSchema>;

/** A walk as one page reads it. */
export interface Walk {
  list: FeedList;
  fingerprint: string;
  since: Date | null;
  /** From the cursor; absent on a walk's first page. */
  after?: Pick<Cursor, "h" | "x" | "q" | "i" | "n" | "t">;
}

/** Whether a list request walks the changes (extensions.md E10) rather than reading a page. */
export function isWalk(query: FeedQuery): boolean {
  return query.updated_since !== undefined || query.cursor !== undefined;
}

const cursorProblem = (message: string) => new ValidationError([{ field: "cursor", message }]);

/**
 * The walk a request asks for. Its cursor must be intact (checked against its checksum), of this
 * list, and sent with the filters the walk began with; `page` cannot page a walk.
 */
export function walkOf(list: FeedList, query: FeedQuery, filters: Record<string, unknown>): Walk {
  const fingerprint = filterFingerprint(filters);
  if (query.cursor === undefined) return { list, fingerprint, since: query.updated_since ?? null };
  if (query.page !== undefined)
    throw cursorProblem("page cannot be combined with cursor: a walk pages by its cursor");
  const cursor = decodeCursor(query.cursor);
  if (cursor.l !== list) throw cursorProblem(`is a cursor of ${cursor.l}, not of ${list}`);
  if (cursor.f !== fingerprint) {
    throw cursorProblem("was made for other filters: send the filters the walk began with");
  }
  return {
    list,
    fingerprint,
    since: cursor.s === null ? null : new Date(cursor.s),
    after: { h: cursor.h, x: cursor.x, q: cursor.q, i: cursor.i, n: cursor.n, t: cursor.t },
  };
}

/**
 * A fingerprint of a request's filters (everything but paging, order and the walk's own
 * parameters), so that a cursor is not carried over to another list of records.
 */
function filterFingerprint(filters: Record<string, unknown>): string {
  const skipped = new Set(["page", "limit", "sort", "archived", "cursor", "updated_since"]);
  const kept = Object.keys(filters)
    .filter((key) => !skipped.has(key) && filters[key] !== undefined)
    .sort()
    .map((key) => [key, filters[key]]);
  const text = JSON.stringify(kept, (_key, value: unknown) =>
    typeof value === "bigint" ? value.toString() : value,
  );
  return createHash("sha256").update(text).digest("base64url").slice(0, 16);
}

/**
 * A checksum that turns away an edited or truncated cursor. Not a secret: a cursor only moves a
 * walk within the caller's own company, whose records every page is limited to anyway.
 */
function checksum(body: string): string {
  return createHash("sha256").update(`fieldcrm-feed:${body}`).digest("base64url").slice(0, 22);
}

/**
 * The cursor a walk of `list` with these filters (none: `{}`) gives after a page that ended at a
 * record's place; for the bench, which starts its pages mid-walk.
 */
export function walkCursorAt(
  list: FeedList,
  filters: Record<string, unknown>,
  at: { xid: string; seq: string; id: string },
): string {
  return encodeCursor({
    v: 1,
    l: list,
    f: filterFingerprint(filters),
    s: null,
    h: "0",
    x: at.xid,
    q: at.seq,
    i: at.id,
    n: 2,
    t: 0,
  });
}

function encodeCursor(cursor: Cursor): string {
  const body = Buffer.from(JSON.stringify(cursor)).toString("base64url");
  return `${body}.${checksum(body)}`;
}

function decodeCursor(text: string): Cursor {
  const [body = "", sum = ""] = text.split(".");
  if (checksum(body) !== sum) throw cursorProblem("is not a cursor this API gave out (altered or cut short)");
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const cursor = cursorSchema.safeParse(parsed);
  if (!cursor.success) throw cursorProblem("is not a cursor this API gave out");
  return cursor.data;
}

/**
 * The oldest transaction still open in the snapshot that could have written this database's rows:
 * below it every such transaction has ended. Transaction ids are the whole server's, so one that
 * pg_stat_activity shows in another database is passed over (another database's long transaction
 * must not hold the walk back); one it does not show, ended or not, still counts. None: xmax.
 */
const HORIZON = sql`coalesce((select x.xid from pg_snapshot_xip(pg_current_snapshot()) as x(xid)
    where not exists (select from pg_stat_activity a where a.datname <> current_database()
      and a.backend_xid::text::bigint = x.xid::text::bigint % 4294967296)
    order by x.xid limit 1), pg_snapshot_xmax(pg_current_snapshot()))`;

/**
 * The walk's condition on top of the list's filters: past the cursor's row, and changed since
 * `updated_since` unless written by a transaction that was open or yet to come at the walk's start
 * (a transaction that began before `updated_since` and committed during the walk is still seen).
 */
export function walkCondition(columns: FeedColumns, walk: Walk): SQL {
  const { id, changeXid, changeSeq, updatedAt } = columns;
  const conditions: SQL[] = [];
  const after = walk.after;
  if (after) {
    conditions.push(
      sql`(${changeXid}, ${changeSeq}, ${id}) > (${after.x}::xid8, ${after.q}::bigint, ${after.i}::text)`,
    );
  }
  if (walk.since) {
    const horizon = after ? sql`${after.h}::xid8` : HORIZON;
    conditions.push(sql`(${updatedAt} >= ${timestampParam(walk.since)} or ${changeXid} >= ${horizon})`);
  }
  return conditions.length === 0 ? sql`true` : sql.join(conditions, sql` and `);
}

/** The walk's order: by transaction, then by the sequence within it, then `id` (rows from before the feed). */
export function walkOrder(columns: FeedColumns): SQL[] {
  return [sql`${columns.changeXid} asc`, sql`${columns.changeSeq} asc`, sql`${columns.id} asc`];
}

/**
 * What a walk's page selects beside each record: its place and the statement's horizon (once per
 * statement; whether a row may be handed out is decided from the two in walkPage).
 */
export function walkFields(columns: FeedColumns) {
  return {
    feedXid: sql<string>`${columns.changeXid}::text`,
    feedSeq: sql<string>`${columns.changeSeq}::text`,
    feedHorizon: sql<string>`${HORIZON}::text`,
  };
}

/** The same for a page written as raw SQL (select list items). */
export function walkSelectList(columns: FeedColumns): SQL {
  const fields = walkFields(columns);
  return sql`${fields.feedXid} as feed_xid, ${fields.feedSeq} as feed_seq,
    ${fields.feedHorizon} as feed_horizon`;
}

/** A walk's page row: the record's id and its place, as walkFields selects them. */
export interface WalkRow {
  id: string;
  feedXid: string;
  feedSeq: string;
  feedHorizon: string;
}

/** Whether a row's transaction ended before the horizon (xid8 as text: a decimal integer). */
const isReady = (row: WalkRow) => BigInt(row.feedXid) < BigInt(row.feedHorizon);

/**
 * How many rows a walk's page reads: one more than it hands out, so it knows whether more follow.
 * Rows held back (their transaction not yet older than the horizon) come last in walk order, so the
 * rows handed out are always the ones before them.
 */
export const walkReadLimit = (limit: number) => limit + 1;

/**
 * The page a walk hands out from the rows it read, and its pagination: a next cursor while any row
 * follows, even one held back (the page may then be empty: the caller asks again).
 */
export function walkPage<R extends WalkRow>(
  rows: readonly R[],
  walk: Walk,
  limit: number,
): { rows: R[]; pagination: Pagination } {
  const ready: R[] = [];
  for (const row of rows) {
    if (!isReady(row) || ready.length === limit) break;
    ready.push(row);
  }
  const more = rows.length > ready.length;
  const page = walk.after ? walk.after.n : 1;
  const total = (walk.after?.t ?? 0) + ready.length;
  const last = ready.at(-1);
  const first = rows[0];
  let nextCursor: string | null = null;
  if (more && first) {
    const at = last ? { x: last.feedXid, q: last.feedSeq, i: last.id } : undefined;
    nextCursor = encodeCursor({
      v: 1,
      l: walk.list,
      f: walk.fingerprint,
      s: walk.since ? walk.since.toISOString() : null,
      h: walk.after?.h ?? first.feedHorizon,
      // Nothing handed out: the next page starts where this one did.
      x: at?.x ?? walk.after?.x ?? "0",
      q: at?.q ?? walk.after?.q ?? "0",
      i: at?.i ?? walk.after?.i ?? "",
      n: page + 1,
      t: total,
    });
  }
  return {
    rows: ready,
    pagination: { has_more: more, limit, page: BigInt(page), total, next_cursor: nextCursor },
  };
}

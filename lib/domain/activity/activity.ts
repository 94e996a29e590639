import "server-only";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Principal } from "@/lib/auth/principal";
import type { DbOrTx } from "@/lib/db/client";
import {
  apiKeys,
  customers,
  leads,
  recordActivity,
  users,
  type ActivityChange,
  type ActivityRecordType,
  type ActivityType,
  type ActivityValue,
} from "@/lib/db/schema";
import type { DomainContext } from "@/lib/domain/context";
import { isPlainObject } from "@/lib/values/objects";
import { NotFoundError } from "@/lib/domain/errors";
import type { ActivityEntry, ActivityQuery, ListActivityResponse } from "@/lib/schemas/activity";
import { iso, pageOffset, paginationOf } from "@/lib/schemas/common";

/**
 * A record's activity (extensions.md E3): what the writers of leads and customers add to it in
 * their own transactions, and how it is read.
 */

/** A dashboard user or an API key: their names are read with the entries. */
export type RequestActor = { kind: "user" | "api_key"; id: string };
/** Who acts: a request's user or key, or the import. */
export type ActivityActor = RequestActor | { kind: "import" };

/** The actor of a request. */
export function actorOf(principal: Principal): RequestActor {
  return principal.kind === "session"
    ? { kind: "user", id: principal.userId }
    : { kind: "api_key", id: principal.keyId };
}

/** The actor's columns, as SQL values (set-based writers). */
export function actorValues(actor: ActivityActor): { kind: SQL; id: SQL } {
  return {
    kind: sql`${actor.kind}::text`,
    id: actor.kind === "import" ? sql`null::text` : sql`${actor.id}::text`,
  };
}

/** One entry to write. */
export interface NewActivity {
  recordType: ActivityRecordType;
  recordId: string;
  type: ActivityType;
  changes?: ActivityChange[];
  note?: string;
  relatedId?: string;
}

/** Writes entries in the caller's transaction (the change's own). */
export async function addActivity(
  tx: DbOrTx,
  companyId: string,
  actor: ActivityActor,
  entries: readonly NewActivity[],
): Promise<void> {
  if (entries.length === 0) return;
  await tx.insert(recordActivity).values(
    entries.map((entry) => ({
      companyId,
      recordType: entry.recordType,
      recordId: entry.recordId,
      type: entry.type,
      actorKind: actor.kind,
      actorId: actor.kind === "import" ? null : actor.id,
      changes: entry.changes ?? [],
      note: entry.note ?? null,
      relatedId: entry.relatedId ?? null,
    })),
  );
}

/** A record as its API answer gives it; a nested object's fields are compared one by one. */
type RecordAnswer = Record<string, unknown>;

/**
 * The fields that differ between two answers of one record, in answer order, `from` and `to` as
 * the API gives them (nested as `parent.field`); fields in `ignore` are left out.
 */
export function changedFields(
  before: RecordAnswer,
  after: RecordAnswer,
  ignore: ReadonlySet<string>,
): ActivityChange[] {
  const changes: ActivityChange[] = [];
  const compare = (field: string, from: unknown, to: unknown) => {
    if (ignore.has(field)) return;
    if (isPlainObject(from) && isPlainObject(to)) {
      for (const key of new Set([...Object.keys(from), ...Object.keys(to)])) {
        compare(`${field}.${key}`, from[key], to[key]);
      }
      return;
    }
    if (JSON.stringify(from ?? null) !== JSON.stringify(to ?? null)) {
      changes.push({ field, from: (from ?? null) as ActivityValue, to: (to ?? null) as ActivityValue });
    }
  };
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    compare(key, before[key], after[key]);
  }
  return changes;
}

/** The table of each kind of record with a story. */
export const RECORD_TABLES = { lead: leads, customer: customers } as const;

/** The 404 of an unknown record of that kind ("Lead not found"). */
export const recordNotFound = (recordType: ActivityRecordType) =>
  new NotFoundError(recordType === "lead" ? "Lead" : "Customer");

/** The name an import entry's actor has. */
export const IMPORT_ACTOR_NAME = "Import";

/** A stored entry with its actor's name, as the reads select it. */
type EntryRow = Record<string, unknown> & {
  public_id: string;
  at: Date | string;
  type: ActivityType;
  actor_kind: "user" | "api_key" | "import";
  actor_id: string | null;
  actor_name: string | null;
  changes: ActivityChange[] | string;
  note: string | null;
  related_id: string | null;
};

/** The entries' columns with the actor's name (a user's or key's, as they are now). */
const entryColumns = sql`a."public_id", a."at", a."type", a."actor_kind", a."actor_id",
  coalesce(u."name", k."name") as actor_name, a."changes", a."note", a."related_id"`;
const actorJoins = sql`left join ${users} u on a."actor_kind" = 'user'
    and u."company_id" = a."company_id" and u."id" = a."actor_id"
  left join ${apiKeys} k on a."actor_kind" = 'api_key'
    and k."company_id" = a."company_id" and k."id" = a."actor_id"`;

export function toActivityEntry(row: EntryRow): ActivityEntry {
  const changes =
    typeof row.changes === "string" ? (JSON.parse(row.changes) as ActivityChange[]) : row.changes;
  return {
    id: row.public_id,
    at: iso(row.at instanceof Date ? row.at : new Date(row.at))!,
    type: row.type,
    actor: {
      kind: row.actor_kind,
      id: row.actor_id,
      name: row.actor_kind === "import" ? IMPORT_ACTOR_NAME : (row.actor_name ?? "Deleted"),
    },
    changes,
    note: row.note,
    related_id: row.related_id,
  };
}

/**
 * GET /leads/{id}/activity, GET /customers/{id}/activity: a page of the record's entries, newest
 * first (`at`, then the entry's sequence). An unknown record (another company's too) is a 404.
 */
export async function listActivity({
  ctx,
  recordType,
  recordId,
  input,
}: {
  ctx: Pick<DomainContext, "db" | "companyId">;
  recordType: ActivityRecordType;
  recordId: string;
  input: ActivityQuery;
}): Promise<ListActivityResponse> {
  const table = RECORD_TABLES[recordType];
  const ofRecord = sql`a."company_id" = ${ctx.companyId} and a."record_type" = ${recordType}
    and a."record_id" = ${recordId}`;
  const [[found], page] = await Promise.all([
    ctx.db
      .select({
        found: sql<boolean>`true`,
        total: sql<number>`(select count(*) from ${recordActivity} a where ${ofRecord})::int`,
      })
      .from(table)
      .where(and(eq(table.companyId, ctx.companyId), eq(table.id, recordId))),
    ctx.db.execute<EntryRow>(sql`select ${entryColumns} from ${recordActivity} a ${actorJoins}
      where ${ofRecord}
      order by a."at" desc nulls last, a."id" desc nulls last
      limit ${input.limit} offset ${pageOffset(input)}`),
  ]);
  if (!found) throw recordNotFound(recordType);
  return {
    status: "success",
    data: page.rows.map(toActivityEntry),
    pagination: paginationOf(input, Number(found.total)),
  };
}

/**
 * POST /leads/{id}/notes, POST /customers/{id}/notes: a note on the record, as an activity entry
 * (201). The record is locked for the insert, so a note never outlives a record's check.
 */
export async function addNote({
  ctx,
  recordType,
  recordId,
  body,
}: {
  ctx: Pick<DomainContext, "db" | "companyId" | "principal">;
  recordType: ActivityRecordType;
  recordId: string;
  body: string;
}): Promise<ActivityEntry> {
  const table = RECORD_TABLES[recordType];
  const actor = actorOf(ctx.principal);
  const { kind, id } = actorValues(actor);
  const { rows } = await ctx.db.execute<EntryRow>(sql`
    with record as (
      select ${table.id} as id from ${table}
      where ${table.companyId} = ${ctx.companyId} and ${table.id} = ${recordId} for share
    ), a as (
      insert into ${recordActivity} ("company_id", "record_type", "record_id", "type", "actor_kind", "actor_id", "note")
      select ${ctx.companyId}, ${recordType}, record.id, 'note', ${kind}, ${id}, ${body} from record
      returning *
    )
    select ${entryColumns} from a ${actorJoins}`);
  const [row] = rows;
  if (!row) throw recordNotFound(recordType);
  return toActivityEntry(row);
}

import "server-only";
import { and, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { apiKeys, auditLog, users } from "@/lib/db/schema";
import type { Principal } from "@/lib/auth/principal";
import type { DomainContext } from "@/lib/domain/context";
import { ForbiddenError } from "@/lib/domain/errors";
import { datedFilename, streamCsv, type CsvExport } from "@/lib/domain/reports/csv";
import { can } from "@/lib/auth/permissions";
import { ID_PREFIX, newId } from "@/lib/ids";
import { pageOffset, paginationOf } from "@/lib/schemas/common";
import type { AuditEntry, AuditLogExportQuery, AuditLogQuery, AuditLogResponse } from "@/lib/schemas/audit";
import type { AuditChange, AuditValue } from "@/lib/values/audit";

/**
 * The audit log (extensions.md E11): every settings change writes an entry in its own transaction,
 * so a change that fails leaves none, and one that commits always has its entry.
 */

export interface AuditEvent {
  /** Dotted `<target>.<what>`: `user.role_changed`, `api_key.created` (lib/values/audit.ts). */
  kind: string;
  target: { type: string; id: string | null };
  changes: readonly AuditChange[];
}

/** Field names that could carry a secret: such a change is never written, whatever its writer says. */
const SECRET_FIELD = /password|secret|hash|token|recovery|otp|totp_?seed|^key$/i;

/**
 * Who an entry is written for: a request's principal, or (before a session exists, e.g. at sign-in)
 * an explicit user; with neither, the system (an automatic change).
 */
export type AuditContext = Pick<DomainContext, "companyId" | "ip"> &
  ({ principal: Principal; actor?: never } | { principal?: never; actor: { userId: string } | null });

export const SYSTEM_ACTOR_NAME = "System";

/**
 * Writes one entry in `tx`, the change's own transaction, and returns its id. The actor's name is kept
 * as it is now.
 */
export async function recordAudit(tx: DbOrTx, ctx: AuditContext, event: AuditEvent): Promise<string> {
  const actor = await actorOf(tx, ctx);
  const id = newId(ID_PREFIX.audit);
  await tx.insert(auditLog).values({
    companyId: ctx.companyId,
    id,
    actorUserId: actor.userId,
    actorName: actor.name,
    ip: ctx.ip ?? null,
    kind: event.kind,
    targetType: event.target.type,
    targetId: event.target.id,
    changes: event.changes.filter((change) => !SECRET_FIELD.test(change.field)),
  });
  return id;
}

/** Writes the entry only when something changed (a save of the same settings is no change). */
export async function recordAuditIfChanged(tx: DbOrTx, ctx: AuditContext, event: AuditEvent): Promise<void> {
  if (event.changes.length > 0) await recordAudit(tx, ctx, event);
}

/** The changes between two records, field by field (only those that differ). */
export function changesBetween<T extends Record<string, AuditValue>>(
  before: T | null,
  after: T | null,
  fields: readonly (keyof T & string)[],
): AuditChange[] {
  return fields.flatMap((field) => {
    const from = before?.[field] ?? null;
    const to = after?.[field] ?? null;
    return JSON.stringify(from) === JSON.stringify(to) ? [] : [{ field, from, to }];
  });
}

async function userActor(tx: DbOrTx, companyId: string, userId: string) {
  const [user] = await tx
    .select({ name: users.name })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  return { userId, name: user?.name ?? userId };
}

async function actorOf(tx: DbOrTx, ctx: AuditContext): Promise<{ userId: string | null; name: string }> {
  const p = ctx.principal;
  if (!p)
    return ctx.actor
      ? userActor(tx, ctx.companyId, ctx.actor.userId)
      : { userId: null, name: SYSTEM_ACTOR_NAME };
  if (p.kind === "session") return userActor(tx, ctx.companyId, p.userId);
  const [key] = await tx
    .select({ name: apiKeys.name })
    .from(apiKeys)
    .where(and(eq(apiKeys.companyId, ctx.companyId), eq(apiKeys.id, p.keyId)));
  return { userId: null, name: `API key ${key?.name ?? p.keyId}` };
}

function requireAuditReader(ctx: Pick<DomainContext, "principal">): void {
  const p = ctx.principal;
  if (p.kind !== "session" || !can(p, "audit_log:read")) {
    throw new ForbiddenError("Only admin users may read the audit log");
  }
}

type Filters = Pick<AuditLogQuery, "actor" | "kind" | "from" | "to">;

function whereOf(companyId: string, filters: Filters): SQL {
  return and(
    eq(auditLog.companyId, companyId),
    filters.actor ? eq(auditLog.actorUserId, filters.actor) : undefined,
    filters.kind ? eq(auditLog.kind, filters.kind) : undefined,
    filters.from ? gte(auditLog.at, filters.from) : undefined,
    filters.to ? lte(auditLog.at, filters.to) : undefined,
  )!;
}

type Row = typeof auditLog.$inferSelect;

/**
 * The order of the log, newest first. `at` is kept to the microsecond and read to the millisecond, so
 * the export's cursor compares it truncated as read.
 */
const atMs = sql`date_trunc('milliseconds', ${auditLog.at})`;
const NEWEST_FIRST = [desc(atMs), desc(auditLog.id)];

const toEntry = (row: Row): AuditEntry => ({
  id: row.id,
  at: row.at.toISOString(),
  actor: { id: row.actorUserId, name: row.actorName },
  ip: row.ip,
  kind: row.kind,
  target: { type: row.targetType, id: row.targetId },
  changes: row.changes,
});

/** GET /settings/audit-log: a page of the company's entries, newest first, filtered. */
export async function listAuditLog({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: AuditLogQuery;
}): Promise<AuditLogResponse> {
  requireAuditReader(ctx);
  const where = whereOf(ctx.companyId, input);
  const [rows, [counted]] = await Promise.all([
    ctx.db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(...NEWEST_FIRST)
      .limit(input.limit)
      .offset(pageOffset(input)),
    ctx.db
      .select({ total: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(where),
  ]);
  const total = Number(counted?.total ?? 0);
  return { status: "success", data: rows.map(toEntry), pagination: paginationOf(input, total) };
}

export const AUDIT_CSV_HEADER = [
  "at",
  "actor_id",
  "actor_name",
  "ip",
  "kind",
  "target_type",
  "target_id",
  "changes",
] as const;

/** A change as one line of text: `field: from → to`, values as JSON. */
const changeText = (changes: readonly AuditChange[]) =>
  changes.map((c) => `${c.field}: ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`).join("; ");

/** GET /settings/audit-log/export: the filtered entries as CSV, newest first, streamed in batches. */
export async function exportAuditLogCsv({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: AuditLogExportQuery;
}): Promise<CsvExport> {
  requireAuditReader(ctx);
  const where = whereOf(ctx.companyId, input);
  return streamCsv<Row>({
    filename: datedFilename("audit-log"),
    header: AUDIT_CSV_HEADER,
    fetchBatch: (after, limit) =>
      ctx.db
        .select()
        .from(auditLog)
        .where(
          and(
            where,
            after
              ? sql`(${atMs}, ${auditLog.id}) < (${after.createdAt}::timestamptz, ${after.id})`
              : undefined,
          ),
        )
        .orderBy(...NEWEST_FIRST)
        .limit(limit),
    cursorOf: (row) => ({ createdAt: row.at.toISOString(), id: row.id }),
    toCells: (row) => [
      row.at.toISOString(),
      row.actorUserId,
      row.actorName,
      row.ip,
      row.kind,
      row.targetType,
      row.targetId,
      changeText(row.changes),
    ],
  });
}

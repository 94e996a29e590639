import "server-only";
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { stringify } from "csv-stringify/sync";
import { refusalOf, type Action } from "@/lib/auth/permissions";
import type { Principal } from "@/lib/auth/principal";
import type { DbOrTx } from "@/lib/db/client";
import { importProblems, importRows, imports, type ImportRecordType } from "@/lib/db/schema";
import type { DomainContext } from "@/lib/domain/context";
import { ConflictError, ForbiddenError, ValidationError } from "@/lib/domain/errors";
import { pageOffset, paginationOf } from "@/lib/schemas/common";
import {
  IMPORT_LIST_SIZE,
  type ImportList,
  type ImportProblemsQuery,
  type ImportProblemsResponse,
  type ImportResponse,
} from "@/lib/schemas/imports";
import { ImportInProgressError, ImportNotCheckedError, ImportScopeError } from "./errors";
import { queueImportRun } from "./job";
import { liveRun } from "./live";
import { importLockKey } from "./locks";
import { mappingProblems } from "./mapping-check";
import { importResponseOf, loadImport, type ImportRow } from "./responses";
import { createImport, deleteImport } from "./uploads";

/*
 * The CSV import endpoints (extensions.md E9): upload, dry run, start, cancel, problems. The runs
 * themselves are pg-boss jobs (job.ts); one import per company checks or imports at a time.
 */

type ImportContext = Pick<DomainContext, "db" | "companyId" | "principal">;

const ACTION_OF: Record<ImportRecordType, Action> = {
  leads: "imports:leads",
  customers: "imports:customers",
};
const RUNNING = ["checking", "importing"] as const;

/** Refuses a caller who may not import this type (a key without its write scope, a sales rep). */
export function checkImportAccess(principal: Principal, type: ImportRecordType): void {
  const refusal = refusalOf(principal, [ACTION_OF[type]]);
  if (!refusal) return;
  if (refusal.code === "INSUFFICIENT_SCOPE") throw new ImportScopeError(refusal.message);
  throw new ForbiddenError(refusal.message);
}

/** The caller's import, or a 404; a 403 when they may not import its type. */
async function ownImport(ctx: ImportContext, importId: string): Promise<ImportRow> {
  const row = await loadImport(ctx.db, ctx.companyId, importId);
  checkImportAccess(ctx.principal, row.type);
  return row;
}

/** POST /imports: the request body streamed into a new import. */
export async function uploadImport(
  ctx: ImportContext,
  input: { type: ImportRecordType; fileName: string; body: ReadableStream<Uint8Array> | null },
): Promise<ImportResponse> {
  checkImportAccess(ctx.principal, input.type);
  const empty = new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
  return createImport(ctx.db, {
    companyId: ctx.companyId,
    type: input.type,
    fileName: input.fileName,
    source: input.body ?? empty,
    createdBy: ctx.principal.kind === "session" ? ctx.principal.userId : null,
  });
}

/** GET /imports: the company's newest imports of the types the caller may import. */
export async function listImports(ctx: ImportContext): Promise<ImportList> {
  const types = (["leads", "customers"] as const).filter(
    (type) => refusalOf(ctx.principal, [ACTION_OF[type]]) === undefined,
  );
  if (types.length === 0) return { data: [] };
  const rows = await ctx.db
    .select()
    .from(imports)
    .where(and(eq(imports.companyId, ctx.companyId), inArray(imports.type, types)))
    .orderBy(desc(imports.createdAt), desc(imports.id))
    .limit(IMPORT_LIST_SIZE);
  return { data: await Promise.all(rows.map((row) => importResponseOf(ctx.db, row))) };
}

/** GET /imports/{id}. */
export async function getImport(ctx: ImportContext, importId: string): Promise<ImportResponse> {
  return importResponseOf(ctx.db, await ownImport(ctx, importId));
}

/**
 * Sets the import's next run under the company's start lock, so two starts at once cannot both
 * pass the one-run check; `change` checks the import's own state.
 */
async function startRun(
  ctx: ImportContext,
  importId: string,
  dryRun: boolean,
  change: (row: ImportRow, tx: DbOrTx) => Promise<Partial<typeof imports.$inferInsert>>,
): Promise<ImportResponse> {
  return ctx.db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`import-start:${ctx.companyId}`}, 0))`,
    );
    const row = await loadImport(tx, ctx.companyId, importId);
    checkImportAccess(ctx.principal, row.type);
    const [running] = await tx
      .select({ id: imports.id })
      .from(imports)
      .where(and(eq(imports.companyId, ctx.companyId), inArray(imports.status, RUNNING)))
      .limit(1);
    if (running) throw new ImportInProgressError(running.id);
    const values = await change(row, tx);
    const now = new Date();
    const [updated] = await tx
      .update(imports)
      .set({
        ...values,
        status: dryRun ? "checking" : "importing",
        progressDone: 0,
        progressTotal: row.rowCount,
        error: null,
        cancelRequested: false,
        startedAt: now,
        finishedAt: null,
        updatedAt: now,
      })
      .where(and(eq(imports.companyId, ctx.companyId), eq(imports.id, importId)))
      .returning();
    await queueImportRun(tx, { companyId: ctx.companyId, importId, dryRun });
    return importResponseOf(tx, updated!);
  });
}

/** POST /imports/{id}/dry-run: checks the mapping, then queues the dry run (202, checking). */
export async function startDryRun(
  ctx: ImportContext,
  importId: string,
  mapping: (string | null)[],
): Promise<ImportResponse> {
  return startRun(ctx, importId, true, async (row) => {
    const problems = mappingProblems(row.type, row.headers, mapping);
    if (problems.length > 0) throw new ValidationError(problems);
    return { mapping, result: null, problemCount: 0 };
  });
}

/** POST /imports/{id}/start: the import of a checked file without refused rows (202, importing). */
export async function startImport(ctx: ImportContext, importId: string): Promise<ImportResponse> {
  return startRun(ctx, importId, false, async (row) => {
    if (row.status !== "checked" || !row.result || row.result.refused > 0) {
      throw new ImportNotCheckedError(
        row.status === "checked"
          ? `The dry run refused ${row.result?.refused ?? 0} rows: fix the file or the mapping and check it again`
          : "Check the file with a dry run first: an import starts only after a dry run that refuses no row",
      );
    }
    return {};
  });
}

/** How long a cancel waits for this process's run to stop before answering. */
const CANCEL_WAIT_MS = 3_000;

/** POST /imports/{id}/cancel: asks the run to stop (it rolls back); answers the import. */
export async function cancelImport(ctx: ImportContext, importId: string): Promise<ImportResponse> {
  const row = await ownImport(ctx, importId);
  if (!(RUNNING as readonly string[]).includes(row.status)) return importResponseOf(ctx.db, row);
  await ctx.db
    .update(imports)
    .set({ cancelRequested: true, updatedAt: new Date() })
    .where(and(eq(imports.companyId, ctx.companyId), eq(imports.id, importId)));
  const live = liveRun(ctx.companyId, importId);
  if (live) {
    live.controller.abort();
    await Promise.race([live.ended, new Promise((resolve) => setTimeout(resolve, CANCEL_WAIT_MS))]);
  } else {
    await cancelIfNotRunning(ctx.db, ctx.companyId, importId);
  }
  return importResponseOf(ctx.db, await loadImport(ctx.db, ctx.companyId, importId));
}

/**
 * A run not started yet (its job still queued) or whose process died holds no import lock: it is
 * cancelled now. A live run (in any process) holds the lock and stops at its next batch.
 */
async function cancelIfNotRunning(db: DbOrTx, companyId: string, importId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ free: boolean }>(
      sql`select pg_try_advisory_xact_lock(${importLockKey(companyId)}) as free`,
    );
    if (!rows[0]?.free) return;
    await tx
      .update(imports)
      .set({ status: "cancelled", finishedAt: new Date(), updatedAt: new Date() })
      .where(
        and(eq(imports.companyId, companyId), eq(imports.id, importId), inArray(imports.status, RUNNING)),
      );
  });
}

/** DELETE /imports/{id}: the import and its staged rows (409 while it runs). */
export async function removeImport(ctx: ImportContext, importId: string): Promise<void> {
  const row = await ownImport(ctx, importId);
  if ((RUNNING as readonly string[]).includes(row.status)) {
    throw new ConflictError("The import is running: cancel it first, then delete it");
  }
  await deleteImport(ctx.db, ctx.companyId, importId);
}

/** GET /imports/{id}/problems: a page of the last run's problems, by row. */
export async function listImportProblems(
  ctx: ImportContext,
  importId: string,
  query: ImportProblemsQuery,
): Promise<ImportProblemsResponse> {
  await ownImport(ctx, importId);
  const of = and(eq(importProblems.companyId, ctx.companyId), eq(importProblems.importId, importId));
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({
        row: importProblems.row,
        column: importProblems.column,
        field: importProblems.field,
        reason: importProblems.reason,
      })
      .from(importProblems)
      .where(of)
      .orderBy(asc(importProblems.seq))
      .limit(query.limit)
      .offset(pageOffset(query)),
    ctx.db.select({ n: count() }).from(importProblems).where(of),
  ]);
  return { data: rows, pagination: paginationOf(query, Number(total?.n ?? 0)) };
}

/** Refused rows per read of the export. */
const EXPORT_BATCH_ROWS = 1_000;

/**
 * GET /imports/{id}/problems/export: the refused rows as uploaded, with `row` and `problems`
 * columns added, streamed a slice at a time.
 */
export async function exportImportProblems(
  ctx: ImportContext,
  importId: string,
): Promise<{ fileName: string; body: ReadableStream<Uint8Array> }> {
  const row = await ownImport(ctx, importId);
  const db = ctx.db;
  const encoder = new TextEncoder();
  const line = (values: string[]) => encoder.encode(stringify([values], { record_delimiter: "\r\n" }));
  let last = 0;
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(line([...row.headers, "row", "problems"]));
        return;
      }
      const { rows } = await db.execute<{ row: number; values: string[]; problems: string[] }>(sql`
        with refused as (
          select "row", array_agg(coalesce("column" || ': ', '') || reason order by seq) as problems
          from ${importProblems}
          where company_id = ${ctx.companyId} and import_id = ${importId} and "row" > ${last}
          group by "row" order by "row" limit ${EXPORT_BATCH_ROWS})
        select refused."row", coalesce(r."values", '{}') as "values", refused.problems
        from refused left join ${importRows} r
          on r.company_id = ${ctx.companyId} and r.import_id = ${importId} and r."row" = refused."row"
        order by refused."row"`);
      if (rows.length === 0) {
        controller.close();
        return;
      }
      last = Number(rows[rows.length - 1]!.row);
      const text = rows
        .map((r) => {
          const values = Array.from({ length: row.headers.length }, (_, i) => r.values[i] ?? "");
          return stringify([[...values, String(r.row), r.problems.join("; ")]], { record_delimiter: "\r\n" });
        })
        .join("");
      controller.enqueue(encoder.encode(text));
    },
  });
  const base = row.fileName.replace(/\.csv$/i, "");
  return { fileName: `${base}-refused-rows.csv`, body };
}

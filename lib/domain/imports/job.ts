import "server-only";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type PgBoss from "pg-boss";
import type { Db, DbOrTx } from "@/lib/db/client";
import { importProblems, importRows, imports } from "@/lib/db/schema";
import { DomainError } from "@/lib/domain/errors";
import { addJobs } from "@/lib/domain/webhooks/queue";
import type { RowProblem } from "@/lib/import/csv/convert";
import { runImport } from "./engine";
import { ImportCancelledError } from "./errors";
import { liveRuns, type LiveRun } from "./live";
import { sharesOneConnection } from "./locks";
import { insertRowsSql } from "./rows-sql";

/** The queue of import runs (dry runs and imports) and of the daily prune. */
export const IMPORT_RUN_QUEUE = "import-run";
export const IMPORT_PRUNE_QUEUE = "import-prune";

export interface ImportRunJob {
  companyId: string;
  importId: string;
  dryRun: boolean;
}

/** Queues a run in the caller's transaction (the one that set the import's status). */
export async function queueImportRun(tx: DbOrTx, job: ImportRunJob): Promise<void> {
  await addJobs(tx, [{ name: IMPORT_RUN_QUEUE, data: job }]);
}

const PROBLEM_BATCH_ROWS = 2_000;
/** Staged rows of ended imports are kept this long. */
const KEEP_STAGED_DAYS = 7;
const PRUNE_BATCH_ROWS = 20_000;

const where = (companyId: string, importId: string) =>
  and(eq(imports.companyId, companyId), eq(imports.id, importId));

/** The last run's problems in place of the previous run's. */
async function saveProblems(db: Db, companyId: string, importId: string, problems: RowProblem[]) {
  await db
    .delete(importProblems)
    .where(and(eq(importProblems.companyId, companyId), eq(importProblems.importId, importId)));
  for (let start = 0; start < problems.length; start += PROBLEM_BATCH_ROWS) {
    const rows = problems.slice(start, start + PROBLEM_BATCH_ROWS).map((problem, i) => ({
      companyId,
      importId,
      seq: start + i + 1,
      row: problem.row,
      column: problem.column,
      field: problem.field,
      reason: problem.reason,
    }));
    await db.execute(
      insertRowsSql(
        importProblems,
        ["companyId", "importId", "seq", "row", "column", "field", "reason"],
        rows,
      ),
    );
  }
}

/** What a failed run tells the user: the refusal's own words, never an internal error's. */
function failureMessage(error: unknown): string {
  if (error instanceof DomainError) return error.message;
  return "The import failed because of a server error; nothing was written. Try again";
}

/**
 * Runs a queued dry run or import: the engine, its progress (on PostgreSQL written every batch
 * beside the run, on the embedded engine kept in this process), its cancel and its outcome.
 */
export async function runImportJob(
  db: Db,
  job: ImportRunJob,
  options: { log?: (message: string) => void; batchRows?: number } = {},
): Promise<void> {
  const { companyId, importId, dryRun } = job;
  const [row] = await db.select().from(imports).where(where(companyId, importId));
  // A job for an import since deleted, or restarted by another request, has nothing to do.
  if (!row || row.status !== (dryRun ? "checking" : "importing")) return;
  if (row.cancelRequested) {
    await db
      .update(imports)
      .set({ status: "cancelled", finishedAt: new Date(), updatedAt: new Date() })
      .where(where(companyId, importId));
    return;
  }
  const shared = sharesOneConnection(db);
  let endRun: () => void = () => {};
  const live: LiveRun = {
    companyId,
    done: 0,
    total: row.rowCount,
    controller: new AbortController(),
    ended: new Promise<void>((resolve) => (endRun = resolve)),
  };
  liveRuns().set(importId, live);
  try {
    const output = await runImport(db, {
      companyId,
      importId,
      mapping: row.mapping,
      dryRun,
      signal: live.controller.signal,
      batchRows: options.batchRows,
      onProgress: async (done, total) => {
        live.done = done;
        live.total = total;
        if (shared) return;
        // Its own statement, outside the run's transaction: polls see it, and so the run sees a cancel.
        const [state] = await db
          .update(imports)
          .set({ progressDone: done, progressTotal: total, updatedAt: new Date() })
          .where(where(companyId, importId))
          .returning({ cancel: imports.cancelRequested });
        if (!state || state.cancel) live.controller.abort();
      },
    });
    await saveProblems(db, companyId, importId, output.problems);
    const refused = output.result.refused;
    const status = dryRun ? "checked" : refused > 0 ? "failed" : "done";
    await db
      .update(imports)
      .set({
        status,
        result: output.result,
        problemCount: output.problemCount,
        error:
          status === "failed"
            ? `${refused} row${refused === 1 ? " is" : "s are"} refused: nothing was imported`
            : null,
        progressDone: row.rowCount,
        progressTotal: row.rowCount,
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(where(companyId, importId));
  } catch (error) {
    const cancelled = error instanceof ImportCancelledError;
    if (!cancelled) options.log?.(`import ${importId} failed: ${(error as Error)?.stack ?? String(error)}`);
    await db
      .update(imports)
      .set({
        status: cancelled ? "cancelled" : "failed",
        error: cancelled ? null : failureMessage(error),
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(where(companyId, importId));
  } finally {
    liveRuns().delete(importId);
    endRun();
  }
}

/**
 * Deletes the staged rows of imports that ended over 7 days ago (their history stays), a slice
 * per statement. Answers how many rows went.
 */
export async function pruneImportRows(db: Db, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - KEEP_STAGED_DAYS * 86_400_000);
  const ended = db
    .select({ companyId: imports.companyId, id: imports.id })
    .from(imports)
    .where(and(inArray(imports.status, ["done", "cancelled", "failed"]), lt(imports.updatedAt, before)));
  let pruned = 0;
  for (;;) {
    const { rows } = await db.execute<{ n: number }>(sql`with gone as (
        delete from ${importRows} where ctid in (
          select r.ctid from ${importRows} r join (${ended}) e
            on r.company_id = e.company_id and r.import_id = e.id
          limit ${PRUNE_BATCH_ROWS})
        returning 1)
      select count(*)::int as n from gone`);
    const n = Number(rows[0]?.n ?? 0);
    pruned += n;
    if (n < PRUNE_BATCH_ROWS) return pruned;
  }
}

/** Adds the import queues to a worker's pg-boss: one run at a time per worker, the prune daily. */
export async function workImportQueues(
  boss: PgBoss,
  db: Db,
  options: { pollingIntervalSeconds?: number; log?: (message: string) => void } = {},
): Promise<void> {
  const log = options.log ?? (() => {});
  await boss.work<ImportRunJob>(
    IMPORT_RUN_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 },
    async (jobs) => {
      for (const job of jobs) await runImportJob(db, job.data, { log });
    },
  );
  await boss.work(IMPORT_PRUNE_QUEUE, async () => {
    const pruned = await pruneImportRows(db);
    log(`imports: pruned ${pruned} staged rows of imports ended over ${KEEP_STAGED_DAYS} days ago`);
  });
  await boss.schedule(IMPORT_PRUNE_QUEUE, "37 3 * * *");
}

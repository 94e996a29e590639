import "server-only";

/**
 * Runs of this process, by import id: their progress (on the embedded engine the run writes none
 * beside its transaction) and their cancel. Kept on globalThis, like the database.
 */
export interface LiveRun {
  companyId: string;
  done: number;
  total: number;
  controller: AbortController;
  /** Settles when the run has ended (whatever its outcome). */
  ended: Promise<void>;
}

const globalForRuns = globalThis as unknown as { __fieldcrmImportRuns?: Map<string, LiveRun> };

export function liveRuns(): Map<string, LiveRun> {
  globalForRuns.__fieldcrmImportRuns ??= new Map();
  return globalForRuns.__fieldcrmImportRuns;
}

/** The run of this import in this process, if any. */
export function liveRun(companyId: string, importId: string): LiveRun | undefined {
  const run = liveRuns().get(importId);
  return run && run.companyId === companyId ? run : undefined;
}

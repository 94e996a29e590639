import "server-only";
import type { Db } from "@/lib/db/client";
import type { ImportResultCounts } from "@/lib/db/schema";

/** Per column: a field name or null (ignored); lib/import/csv/mapping.ts's ImportMapping. */
export type ImportMapping = (string | null)[];
/** Why a row is refused; lib/import/csv/convert.ts's RowProblem. */
export interface RowProblem {
  row: number;
  column: string | null;
  field: string | null;
  reason: string;
}

export interface RunImportInput {
  companyId: string;
  importId: string;
  mapping: ImportMapping;
  dryRun: boolean;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface RunImportOutput {
  result: ImportResultCounts;
  /** Sorted by row, the first 10,000. */
  problems: RowProblem[];
  problemCount: number;
}

/** The engine: dry run (rolled back) or import (committed) of an uploaded import with this mapping. */
export async function runImport(db: Db, input: RunImportInput): Promise<RunImportOutput> {
  void db;
  void input;
  throw new Error("not implemented yet");
}

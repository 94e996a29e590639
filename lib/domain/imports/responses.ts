import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { importRows, imports, users } from "@/lib/db/schema";
import { IMPORT_FIELDS } from "@/lib/import/csv/mapping";
import { iso } from "@/lib/schemas/common";
import { IMPORT_SAMPLE_ROWS, type ImportResponse } from "@/lib/schemas/imports";
import { NoSuchImportError } from "./errors";
import { liveRun } from "./live";

export type ImportRow = typeof imports.$inferSelect;

/** An import as the API answers it, with its sample rows and uploader's name. */
export function toImportResponse(
  row: ImportRow,
  sample: string[][],
  createdBy: { id: string; name: string } | null,
): ImportResponse {
  const live =
    row.status === "checking" || row.status === "importing" ? liveRun(row.companyId, row.id) : undefined;
  return {
    id: row.id,
    type: row.type,
    file_name: row.fileName,
    status: row.status,
    encoding: row.encoding as ImportResponse["encoding"],
    delimiter: row.delimiter as ImportResponse["delimiter"],
    headers: row.headers,
    sample,
    row_count: row.rowCount,
    mapping: row.mapping,
    fields: IMPORT_FIELDS[row.type].map(({ field, label }) => ({ field, label })),
    progress: live
      ? { done: live.done, total: live.total }
      : { done: row.progressDone, total: row.progressTotal },
    result: row.result ?? null,
    problem_count: row.problemCount,
    error: row.error,
    created_by: createdBy,
    created_at: iso(row.createdAt)!,
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
  };
}

/** The import's stored row, or a 404. */
export async function loadImport(db: DbOrTx, companyId: string, importId: string): Promise<ImportRow> {
  const [row] = await db
    .select()
    .from(imports)
    .where(and(eq(imports.companyId, companyId), eq(imports.id, importId)));
  if (!row) throw new NoSuchImportError();
  return row;
}

/** The answer of a stored import row. */
export async function importResponseOf(db: DbOrTx, row: ImportRow): Promise<ImportResponse> {
  const [sample, creator] = await Promise.all([
    db
      .select({ values: importRows.values })
      .from(importRows)
      .where(and(eq(importRows.companyId, row.companyId), eq(importRows.importId, row.id)))
      .orderBy(asc(importRows.row))
      .limit(IMPORT_SAMPLE_ROWS),
    row.createdBy
      ? db
          .select({ id: users.id, name: users.name })
          .from(users)
          .where(and(eq(users.companyId, row.companyId), eq(users.id, row.createdBy)))
      : Promise.resolve([]),
  ]);
  return toImportResponse(
    row,
    sample.map((s) => s.values),
    creator[0] ?? null,
  );
}

export async function getImportResponse(
  db: DbOrTx,
  companyId: string,
  importId: string,
): Promise<ImportResponse> {
  return importResponseOf(db, await loadImport(db, companyId, importId));
}

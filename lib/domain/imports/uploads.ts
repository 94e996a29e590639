import "server-only";
import { and, eq, gt, lte, max, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { importRows, imports, type ImportRecordType } from "@/lib/db/schema";
import { backgroundTurns } from "@/lib/domain/background";
import { guessMapping } from "@/lib/import/csv/mapping";
import { CsvFormatError, openCsv, type CsvRecord, type OpenedCsv } from "@/lib/import/csv/read";
import { ID_PREFIX, newId } from "@/lib/ids";
import { IMPORT_MAX_BYTES, type ImportResponse } from "@/lib/schemas/imports";
import { ImportTooLargeError, InvalidCsvError } from "./errors";
import { getImportResponse } from "./responses";
import { insertRowsSql } from "./rows-sql";

export interface CreateImportInput {
  companyId: string;
  type: ImportRecordType;
  fileName: string;
  source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;
  /** The uploading user; null for the CLI or an API key. */
  createdBy: string | null;
}

/** Staged rows per insert, and the most characters one insert carries. */
const STAGE_BATCH_ROWS = 2_000;
const STAGE_BATCH_CHARS = 4 * 1024 * 1024;
const DELETE_BATCH_ROWS = 20_000;

/** The import of an upload that has not finished: shown as failed if the server stops meanwhile. */
const UNFINISHED_UPLOAD = "The upload did not finish";

/** The bytes of the source, refused past the size an import takes. */
async function* limited(
  source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>,
  state: { tooLarge: boolean },
  maxBytes: number,
): AsyncIterable<Uint8Array> {
  let size = 0;
  for await (const chunk of source as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      state.tooLarge = true;
      throw new ImportTooLargeError(tooLargeMessage(maxBytes));
    }
    yield chunk;
  }
}

const tooLargeMessage = (maxBytes: number) =>
  `The file must not be larger than ${maxBytes === IMPORT_MAX_BYTES ? "1 GiB" : `${maxBytes} bytes`}`;

/** A reading or storing failure as the upload's answer: too large, or not CSV naming the row. */
function uploadError(error: unknown, state: { tooLarge: boolean }, maxBytes: number): unknown {
  if (state.tooLarge || error instanceof ImportTooLargeError)
    return new ImportTooLargeError(tooLargeMessage(maxBytes));
  if (error instanceof CsvFormatError) return new InvalidCsvError(error.row, error.reason);
  return error;
}

/** Streams a CSV into a new import (status uploaded, mapping guessed); nothing is left when it fails. */
export async function createImport(
  db: Db,
  input: CreateImportInput,
  options: { maxBytes?: number } = {},
): Promise<ImportResponse> {
  const { companyId } = input;
  const maxBytes = options.maxBytes ?? IMPORT_MAX_BYTES;
  const state = { tooLarge: false };
  let opened: OpenedCsv;
  try {
    opened = await openCsv(limited(input.source, state, maxBytes));
  } catch (error) {
    throw uploadError(error, state, maxBytes);
  }
  const id = newId(ID_PREFIX.import);
  await db.insert(imports).values({
    companyId,
    id,
    type: input.type,
    fileName: input.fileName,
    status: "failed",
    error: UNFINISHED_UPLOAD,
    encoding: opened.encoding,
    delimiter: opened.delimiter,
    headers: opened.headers,
    mapping: guessMapping(input.type, opened.headers),
    createdBy: input.createdBy,
  });
  try {
    let batch: CsvRecord[] = [];
    let chars = 0;
    let count = 0;
    // Staging a large file is background work: it gives way to requests between rows (a turn
    // after a batch's insert counts the insert's time).
    const turn = backgroundTurns();
    const flush = async () => {
      if (batch.length === 0) return;
      const rows = batch.map((record) => ({
        companyId,
        importId: id,
        row: record.row,
        values: record.values,
      }));
      batch = [];
      chars = 0;
      await db.execute(insertRowsSql(importRows, ["companyId", "importId", "row", "values"], rows));
    };
    for await (const record of opened.records) {
      await turn();
      for (const value of record.values) {
        // PostgreSQL text cannot hold U+0000.
        if (value.includes("\u0000"))
          throw new InvalidCsvError(record.row, "contains the NUL character (U+0000)");
        chars += value.length;
      }
      batch.push(record);
      count++;
      if (batch.length >= STAGE_BATCH_ROWS || chars >= STAGE_BATCH_CHARS) await flush();
    }
    await flush();
    // Statistics that still say the table is empty make the planner choose nested loops over a
    // million fresh rows (the run's reads, the deletes): the upload ends with them brought up to date.
    await db.execute(sql`analyze ${importRows}`);
    await db
      .update(imports)
      .set({ status: "uploaded", error: null, rowCount: count, progressTotal: count, updatedAt: new Date() })
      .where(and(eq(imports.companyId, companyId), eq(imports.id, id)));
  } catch (error) {
    await deleteImport(db, companyId, id).catch(() => {});
    throw uploadError(error, state, maxBytes);
  }
  return getImportResponse(db, companyId, id);
}

/** Removes an import with its staged rows and problems (the CLI calls it when done). */
export async function deleteImport(db: Db, companyId: string, importId: string): Promise<void> {
  const where = and(eq(importRows.companyId, companyId), eq(importRows.importId, importId));
  const [{ last } = { last: null }] = await db
    .select({ last: max(importRows.row) })
    .from(importRows)
    .where(where);
  // A range of rows per statement: a million staged rows outlast one statement's time, and a key
  // range is read from the primary key whatever the table's statistics say.
  for (let from = 0; last !== null && from < last; from += DELETE_BATCH_ROWS) {
    await db
      .delete(importRows)
      .where(and(where, gt(importRows.row, from), lte(importRows.row, from + DELETE_BATCH_ROWS)));
  }
  await db.delete(imports).where(and(eq(imports.companyId, companyId), eq(imports.id, importId)));
}

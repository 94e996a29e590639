// The CSV side of npm run db:import (extensions.md E9): the dashboard's engine, run in-process.
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { companies } from "@/lib/db/schema";
import { ValidationError } from "@/lib/domain/errors";
import {
  createImport,
  deleteImport,
  ImportInProgressError,
  InvalidCsvError,
  runImport,
} from "@/lib/domain/imports";
import { createProgressBar, PROGRESS_THRESHOLD } from "@/lib/import";
import { checkMapping, parseMapOption, type ImportMapping, type ImportType } from "@/lib/import/csv";
import type { RowProblem } from "@/lib/import/csv";
import { CliError } from "./cli";

export interface CsvImportOptions {
  file: string;
  companyId: string;
  type: ImportType;
  dryRun: boolean;
  map: string | undefined;
}

/** Files from this size show a bar while they are read (rows are counted only once read). */
const READ_BAR_BYTES = 16 * 1024 * 1024;

/** `row 7, Email: must be a valid email address`; a problem of the whole row names no column. */
export function formatRowProblem(problem: RowProblem): string {
  return problem.column === null
    ? `row ${problem.row}: ${problem.reason}`
    : `row ${problem.row}, ${problem.column}: ${problem.reason}`;
}

function describeMapping(headers: readonly string[], mapping: ImportMapping): string[] {
  const used = headers.flatMap((header, i) => (mapping[i] ? [`"${header}" → ${mapping[i]}`] : []));
  const ignored = headers.filter((_, i) => !mapping[i]).map((header) => `"${header}"`);
  const lines = [`Columns: ${used.join(", ") || "none mapped"}`];
  if (ignored.length > 0) lines.push(`Ignored: ${ignored.join(", ")}`);
  return lines;
}

/** The bytes of the file with a bar of how many were read, for a large file. */
async function* readWithProgress(file: string, size: number): AsyncGenerator<Uint8Array> {
  const bar = size >= READ_BAR_BYTES ? createProgressBar(process.stderr, size, "Reading (bytes)") : undefined;
  let read = 0;
  try {
    for await (const chunk of fs.createReadStream(file, {
      highWaterMark: 1024 * 1024,
    }) as AsyncIterable<Buffer>) {
      read += chunk.length;
      bar?.update(read);
      yield chunk;
    }
    bar?.finish();
  } finally {
    bar?.stop("stopped");
  }
}

async function checkCompany(db: Db, companyId: string): Promise<void> {
  const [found] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!found) throw new CliError(`No company has the id "${companyId}"`);
}

/**
 * Stages the file as an upload would, runs the engine (a dry run rolls back), prints the problems
 * and the counts, and removes the staged rows whatever happened.
 */
export async function importCsv(db: Db, options: CsvImportOptions): Promise<void> {
  const { file, companyId, type, dryRun } = options;
  await checkCompany(db, companyId);
  const size = (await fs.promises.stat(file)).size;
  const upload = await createImport(db, {
    companyId,
    type,
    fileName: path.basename(file),
    source: readWithProgress(file, size),
    createdBy: null,
  }).catch((error: unknown) => {
    if (error instanceof InvalidCsvError) throw new CliError(`${file}: ${error.message}`);
    throw error;
  });
  try {
    let mapping = upload.mapping;
    if (options.map !== undefined) {
      try {
        mapping = parseMapOption(type, upload.headers, options.map);
      } catch (error) {
        throw new CliError((error as Error).message);
      }
    }
    for (const line of describeMapping(upload.headers, mapping)) console.log(line);
    const mappingProblems = checkMapping(type, mapping);
    if (mappingProblems.length > 0)
      throw new CliError(
        `The columns cannot be imported as ${type}: ${mappingProblems.join("; ")}. Use --map.`,
      );

    const total = upload.row_count;
    const bar =
      total >= PROGRESS_THRESHOLD
        ? createProgressBar(process.stderr, total, dryRun ? "Checking" : "Importing")
        : undefined;
    const run = await runImport(db, {
      companyId,
      importId: upload.id,
      mapping,
      dryRun,
      onProgress: (done) => bar?.update(done),
    }).catch((error: unknown) => {
      bar?.stop("failed");
      if (error instanceof ImportInProgressError) throw new CliError(error.message);
      if (error instanceof ValidationError)
        throw new CliError(error.details.map((d) => `${d.field}: ${d.message}`).join("; "));
      throw error;
    });
    const { created, updated, refused, matched_on: on } = run.result;
    if (refused > 0) bar?.stop("refused");
    else bar?.finish();

    // The problems start on a line of their own, after the bar, one per line.
    for (const problem of run.problems) console.error(formatRowProblem(problem));
    if (run.problemCount > run.problems.length)
      console.error(`… and ${run.problemCount - run.problems.length} more problems`);
    if (updated > 0) console.log(`(updates matched on id ${on.id}, phone ${on.phone}, email ${on.email})`);
    if (dryRun) console.log(`would create ${created}, update ${updated}, refuse ${refused}`);
    if (refused > 0)
      throw new CliError(
        `${refused} row${refused === 1 ? "" : "s"} refused (listed above); nothing was written.`,
      );
    if (!dryRun) console.log(`created ${created}, updated ${updated}`);
  } finally {
    await deleteImport(db, companyId, upload.id);
  }
}

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import type { Db } from "@/lib/db/client";
import { companies } from "@/lib/db/schema";
import { createImport, deleteImport, runImport } from "@/lib/domain/imports";
import type { RawDb } from "./db";
import {
  FIRST_NAMES,
  LAST_NAMES,
  LEAD_SOURCES,
  LEAD_STAGES,
  LEAD_TAGS,
  SERVICE_TYPES,
} from "./data/vocabulary";
import { Progress } from "./progress";

/** A tenant of its own, removed after the measurement, as the JSON import's. */
export const CSV_IMPORT_COMPANY_ID = "co_bench_csv_import";

/** Every this many rows repeats an earlier row's phone: the file's own duplicates, matched on phone. */
export const DUPLICATE_EVERY = 50;

/** Headers as other CRMs export them: each is guessed to its field (lib/import/csv/mapping.ts). */
export const CSV_HEADERS = [
  "First Name",
  "Last Name",
  "E-mail",
  "Mobile",
  "Street Address",
  "City",
  "State",
  "Zip Code",
  "Lead Status",
  "Priority",
  "Estimated Value",
  "Lead Source",
  "Service Type",
  "Tags",
  "Notes",
] as const;

const at = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

/** The phone of data row `i`; a duplicate row takes the phone of the row seven before it. */
function phoneOf(i: number): string {
  const n = i % DUPLICATE_EVERY === DUPLICATE_EVERY - 1 ? i - 7 : i;
  return `(737) ${200 + (Math.floor(n / 10_000) % 800)}-${String(n % 10_000).padStart(4, "0")}`;
}

/** Data row `i` of the file (0-based), in CSV_HEADERS' order. */
export function csvRowOf(i: number): string[] {
  const first = at(FIRST_NAMES, i * 7);
  const last = at(LAST_NAMES, i * 13);
  const tags = i % 3 === 0 ? [at(LEAD_TAGS, i)[0], at(LEAD_TAGS, i + 1)[0]].join(", ") : "";
  return [
    first,
    last,
    `${first.toLowerCase()}.${last.toLowerCase()}${i}@example.com`,
    phoneOf(i),
    `${1 + (i % 9899)} Cedar Ln`,
    "Austin",
    "TX",
    "78702",
    at(LEAD_STAGES, i)[0],
    at(["Low", "Medium", "High"], i),
    `$${(100 + (i % 5000)).toLocaleString("en-US")}.00`,
    at(LEAD_SOURCES, i)[0],
    at(SERVICE_TYPES, i)[0],
    tags,
    // Quoted fields with commas, quotes and a line break, as spreadsheets write notes.
    i % 10 === 0 ? `Called twice, "left voicemail"\nprefers mornings` : "",
  ];
}

/** The rows a file of `count` data rows creates and updates (a duplicate updates the earlier one). */
export function expectedCsvCounts(count: number): { created: number; updated: number } {
  const updated = Math.floor(count / DUPLICATE_EVERY);
  return { created: count - updated, updated };
}

/** Writes a CSV of `count` leads to `file` through csv-stringify, a row at a time. */
export async function writeCsvFile(file: string, count: number): Promise<number> {
  async function* rows() {
    for (let i = 0; i < count; i++) yield csvRowOf(i);
  }
  await pipeline(
    Readable.from(rows()),
    stringify({ header: true, columns: [...CSV_HEADERS] }),
    fs.createWriteStream(file),
  );
  return fs.statSync(file).size;
}

/** This process's memory sampled every 250 ms: the growth over the first sample, in MB. */
class MemorySampler {
  private readonly timer: NodeJS.Timeout;
  private readonly start = process.memoryUsage();
  private peakRss = this.start.rss;
  private peakHeap = this.start.heapUsed;

  constructor() {
    this.timer = setInterval(() => this.sample(), 250);
  }

  private sample() {
    const now = process.memoryUsage();
    this.peakRss = Math.max(this.peakRss, now.rss);
    this.peakHeap = Math.max(this.peakHeap, now.heapUsed);
  }

  stop(): MemoryGrowth {
    clearInterval(this.timer);
    this.sample();
    const mb = (bytes: number) => Math.round(bytes / 1024 / 102.4) / 10;
    return { rssMb: mb(this.peakRss - this.start.rss), heapMb: mb(this.peakHeap - this.start.heapUsed) };
  }
}

export interface MemoryGrowth {
  /** Peak resident set size over the phase's start. */
  rssMb: number;
  /** Peak V8 heap in use over the phase's start. */
  heapMb: number;
}

export interface CsvPhase {
  seconds: number;
  memory: MemoryGrowth;
}

export interface CsvImportMeasure {
  leads: number;
  fileMb: number;
  /** createImport from a file stream: parsing and staging the rows. */
  stage: CsvPhase;
  dryRun: CsvPhase & { created: number; updated: number; refused: number };
  import: CsvPhase & { created: number; updated: number; refused: number };
  note?: string;
}

async function removeTenant(raw: RawDb): Promise<void> {
  await raw.query(`delete from leads where company_id = $1`, [CSV_IMPORT_COMPANY_ID]);
  // The company's imports, staged rows, activity and events go with it (foreign keys cascade).
  await raw.query(`delete from companies where id = $1`, [CSV_IMPORT_COMPANY_ID]);
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; phase: CsvPhase }> {
  // A collection first, so one phase's garbage does not count as the next one's growth.
  (globalThis as { gc?: () => void }).gc?.();
  const sampler = new MemorySampler();
  const started = performance.now();
  try {
    const value = await work();
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    return { value, phase: { seconds, memory: sampler.stop() } };
  } catch (error) {
    sampler.stop();
    throw error;
  }
}

/**
 * Issue #53's CSV measurement: a file of `count` leads (some repeating an earlier row's phone) is
 * staged with createImport from a file stream, then runImport's dry run and import are timed, with
 * this process's memory growth during each; then the tenant is removed and `leads` rewritten.
 */
export async function measureCsvImport(db: Db, raw: RawDb, count: number): Promise<CsvImportMeasure> {
  await removeTenant(raw);
  await db.insert(companies).values({ id: CSV_IMPORT_COMPANY_ID, name: "Bench CSV import tenant" });
  const file = path.join(os.tmpdir(), `fcrm-bench-csv-${process.pid}-${count}.csv`);
  try {
    const bytes = await writeCsvFile(file, count);
    const staged = await timed(() =>
      createImport(db, {
        companyId: CSV_IMPORT_COMPANY_ID,
        type: "leads",
        fileName: path.basename(file),
        source: fs.createReadStream(file),
        createdBy: null,
      }),
    );
    const upload = staged.value;
    const unmapped = CSV_HEADERS.filter((_, i) => !upload.mapping[i]);
    if (unmapped.length > 0) throw new Error(`columns not guessed: ${unmapped.join(", ")}`);
    const run = async (dryRun: boolean) => {
      const progress = new Progress(dryRun ? "csv dry run" : "csv import", count);
      let last = 0;
      const { value, phase } = await timed(() =>
        runImport(db, {
          companyId: CSV_IMPORT_COMPANY_ID,
          importId: upload.id,
          mapping: upload.mapping,
          dryRun,
          onProgress: (done) => {
            progress.tick(done - last, "runImport");
            last = done;
          },
        }),
      );
      progress.finish(dryRun ? "checked" : "imported");
      if (value.problemCount > 0)
        throw new Error(`${value.problemCount} refused rows, first: ${JSON.stringify(value.problems[0])}`);
      const { created, updated, refused } = value.result;
      return { ...phase, created, updated, refused };
    };
    const dryRun = await run(true);
    const imported = await run(false);
    const expected = expectedCsvCounts(count);
    const note =
      imported.created === expected.created && imported.updated === expected.updated
        ? undefined
        : `expected ${expected.created} created and ${expected.updated} updated`;
    await deleteImport(db, CSV_IMPORT_COMPANY_ID, upload.id);
    return {
      leads: count,
      fileMb: Math.round(bytes / 1024 / 102.4) / 10,
      stage: staged.phase,
      dryRun,
      import: imported,
      ...(note ? { note } : {}),
    };
  } finally {
    fs.rmSync(file, { force: true });
    await removeTenant(raw);
    for (const table of ["leads", "record_activity", "import_rows"]) {
      await raw.query(`vacuum (full) ${table}`);
      await raw.query(`vacuum (analyze) ${table}`);
    }
  }
}

// npm run db:import -- file.json [--dry-run] – all-or-nothing, idempotent import (contract section 10); a
// refused file lists every problem and exits 1. FCRM_IMPORT_STREAM_THRESHOLD: bytes from which it streams
// (64 MiB).
// npm run db:import -- file.csv --company <id> --type leads|customers [--dry-run] [--map "Column=field,..."]
// – a CSV file of leads or customers through the dashboard's import engine (extensions.md E9).
import fs from "node:fs";
import { parseArgs } from "node:util";
import { openDatabase } from "@/lib/db/client";
import { env, parseDatabaseUrl } from "@/lib/env";
import {
  createProgressBar,
  formatProblem,
  importDocument,
  ImportRefusedError,
  InvalidJsonError,
  PROGRESS_THRESHOLD,
  readJsonFile,
  STREAM_THRESHOLD,
} from "@/lib/import";
import { IMPORT_TYPES, type ImportType } from "@/lib/import/csv";
import type { Db } from "@/lib/db/client";
import { CliError, runCli } from "./cli";
import { BULK_WORK } from "./database-options";
import { importCsv, type CsvImportOptions } from "./import-csv";
import { formatCounts } from "./import-output";

const USAGE = [
  "Usage: npm run db:import -- <file.json> [--dry-run]",
  '       npm run db:import -- <file.csv> --company <id> --type leads|customers [--dry-run] [--map "Column=field,..."]',
].join("\n");

type Command = { kind: "json"; file: string; dryRun: boolean } | ({ kind: "csv" } & CsvImportOptions);

/** A CSV file is named by its extension, or by giving --type. */
const CSV_EXTENSION = /\.(csv|tsv|txt)$/i;

function parseCommand(argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.filter((a) => a !== "--"),
      allowPositionals: true,
      options: {
        company: { type: "string" },
        type: { type: "string" },
        map: { type: "string" },
        "dry-run": { type: "boolean", default: false },
      },
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n${USAGE}`);
  }
  const { positionals, values } = parsed;
  if (positionals.length !== 1) throw new CliError(USAGE);
  const file = positionals[0]!;
  const dryRun = values["dry-run"] ?? false;
  if (!CSV_EXTENSION.test(file) && values.type === undefined) {
    if (values.company !== undefined || values.map !== undefined)
      throw new CliError(`--company and --map are for CSV files (with --type)\n${USAGE}`);
    return { kind: "json", file, dryRun };
  }
  if (values.company === undefined || values.company.trim() === "")
    throw new CliError(`A CSV import needs --company <id>\n${USAGE}`);
  const type = values.type;
  if (!(IMPORT_TYPES as readonly string[]).includes(type ?? ""))
    throw new CliError(`A CSV import needs --type leads or --type customers\n${USAGE}`);
  return {
    kind: "csv",
    file,
    companyId: values.company.trim(),
    type: type as ImportType,
    dryRun,
    map: values.map,
  };
}

function streamThreshold(): number {
  const given = process.env.FCRM_IMPORT_STREAM_THRESHOLD;
  if (given === undefined || given === "") return STREAM_THRESHOLD;
  if (!/^\d+$/.test(given))
    throw new CliError(`FCRM_IMPORT_STREAM_THRESHOLD must be a number of bytes, not "${given}"`);
  return Number(given);
}

async function readFile(file: string): Promise<unknown> {
  try {
    return await readJsonFile(file, { streamThreshold: streamThreshold() });
  } catch (error) {
    if (error instanceof CliError) throw error;
    if (error instanceof InvalidJsonError) throw new CliError(`${file} is not valid JSON: ${error.message}`);
    throw new CliError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** A database error carries the failed statement (thousands of values): only its reason is shown. */
function databaseRefusal(error: unknown): CliError {
  const reason =
    error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : error;
  return new CliError(`The database refused the import (${String(reason)}); nothing was written.`);
}

async function importJson(db: Db, file: string, input: unknown, dryRun: boolean): Promise<void> {
  let bar: ReturnType<typeof createProgressBar> | undefined;
  const started = Date.now();
  const result = await importDocument(db, input, {
    dryRun,
    onProgress: ({ phase, done, total }) => {
      if (total < PROGRESS_THRESHOLD || phase !== "writing") return;
      bar ??= createProgressBar(process.stderr, total, dryRun ? "Checking" : "Importing");
      bar.update(done);
    },
  }).catch((error: unknown) => {
    // The problems below start on a line of their own, not after the bar.
    bar?.stop("refused");
    if (error instanceof ImportRefusedError) {
      for (const problem of error.problems) console.error(formatProblem(problem));
      throw new CliError(error.message);
    }
    throw databaseRefusal(error);
  });
  bar?.finish();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    dryRun
      ? `Dry run of ${file} (${result.records} records in ${seconds} s), nothing was written; it would write:`
      : `Imported ${file} (${result.records} records in ${seconds} s):`,
  );
  for (const line of formatCounts(result.counts)) console.log(line);
}

runCli(async () => {
  const command = parseCommand(process.argv.slice(2));
  const input = command.kind === "json" ? await readFile(command.file) : undefined;
  if (command.kind === "csv")
    await fs.promises.access(command.file, fs.constants.R_OK).catch((error: NodeJS.ErrnoException) => {
      throw new CliError(`Cannot read ${command.file}: ${error.code ?? String(error)}`);
    });

  const database = await openDatabase(parseDatabaseUrl(env().DATABASE_URL), BULK_WORK);
  try {
    await database.migrate();
    if (command.kind === "json") await importJson(database.db, command.file, input, command.dryRun);
    else
      await importCsv(database.db, command).catch((error: unknown) => {
        throw error instanceof CliError ? error : databaseRefusal(error);
      });
  } finally {
    await database.close();
  }
});

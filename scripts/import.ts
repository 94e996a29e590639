// npm run db:import -- file.json – all-or-nothing, idempotent import (contract section 10); a refused file
// lists every problem and exits 1. FCRM_IMPORT_STREAM_THRESHOLD: bytes from which it streams (64 MiB).
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
import { CliError, runCli } from "./cli";
import { BULK_WORK } from "./database-options";
import { formatCounts } from "./import-output";

const USAGE = "Usage: npm run db:import -- <file.json>";

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

runCli(async () => {
  const args = process.argv.slice(2).filter((a) => a !== "--");
  if (args.length !== 1 || args[0]!.startsWith("-")) throw new CliError(USAGE);
  const file = args[0]!;
  const input = await readFile(file);

  const database = await openDatabase(parseDatabaseUrl(env().DATABASE_URL), BULK_WORK);
  try {
    await database.migrate();
    let bar: ReturnType<typeof createProgressBar> | undefined;
    const started = Date.now();
    const result = await importDocument(database.db, input, {
      onProgress: ({ phase, done, total }) => {
        if (total < PROGRESS_THRESHOLD || phase !== "writing") return;
        bar ??= createProgressBar(process.stderr, total, "Importing");
        bar.update(done);
      },
    }).catch((error: unknown) => {
      // The problems below start on a line of their own, not after the bar.
      bar?.stop("refused");
      if (error instanceof ImportRefusedError) {
        for (const problem of error.problems) console.error(formatProblem(problem));
        throw new CliError(error.message);
      }
      // A database error carries the failed statement (thousands of values): show only its reason.
      const reason =
        error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : error;
      throw new CliError(`The database refused the import (${String(reason)}); nothing was written.`);
    });
    bar?.finish();
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`Imported ${file} (${result.records} records in ${seconds} s):`);
    for (const line of formatCounts(result.counts)) console.log(line);
  } finally {
    await database.close();
  }
});

// npm start – applies pending migrations, then serves on PORT in this same process, so the
// embedded database is opened once; with WEB_CONCURRENCY > 1 each worker runs this file.
import cluster from "node:cluster";
import { getDatabase } from "@/lib/db/client";
import { DirectoryInUseError } from "@/lib/db/directory-lock";
import { env, InvalidEnvironmentError } from "@/lib/env";
import { checkWorkers, runPrimary, runWorker, StartRefusedError, workerCount } from "./cluster";
import { runProductionServer, setProductionMode } from "./server";

async function main() {
  setProductionMode();
  const settings = env();
  if (cluster.isWorker) return runWorker(settings.PORT);
  const workers = workerCount(settings.WEB_CONCURRENCY);
  checkWorkers(settings, workers);
  if (workers > 1) return runPrimary(settings, workers);
  // Opens the database for the whole life of the server (the embedded one also migrates here).
  const database = await getDatabase();
  if (database.engine === "postgres") await database.migrate();
  const running = await runProductionServer({ port: settings.PORT });
  console.log(`FieldCRM: ${running.url}`);
}

main().catch((error: unknown) => {
  const clear =
    error instanceof DirectoryInUseError ||
    error instanceof InvalidEnvironmentError ||
    error instanceof StartRefusedError;
  if (cluster.isWorker) {
    // The primary restarts it, so this may repeat: one line for an error of the system (a port
    // in use: its message says it all), the stack for anything else.
    const systemError = error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string";
    const what = clear || systemError ? (error as Error).message : error;
    console.error(`worker ${cluster.worker?.id}: could not start:`, what);
  } else {
    console.error(clear ? `Error: ${error.message}` : error);
  }
  process.exit(1);
});

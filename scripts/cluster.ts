// `npm start` with WEB_CONCURRENCY > 1 (PostgreSQL only): one process is capped by one core, so the
// primary migrates once and forks workers on one port; all shared state lives in the database.
import cluster, { type Worker } from "node:cluster";
import os from "node:os";
import { getDatabase, openDatabase } from "@/lib/db/client";
import { parseDatabaseUrl, type Env } from "@/lib/env";
import { runProductionServer, SHUTDOWN_GRACE_MS } from "./server";

/** A worker that dies before it is ready, or this soon after, died at start-up. */
export const START_UP_WINDOW_MS = 10_000;
/** After this many deaths at start-up in a row the primary gives up (a broken build, a port in use). */
export const MAX_START_UP_DEATHS = 5;
/** A stopping worker waits for its requests, then for the database: each at most the grace. */
const STOP_TIMEOUT_MS = 2 * SHUTDOWN_GRACE_MS + 5_000;

/** WEB_CONCURRENCY as a number of processes ("auto": one per core this process may use). */
export function workerCount(setting: Env["WEB_CONCURRENCY"]): number {
  return setting === "auto" ? os.availableParallelism() : setting;
}

/** A start that is refused before anything runs: the message says why and what to change. */
export class StartRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartRefusedError";
  }
}

/** Several processes need a database that several processes can open: a PostgreSQL server. */
export function checkWorkers(settings: Env, workers: number): void {
  if (workers > 1 && parseDatabaseUrl(settings.DATABASE_URL).kind !== "postgres") {
    throw new StartRefusedError(
      `WEB_CONCURRENCY=${settings.WEB_CONCURRENCY} asks for ${workers} server processes, but the embedded ` +
        "database (PGlite) can only be opened by one process. Unset WEB_CONCURRENCY (or set it to 1), " +
        "or set DATABASE_URL to a PostgreSQL server.",
    );
  }
}

/** What a worker tells the primary once it listens and handles SIGTERM/SIGINT. */
interface ReadyMessage {
  fieldcrm: "ready";
  url: string;
}

const isReady = (message: unknown): message is ReadyMessage =>
  typeof message === "object" && message !== null && (message as ReadyMessage).fieldcrm === "ready";

/** In a worker process: the production server on the shared port, on the worker's own database pool. */
export async function runWorker(port: number): Promise<void> {
  const name = `worker ${cluster.worker?.id ?? "?"}`;
  await getDatabase(); // held for the worker's life, as in a single process
  const running = await runProductionServer({ port, log: (message) => console.log(`${name}: ${message}`) });
  process.send?.({ fieldcrm: "ready", url: running.url } satisfies ReadyMessage);
}

/** In the primary process: migrations, then `workers` workers, kept running until a signal. */
export async function runPrimary(settings: Env, workers: number): Promise<void> {
  const database = await openDatabase(parseDatabaseUrl(settings.DATABASE_URL), {
    statementTimeoutMs: settings.DB_STATEMENT_TIMEOUT_MS,
    poolSize: 1,
  });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  supervise(workers);
}

interface WorkerState {
  readyAt?: number;
}

function supervise(count: number): void {
  const log = (message: string) => console.log(message);
  const workers = new Map<Worker, WorkerState>();
  const restarts = new Set<NodeJS.Timeout>();
  let announced = false;
  let startUpDeaths = 0;
  let stopping = false;
  let status = 0;
  const fork = () => workers.set(cluster.fork(), {});
  const named = (worker: Worker) => `worker ${worker.id} (pid ${worker.process.pid})`;

  cluster.on("message", (worker, message: unknown) => {
    const state = workers.get(worker);
    if (!state || !isReady(message)) return;
    state.readyAt = Date.now();
    if (announced) {
      log(`${named(worker)} ready`);
    } else if ([...workers.values()].filter((w) => w.readyAt !== undefined).length === count) {
      announced = true;
      log(`FieldCRM: ${message.url} with ${count} workers`);
    }
  });

  cluster.on("exit", (worker, code: number | null, signal: NodeJS.Signals | null) => {
    const state = workers.get(worker);
    workers.delete(worker);
    const how = signal ? `was killed by ${signal}` : `exited with status ${code}`;
    if (stopping) {
      // A worker stopped before it handled signals had no request to finish.
      const clean =
        code === 0 || (state?.readyAt === undefined && (signal === "SIGTERM" || signal === "SIGINT"));
      if (!clean) {
        status = 1;
        log(`${named(worker)} ${how}`);
      }
      if (workers.size === 0) finish();
      return;
    }
    const atStartUp = state?.readyAt === undefined || Date.now() - state.readyAt < START_UP_WINDOW_MS;
    startUpDeaths = atStartUp ? startUpDeaths + 1 : 0;
    if (startUpDeaths >= MAX_START_UP_DEATHS) {
      log(`${named(worker)} ${how}; ${startUpDeaths} workers in a row died at start-up: giving up`);
      stop("giving up", 1);
      return;
    }
    // Deaths at start-up in a row wait longer and longer (0.5 s, 1 s, 2 s…) before the next fork.
    const delay = atStartUp ? 500 * 2 ** (startUpDeaths - 1) : 0;
    log(`${named(worker)} ${how}; starting another${delay ? ` in ${delay / 1000} s` : ""}`);
    const timer = setTimeout(() => {
      restarts.delete(timer);
      fork();
    }, delay);
    restarts.add(timer);
  });

  const stop = (reason: string, exitStatus = 0) => {
    if (stopping) return; // a repeated signal changes nothing: the workers' grace bounds the wait
    stopping = true;
    status = exitStatus;
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    if (workers.size > 0) log(`${reason}: stopping ${workers.size} worker(s)`);
    for (const worker of workers.keys()) worker.process.kill("SIGTERM");
    setTimeout(() => {
      log(`workers still running after ${STOP_TIMEOUT_MS / 1000} s: killed`);
      status = 1;
      for (const worker of workers.keys()) worker.process.kill("SIGKILL");
    }, STOP_TIMEOUT_MS).unref();
    if (workers.size === 0) finish();
  };

  const finish = () => {
    log(status === 0 ? "all workers stopped" : "workers stopped; exit status 1");
    process.exit(status);
  };

  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => stop(signal));
  for (let i = 0; i < count; i++) fork();
}

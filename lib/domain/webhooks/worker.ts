import "server-only";
import type PgBoss from "pg-boss";
import type { Database } from "@/lib/db/client";
import { deliver, pruneWebhookLog, type DeliverOptions } from "./deliver";
import { workImportQueues } from "@/lib/domain/imports/job";
import { bossFor, DELIVER_QUEUE, PRUNE_QUEUE, type DeliverJob } from "./queue";
import { startRelay } from "./relay";

/** Jobs fetched at once; they are sent in parallel (one worker must reach 200 events/s). */
export const BATCH_SIZE = 50;

export interface WebhookWorker {
  stop(): Promise<void>;
}

export interface WorkerOptions extends DeliverOptions {
  pollingIntervalSeconds?: number;
  log?: (message: string) => void;
}

/**
 * Runs the delivery worker on this database until stopped: in the server process, or alone as
 * `npm run worker`: the relay that turns events into deliveries, and their delivery. On PostgreSQL
 * several may run: relays skip each other's events and pg-boss hands each job to one worker
 * (SELECT … FOR UPDATE SKIP LOCKED), and the delivery's claim guards against duplicate jobs.
 */
export async function startWebhookWorker(database: Database, options: WorkerOptions): Promise<WebhookWorker> {
  const log = options.log ?? (() => {});
  const boss: PgBoss = bossFor(database);
  // A lost connection must not crash the server: pg-boss retries on its next poll.
  boss.on("error", (error) => log(`webhooks worker: ${error.message}`));
  await boss.start();
  // Set once work() answers (a batch handled before then waits out the interval as usual).
  const delivering: { workerId?: string } = {};
  delivering.workerId = await boss.work<DeliverJob>(
    DELIVER_QUEUE,
    { batchSize: BATCH_SIZE, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 },
    async (jobs) => {
      // pg-boss waits out the polling interval after each batch: a full batch means a backlog, so
      // the worker fetches again at once instead.
      if (jobs.length === BATCH_SIZE && delivering.workerId) boss.notifyWorker(delivering.workerId);
      // Each delivery records its own failure and retry: a job fails only when the database does.
      const results = await Promise.allSettled(
        jobs.map((job) => deliver(database.db, job.data.companyId, job.data.deliveryId, options)),
      );
      const failed = results.find((r) => r.status === "rejected");
      if (failed) throw (failed as PromiseRejectedResult).reason;
    },
  );
  await boss.work(PRUNE_QUEUE, async () => {
    const pruned = await pruneWebhookLog(database.db);
    log(`webhooks: pruned ${pruned.deliveries} deliveries and ${pruned.events} events older than 30 days`);
  });
  // Daily at 03:17 UTC; pg-boss keeps the schedule in the database (one run across processes).
  await boss.schedule(PRUNE_QUEUE, "17 3 * * *");
  // The CSV import runs share the worker and its queue connection.
  await workImportQueues(boss, database.db, { pollingIntervalSeconds: options.pollingIntervalSeconds, log });
  // Committed events become deliveries here; the delivery worker is woken for each batch.
  const relay = startRelay(database.db, {
    intervalMs: (options.pollingIntervalSeconds ?? 1) * 1000,
    onRelayed: () => {
      if (delivering.workerId) boss.notifyWorker(delivering.workerId);
    },
    log,
  });
  return {
    async stop() {
      await relay.stop();
      await boss.stop({ graceful: true, wait: true, timeout: 15_000 });
    },
  };
}

import "server-only";
import { getDatabase } from "@/lib/db/client";
import { env } from "@/lib/env";
import { isAllowedAddress } from "./address-policy";
import { startWebhookWorker, type WebhookWorker } from "./worker";

// One worker per process, kept on globalThis like the database (dev-mode reloads reuse it).
const globalForWorker = globalThis as unknown as { __fieldcrmWebhookWorker?: Promise<WebhookWorker> };

/** Starts this process's webhook worker on its database, unless WEBHOOKS_WORKER=off. */
export function startProcessWebhookWorker(
  options: { force?: boolean } = {},
): Promise<WebhookWorker> | undefined {
  if (!options.force && env().WEBHOOKS_WORKER === "off") return undefined;
  globalForWorker.__fieldcrmWebhookWorker ??= (async () => {
    const database = await getDatabase();
    const worker = await startWebhookWorker(database, {
      allowAddress: isAllowedAddress,
      leaseMs: env().WEBHOOKS_LEASE_SECONDS * 1000,
      log: (message) => console.error(message),
    });
    console.log(`webhooks: delivery worker started (${database.engine})`);
    return worker;
  })();
  return globalForWorker.__fieldcrmWebhookWorker;
}

/** Stops the worker (before the database closes on shutdown); jobs in flight finish or are retried. */
export async function stopProcessWebhookWorker(): Promise<void> {
  const running = globalForWorker.__fieldcrmWebhookWorker;
  globalForWorker.__fieldcrmWebhookWorker = undefined;
  if (running) await (await running.catch(() => undefined))?.stop();
}

import "server-only";
import type { DbOrTx } from "@/lib/db/client";
import { addDeliverJobs } from "./queue";

/**
 * Queues the delivery of these webhook_deliveries rows, in the caller's transaction (the change's
 * own), so a rolled-back change queues nothing and a committed one is never lost.
 */
export async function enqueueDeliveries(tx: DbOrTx, companyId: string, deliveryIds: string[]): Promise<void> {
  await addDeliverJobs(tx, companyId, deliveryIds);
}

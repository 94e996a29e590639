import "server-only";
import { and, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "@/lib/db/schema";
import { recordAudit } from "@/lib/domain/audit/audit";
import { addDeliverJobs } from "./queue";
import { DISABLE_AFTER_MS, MAX_ATTEMPTS, nextAttemptAt } from "./schedule";
import { sendWebhook, type SendResult } from "./send";
import { signedHeaders, signingSecrets } from "./signing";

/**
 * While one process sends a delivery, its next_attempt_at is pushed this far ahead: another
 * process (a duplicate job) cannot claim it meanwhile, and after a crash it is free again.
 * The default; the server's worker takes WEBHOOKS_LEASE_SECONDS.
 */
export const CLAIM_LEASE_MS = 60_000;

export type DeliverOutcome = "succeeded" | "failed" | "dead" | "skipped";

export interface DeliverOptions {
  allowAddress: (address: string) => boolean;
  send?: typeof sendWebhook;
  now?: () => Date;
  random?: () => number;
  /** The claim's lease; default CLAIM_LEASE_MS (WEBHOOKS_LEASE_SECONDS in the server's worker). */
  leaseMs?: number;
}

/**
 * Sends one delivery once, if it is due and no other process holds it, then records the answer:
 * a success clears the endpoint's failing_since; a failure schedules the next attempt (a job
 * added in the same transaction) or gives up, and an endpoint failing for 5 days is disabled.
 */
export async function deliver(
  db: Db,
  companyId: string,
  deliveryId: string,
  options: DeliverOptions,
): Promise<DeliverOutcome> {
  const now = options.now ?? (() => new Date());
  const [row] = await db
    .select({
      attempts: webhookDeliveries.attempts,
      status: webhookDeliveries.status,
      eventId: webhookEvents.id,
      payload: webhookEvents.payload,
      endpointId: webhookEndpoints.id,
      url: webhookEndpoints.url,
      enabled: webhookEndpoints.enabled,
      secret: webhookEndpoints.secret,
      previousSecret: webhookEndpoints.previousSecret,
      previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
    })
    .from(webhookDeliveries)
    .innerJoin(
      webhookEvents,
      and(
        eq(webhookEvents.companyId, webhookDeliveries.companyId),
        eq(webhookEvents.id, webhookDeliveries.eventId),
      ),
    )
    .innerJoin(
      webhookEndpoints,
      and(
        eq(webhookEndpoints.companyId, webhookDeliveries.companyId),
        eq(webhookEndpoints.id, webhookDeliveries.endpointId),
      ),
    )
    .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, deliveryId)));
  // Pruned, or its endpoint deleted: nothing to send.
  if (!row) return "skipped";
  if (row.status !== "pending" && row.status !== "failed") return "skipped";
  if (!row.enabled) {
    await db
      .update(webhookDeliveries)
      .set({ status: "dead", nextAttemptAt: null, error: "Endpoint disabled" })
      .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, deliveryId)));
    return "dead";
  }

  // The claim: only one process moves attempts from n to n + 1 while the delivery is due.
  const claimedAt = now();
  const claimed = await db
    .update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      lastAttemptAt: claimedAt,
      nextAttemptAt: new Date(claimedAt.getTime() + (options.leaseMs ?? CLAIM_LEASE_MS)),
    })
    .where(
      and(
        eq(webhookDeliveries.companyId, companyId),
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.attempts, row.attempts),
        inArray(webhookDeliveries.status, ["pending", "failed"]),
        // A retry job that ran early (or a duplicate) waits for its own time.
        lte(webhookDeliveries.nextAttemptAt, claimedAt),
      ),
    )
    .returning({ attempts: webhookDeliveries.attempts });
  const attempts = claimed[0]?.attempts;
  if (attempts === undefined) {
    // Pending but not claimable: another attempt holds the lease. Look again when it ends, so an
    // attempt that died unrecorded (a crash, a lost connection) is sent again, not left pending.
    if (row.status === "pending") await recheckAfterLease(db, companyId, deliveryId);
    return "skipped";
  }

  const body = JSON.stringify(row.payload);
  const headers = signedHeaders(signingSecrets(row, claimedAt), row.eventId, claimedAt, body);
  const send = options.send ?? sendWebhook;
  let result: SendResult;
  try {
    result = await send(row.url, headers, body, { allowAddress: options.allowAddress });
  } catch {
    result = { ok: false, status: null, durationMs: 0, error: "Send failed" };
  }
  return record(
    db,
    companyId,
    deliveryId,
    row.endpointId,
    attempts,
    result,
    now(),
    options.random ?? Math.random,
  );
}

/** A job for the delivery a second after its lease ends, while it is still pending. */
async function recheckAfterLease(db: Db, companyId: string, deliveryId: string): Promise<void> {
  const [leased] = await db
    .select({ until: webhookDeliveries.nextAttemptAt })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.companyId, companyId),
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.status, "pending"),
      ),
    );
  if (!leased?.until) return;
  await addDeliverJobs(db, companyId, [deliveryId], new Date(leased.until.getTime() + 1000));
}

async function record(
  db: Db,
  companyId: string,
  deliveryId: string,
  endpointId: string,
  attempts: number,
  result: SendResult,
  at: Date,
  random: () => number,
): Promise<DeliverOutcome> {
  const thisDelivery = and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.id, deliveryId));
  const thisEndpoint = and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, endpointId));
  const answer = { responseCode: result.status, durationMs: result.durationMs, error: result.error };
  return db.transaction(async (tx) => {
    if (result.ok) {
      await tx
        .update(webhookDeliveries)
        .set({ ...answer, status: "succeeded", nextAttemptAt: null })
        .where(thisDelivery);
      await tx
        .update(webhookEndpoints)
        .set({ failingSince: null })
        .where(and(thisEndpoint, sql`failing_since is not null`));
      return "succeeded";
    }
    const next = attempts >= MAX_ATTEMPTS ? null : nextAttemptAt(attempts, at, random());
    await tx
      .update(webhookDeliveries)
      .set({ ...answer, status: next ? "failed" : "dead", nextAttemptAt: next })
      .where(thisDelivery);
    if (next) await addDeliverJobs(tx, companyId, [deliveryId], next);
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at})` })
      .where(thisEndpoint)
      .returning({ failingSince: webhookEndpoints.failingSince, enabled: webhookEndpoints.enabled });
    if (
      endpoint?.enabled &&
      endpoint.failingSince &&
      at.getTime() - endpoint.failingSince.getTime() >= DISABLE_AFTER_MS
    ) {
      await tx
        .update(webhookEndpoints)
        .set({
          enabled: false,
          disabledReason: `Every delivery failed for 5 days (since ${endpoint.failingSince.toISOString()}); last error: ${result.error ?? "unknown"}`,
          updatedAt: at,
        })
        .where(thisEndpoint);
      // Nobody acted: the system disabled it.
      await recordAudit(
        tx,
        { companyId, actor: null },
        {
          kind: "webhook.disabled",
          target: { type: "webhook_endpoint", id: endpointId },
          changes: [{ field: "enabled", from: true, to: false }],
        },
      );
    }
    return next ? "failed" : "dead";
  });
}

/** Deletes deliveries and events older than `days` (the log is kept 30 days). */
export async function pruneWebhookLog(
  db: Db,
  days = 30,
  now: Date = new Date(),
): Promise<{ deliveries: number; events: number }> {
  const before = new Date(now.getTime() - days * 24 * 3600 * 1000);
  return db.transaction(async (tx) => {
    const deliveries = await tx
      .delete(webhookDeliveries)
      .where(lte(webhookDeliveries.createdAt, before))
      .returning({ id: webhookDeliveries.id });
    const events = await tx
      .delete(webhookEvents)
      .where(lte(webhookEvents.createdAt, before))
      .returning({ id: webhookEvents.id });
    return { deliveries: deliveries.length, events: events.length };
  });
}

import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "@/lib/db/schema";
import type { DomainContext } from "@/lib/domain/context";
import { NotFoundError } from "@/lib/domain/errors";
import { pageOffset, paginationOf, type PaginationQuery } from "@/lib/schemas/common";
import { addDeliverJobs } from "./queue";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function endpointOf(db: DbOrTx, companyId: string, endpointId: string) {
  const [endpoint] = await db
    .select({ id: webhookEndpoints.id, enabled: webhookEndpoints.enabled })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.id, endpointId)));
  if (!endpoint) throw new NotFoundError("Webhook endpoint");
  return endpoint;
}

/** An endpoint's deliveries, newest first. */
export async function listDeliveries(ctx: DomainContext, endpointId: string, page: PaginationQuery) {
  await endpointOf(ctx.db, ctx.companyId, endpointId);
  const mine = and(
    eq(webhookDeliveries.companyId, ctx.companyId),
    eq(webhookDeliveries.endpointId, endpointId),
  );
  const [rows, [count]] = await Promise.all([
    ctx.db
      .select({
        id: webhookDeliveries.id,
        eventId: webhookDeliveries.eventId,
        type: webhookEvents.type,
        status: webhookDeliveries.status,
        responseCode: webhookDeliveries.responseCode,
        durationMs: webhookDeliveries.durationMs,
        attempts: webhookDeliveries.attempts,
        nextAttemptAt: webhookDeliveries.nextAttemptAt,
        error: webhookDeliveries.error,
        createdAt: webhookDeliveries.createdAt,
        lastAttemptAt: webhookDeliveries.lastAttemptAt,
      })
      .from(webhookDeliveries)
      .innerJoin(
        webhookEvents,
        and(
          eq(webhookEvents.companyId, webhookDeliveries.companyId),
          eq(webhookEvents.id, webhookDeliveries.eventId),
        ),
      )
      .where(mine)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(page.limit)
      .offset(pageOffset(page)),
    ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(mine),
  ]);
  return {
    data: rows.map((r) => ({
      id: r.id,
      event_id: r.eventId,
      type: r.type,
      status: r.status,
      response_code: r.responseCode,
      duration_ms: r.durationMs,
      attempts: r.attempts,
      // A pending delivery's lease or a finished one's leftovers are not a "next retry".
      next_attempt_at: r.status === "failed" ? iso(r.nextAttemptAt) : null,
      error: r.error,
      created_at: r.createdAt.toISOString(),
      last_attempt_at: iso(r.lastAttemptAt),
    })),
    pagination: paginationOf(page, count?.n ?? 0),
  };
}

/** Queues a delivery again, whatever its state: its attempts start over. */
export async function resendDelivery(ctx: DomainContext, endpointId: string, deliveryId: string) {
  return ctx.db.transaction(async (tx) => {
    await endpointOf(tx, ctx.companyId, endpointId);
    const [row] = await tx
      .update(webhookDeliveries)
      .set({ status: "pending", attempts: 0, nextAttemptAt: sql`now()`, error: null })
      .where(
        and(
          eq(webhookDeliveries.companyId, ctx.companyId),
          eq(webhookDeliveries.endpointId, endpointId),
          eq(webhookDeliveries.id, deliveryId),
        ),
      )
      .returning({ id: webhookDeliveries.id, eventId: webhookDeliveries.eventId });
    if (!row) throw new NotFoundError("Webhook delivery");
    await addDeliverJobs(tx, ctx.companyId, [row.id]);
    return { id: row.id, event_id: row.eventId, status: "pending" as const };
  });
}

/** Queues a `webhook.test` event to this endpoint alone. */
export async function sendTestEvent(ctx: DomainContext, endpointId: string) {
  return ctx.db.transaction(async (tx) => {
    await endpointOf(tx, ctx.companyId, endpointId);
    const timestamp = new Date().toISOString();
    const [event] = await tx
      .insert(webhookEvents)
      .values({
        companyId: ctx.companyId,
        type: "webhook.test",
        recordType: "webhook_endpoint",
        recordId: endpointId,
        // Its one delivery is written here, so the relay has nothing to do for it.
        relayedAt: sql`now()`,
        payload: {
          type: "webhook.test",
          timestamp,
          data: { endpoint_id: endpointId, message: "A test event from FieldCRM settings." },
        },
      })
      .returning({ id: webhookEvents.id });
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({ companyId: ctx.companyId, eventId: event!.id, endpointId })
      .returning({ id: webhookDeliveries.id });
    await addDeliverJobs(tx, ctx.companyId, [delivery!.id]);
    return { id: delivery!.id, event_id: event!.id, status: "pending" as const };
  });
}

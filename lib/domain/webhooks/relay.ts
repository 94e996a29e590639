import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { addJobs, deliverJobs } from "./queue";

/*
 * The outbox's relay (extensions.md E8): a write records only its events; the relay fans each
 * committed event out into one delivery per enabled endpoint subscribed to its type, and queues
 * the deliveries. Keeping the fan-out out of the write keeps a write with an endpoint almost as
 * cheap as one without.
 */

/** Events taken per transaction. */
export const RELAY_BATCH = 500;

export interface Relayed {
  events: number;
  deliveries: number;
}

/**
 * Relays up to `limit` events, oldest first, in one transaction: the events are marked relayed
 * with their deliveries and jobs, so a crash leaves the whole batch to the next run. Relays in
 * other processes skip the rows this one holds. An endpoint gets the events of changes made
 * since it was created; an event no enabled endpoint wants any more is relayed to none.
 */
export async function relayEvents(db: Db, limit = RELAY_BATCH): Promise<Relayed> {
  // An idle tick costs one index probe, not a transaction (on PGlite it holds the one connection).
  const { rows: idle } = await db.execute<{ idle: boolean }>(
    sql`select not exists (select from webhook_events where relayed_at is null) as idle`,
  );
  if (idle[0]?.idle) return { events: 0, deliveries: 0 };
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ events: number; deliveries: [string, string][] }>(sql`
      with batch as (
        select company_id, id, type, created_at from webhook_events
        where relayed_at is null
        order by created_at
        limit ${limit}
        for update skip locked
      ), relayed as (
        update webhook_events e set relayed_at = now()
        from batch b where e.company_id = b.company_id and e.id = b.id
        returning 1
      ), fanned as (
        insert into webhook_deliveries (company_id, event_id, endpoint_id)
        select b.company_id, b.id, w.id
        from batch b
        join webhook_endpoints w on w.company_id = b.company_id and w.enabled
          and b.type = any(w.events) and w.created_at <= b.created_at
        returning company_id, id
      )
      select (select count(*) from relayed)::int as events,
        coalesce((select json_agg(json_build_array(company_id, id)) from fanned), '[]'::json) as deliveries`);
    const { events, deliveries } = rows[0]!;
    const fanned =
      typeof deliveries === "string" ? (JSON.parse(deliveries) as [string, string][]) : deliveries;
    await addJobs(tx, deliverJobs(fanned.map(([companyId, deliveryId]) => ({ companyId, deliveryId }))));
    return { events: Number(events), deliveries: fanned.length };
  });
}

export interface RelayLoop {
  stop(): Promise<void>;
}

export interface RelayOptions {
  intervalMs?: number;
  /** Called after a batch that queued deliveries (the delivery worker can fetch at once). */
  onRelayed?: () => void;
  log?: (message: string) => void;
}

/**
 * Relays until stopped: batch after batch while they come full, then again after `intervalMs`.
 * A failed run (a lost connection, say) is logged and retried on the next tick.
 */
export function startRelay(db: Db, options: RelayOptions = {}): RelayLoop {
  const intervalMs = options.intervalMs ?? 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      for (;;) {
        const relayed = await relayEvents(db);
        if (relayed.deliveries > 0) options.onRelayed?.();
        if (stopped || relayed.events < RELAY_BATCH) break;
      }
    } catch (error) {
      options.log?.(`webhooks relay: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!stopped) timer = setTimeout(() => void (running = tick()), intervalMs);
  };
  running = tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

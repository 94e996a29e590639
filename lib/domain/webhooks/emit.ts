import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { customers, leads, webhookEndpoints, type WebhookEventType } from "@/lib/db/schema";
import {
  DETAILED_CUSTOMER_FIELDS,
  toCustomerDetail,
  type DetailedCustomerRow,
} from "@/lib/domain/customers/customer-record";
import { textArrayParam } from "@/lib/domain/lists/sql-fragments";
import { LEAD_FIELDS, toLead, type LeadRecordRow } from "@/lib/domain/leads/lead-record";
import { ID_PREFIX, newId } from "@/lib/ids";
import { pinColumns, pinJoins, toPin, type PinRow } from "@/lib/domain/pins/pin-record";
import { deliverJobsInsert } from "./queue";

/*
 * The outbox's writer (extensions.md E8): every writer of a lead, customer or pin calls
 * emitRecordEvents in its own transaction with the records it changed, so the event commits or
 * rolls back with the change. A company with no enabled endpoint for the types writes nothing.
 */

/** The records that have events. */
export type EventRecordType = "lead" | "customer" | "pin";

/**
 * What a writer changed: records it created and records it updated (an id in both is created).
 * A writer that holds a changed record as GET answers it passes it in `records`, by id: it is
 * then not read again.
 */
export interface RecordChanges {
  created?: readonly string[];
  updated?: readonly string[];
  records?: ReadonlyMap<string, unknown>;
}

/** The records as GET answers them, read in the transaction (so with the change). */
async function readRecords(
  tx: DbOrTx,
  companyId: string,
  recordType: EventRecordType,
  ids: readonly string[],
): Promise<Map<string, unknown>> {
  const list = [...ids];
  switch (recordType) {
    case "lead": {
      const rows = await tx
        .select(LEAD_FIELDS)
        .from(leads)
        .where(and(eq(leads.companyId, companyId), inArray(leads.id, list)));
      return new Map(rows.map((row) => [row.id, toLead(row as LeadRecordRow)]));
    }
    case "customer": {
      const rows = await tx
        .select(DETAILED_CUSTOMER_FIELDS)
        .from(customers)
        .where(and(eq(customers.companyId, companyId), inArray(customers.id, list)));
      return new Map(rows.map((row) => [row.id, toCustomerDetail(row as DetailedCustomerRow)]));
    }
    case "pin": {
      const { rows } = await tx.execute<PinRow>(
        sql`select ${pinColumns("p")} from pins p ${pinJoins("p")}
          where p.company_id = ${companyId} and p.id = any(${textArrayParam(list)})`,
      );
      return new Map(rows.map((row) => [row.id, toPin(row)]));
    }
  }
}

/** The company's enabled endpoints subscribed to any of these event types, with their types. */
async function subscribers(
  tx: DbOrTx,
  companyId: string,
  types: readonly WebhookEventType[],
): Promise<{ id: string; events: WebhookEventType[] }[]> {
  const rows = await tx
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.enabled, true)));
  return rows.filter((row) => row.events.some((type) => types.includes(type)));
}

/**
 * Writes one event per changed record (payload: the record as GET answers it) and one delivery
 * per subscribed enabled endpoint, and queues the deliveries. Answers the events' ids.
 */
export async function emitRecordEvents(
  tx: DbOrTx,
  companyId: string,
  recordType: EventRecordType,
  changes: RecordChanges,
): Promise<string[]> {
  const created = new Set(changes.created ?? []);
  const updated = new Set([...(changes.updated ?? [])].filter((id) => !created.has(id)));
  if (created.size === 0 && updated.size === 0) return [];
  const createdType = `${recordType}.created` as WebhookEventType;
  const updatedType = `${recordType}.updated` as WebhookEventType;
  const wanted = [...(created.size > 0 ? [createdType] : []), ...(updated.size > 0 ? [updatedType] : [])];
  const endpoints = await subscribers(tx, companyId, wanted);
  if (endpoints.length === 0) return [];
  const subscribed = new Set(endpoints.flatMap((endpoint) => endpoint.events));
  const ids = [
    ...(subscribed.has(createdType) ? created : []),
    ...(subscribed.has(updatedType) ? updated : []),
  ];
  const known = changes.records ?? new Map<string, unknown>();
  const missing = ids.filter((id) => !known.has(id));
  const read = missing.length > 0 ? await readRecords(tx, companyId, recordType, missing) : undefined;
  const timestamp = new Date().toISOString();
  const events: OutboxEvent[] = [];
  const deliveries: OutboxDelivery[] = [];
  for (const id of ids) {
    const data = known.has(id) ? known.get(id) : read?.get(id);
    if (data === undefined) continue;
    const type = created.has(id) ? createdType : updatedType;
    const event = {
      id: newId(ID_PREFIX.webhookEvent),
      type,
      record_id: id,
      payload: { type, timestamp, data },
    };
    events.push(event);
    for (const endpoint of endpoints) {
      if (endpoint.events.includes(type)) {
        deliveries.push({
          id: newId(ID_PREFIX.webhookDelivery),
          event_id: event.id,
          endpoint_id: endpoint.id,
        });
      }
    }
  }
  await insertOutbox(tx, companyId, recordType, events, deliveries);
  return events.map((event) => event.id);
}

interface OutboxEvent {
  id: string;
  type: WebhookEventType;
  record_id: string;
  payload: unknown;
}

interface OutboxDelivery {
  id: string;
  event_id: string;
  endpoint_id: string;
}

/**
 * The events, their deliveries and the deliveries' jobs in one statement (the ids are made here,
 * so the jobs are known before it runs). A delivery whose endpoint was deleted or disabled since
 * the endpoints were read is left out (its job finds no delivery and is skipped).
 */
async function insertOutbox(
  tx: DbOrTx,
  companyId: string,
  recordType: EventRecordType,
  events: readonly OutboxEvent[],
  deliveries: readonly OutboxDelivery[],
): Promise<void> {
  if (events.length === 0) return;
  const jobs = await deliverJobsInsert(
    companyId,
    deliveries.map((delivery) => delivery.id),
  );
  await tx.execute(sql`
    with e as (
      insert into webhook_events (company_id, id, type, record_type, record_id, payload)
      select ${companyId}, x.id, x.type, ${recordType}, x.record_id, x.payload
      from jsonb_to_recordset(${JSON.stringify(events)}::jsonb)
        as x(id text, type text, record_id text, payload jsonb)
    ), d as (
      insert into webhook_deliveries (company_id, id, event_id, endpoint_id)
      select ${companyId}, x.id, x.event_id, w.id
      from jsonb_to_recordset(${JSON.stringify(deliveries)}::jsonb) as x(id text, event_id text, endpoint_id text)
      join webhook_endpoints w on w.company_id = ${companyId} and w.id = x.endpoint_id and w.enabled
    ), j as (${jobs})
    select 1`);
}

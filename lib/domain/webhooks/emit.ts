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
import { pinColumns, pinJoins, toPin, type PinRow } from "@/lib/domain/pins/pin-record";
import { enqueueDeliveries } from "./enqueue";

/*
 * The outbox's writer (extensions.md E8): every writer of a lead, customer or pin calls
 * emitRecordEvents in its own transaction with the records it changed, so the event commits or
 * rolls back with the change. A company with no enabled endpoint for the types writes nothing.
 */

/** The records that have events. */
export type EventRecordType = "lead" | "customer" | "pin";

/** What a writer changed: records it created and records it updated (an id in both is created). */
export interface RecordChanges {
  created?: readonly string[];
  updated?: readonly string[];
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

/** The event types of these changes that an enabled endpoint of the company subscribes to. */
async function subscribedTypes(
  tx: DbOrTx,
  companyId: string,
  types: readonly WebhookEventType[],
): Promise<Set<WebhookEventType>> {
  const rows = await tx
    .select({ events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.enabled, true)));
  const subscribed = new Set<WebhookEventType>();
  for (const row of rows) for (const type of row.events) if (types.includes(type)) subscribed.add(type);
  return subscribed;
}

/**
 * Writes one event per changed record (payload: the record as GET answers it) and one delivery
 * per subscribed enabled endpoint, in two set-based statements, then queues the deliveries.
 * Answers the events' ids.
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
  const subscribed = await subscribedTypes(tx, companyId, wanted);
  if (subscribed.size === 0) return [];
  const ids = [
    ...(subscribed.has(createdType) ? created : []),
    ...(subscribed.has(updatedType) ? updated : []),
  ];
  const records = await readRecords(tx, companyId, recordType, ids);
  const timestamp = new Date().toISOString();
  const events = ids.flatMap((id) => {
    const data = records.get(id);
    if (data === undefined) return [];
    const type = created.has(id) ? createdType : updatedType;
    return [{ type, record_id: id, payload: { type, timestamp, data } }];
  });
  return insertEvents(tx, companyId, recordType, events);
}

/** Outbox rows and their deliveries, in one statement; then the deliveries are queued. */
export async function insertEvents(
  tx: DbOrTx,
  companyId: string,
  recordType: string,
  events: readonly { type: string; record_id: string; payload: unknown }[],
  onlyEndpointId?: string,
): Promise<string[]> {
  if (events.length === 0) return [];
  const endpoint = onlyEndpointId === undefined ? sql`e.type = any(w.events)` : sql`w.id = ${onlyEndpointId}`;
  const { rows } = await tx.execute<{ event_id: string; delivery_ids: string[] | null }>(sql`
    with e as (
      insert into webhook_events (company_id, type, record_type, record_id, payload)
      select ${companyId}, x.type, ${recordType}, x.record_id, x.payload
      from jsonb_to_recordset(${JSON.stringify(events)}::jsonb) as x(type text, record_id text, payload jsonb)
      returning id, type
    ), d as (
      insert into webhook_deliveries (company_id, event_id, endpoint_id)
      select ${companyId}, e.id, w.id from e
      join webhook_endpoints w on w.company_id = ${companyId} and w.enabled and ${endpoint}
      returning id, event_id
    )
    select e.id as event_id, (select array_agg(d.id) from d where d.event_id = e.id) as delivery_ids from e`);
  const deliveryIds = rows.flatMap((row) => row.delivery_ids ?? []);
  if (deliveryIds.length > 0) await enqueueDeliveries(tx, companyId, deliveryIds);
  return rows.map((row) => row.event_id);
}

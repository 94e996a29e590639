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

/** The event types of these that an enabled endpoint of the company subscribes to. */
async function subscribedTypes(
  tx: DbOrTx,
  companyId: string,
  types: readonly WebhookEventType[],
): Promise<Set<WebhookEventType>> {
  const rows = await tx
    .select({ events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.enabled, true)));
  return new Set(rows.flatMap((row) => row.events).filter((type) => types.includes(type)));
}

/**
 * Writes one event per changed record (payload: the record as GET answers it) whose type an
 * enabled endpoint subscribes to. The relay (relay.ts) later fans each event out into deliveries,
 * so a change writes one row per record and no more.
 */
export async function emitRecordEvents(
  tx: DbOrTx,
  companyId: string,
  recordType: EventRecordType,
  changes: RecordChanges,
): Promise<void> {
  const created = new Set(changes.created ?? []);
  const updated = new Set([...(changes.updated ?? [])].filter((id) => !created.has(id)));
  if (created.size === 0 && updated.size === 0) return;
  const createdType = `${recordType}.created` as WebhookEventType;
  const updatedType = `${recordType}.updated` as WebhookEventType;
  const known = changes.records ?? new Map<string, unknown>();
  let ids = [...created, ...updated];
  let read: Map<string, unknown> | undefined;
  if (ids.some((id) => !known.has(id))) {
    // Reading the records costs more than asking who listens: ask first.
    const types = await subscribedTypes(
      tx,
      companyId,
      [created.size > 0 ? createdType : [], updated.size > 0 ? updatedType : []].flat(),
    );
    if (types.size === 0) return;
    ids = ids.filter((id) => types.has(created.has(id) ? createdType : updatedType));
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) read = await readRecords(tx, companyId, recordType, missing);
  }
  const timestamp = new Date().toISOString();
  const events: OutboxEvent[] = [];
  for (const id of ids) {
    const data = known.has(id) ? known.get(id) : read?.get(id);
    if (data === undefined) continue;
    const type = created.has(id) ? createdType : updatedType;
    events.push({
      id: newId(ID_PREFIX.webhookEvent),
      type,
      record_id: id,
      payload: { type, timestamp, data },
    });
  }
  await insertEvents(tx, companyId, recordType, events);
}

interface OutboxEvent {
  id: string;
  type: WebhookEventType;
  record_id: string;
  payload: unknown;
}

/**
 * The events an enabled endpoint subscribes to, in one statement: a write whose company has no
 * such endpoint pays this statement and writes nothing. Which endpoints get each event is the
 * relay's to decide, when it runs.
 */
async function insertEvents(
  tx: DbOrTx,
  companyId: string,
  recordType: EventRecordType,
  events: readonly OutboxEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await tx.execute(sql`
    insert into webhook_events (company_id, id, type, record_type, record_id, payload)
    select ${companyId}, x.id, x.type, ${recordType}, x.record_id, x.payload
    from jsonb_to_recordset(${JSON.stringify(events)}::jsonb)
      as x(id text, type text, record_id text, payload jsonb)
    where exists (select from webhook_endpoints w
      where w.company_id = ${companyId} and w.enabled and x.type = any(w.events))`);
}

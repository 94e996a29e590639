import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { companies } from "./companies";
import { createdAt, tenantKey, updatedAt } from "./columns";
import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_OUTBOX_TYPES,
  WEBHOOK_RECORD_TYPES,
  type WebhookDeliveryStatus,
  type WebhookEventType,
  type WebhookOutboxType,
  type WebhookRecordType,
} from "@/lib/values/enums";

export {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_OUTBOX_TYPES,
  WEBHOOK_RECORD_TYPES,
  type WebhookDeliveryStatus,
  type WebhookEventType,
  type WebhookOutboxType,
  type WebhookRecordType,
} from "@/lib/values/enums";

/** `('a', 'b')`: the constant values of a check constraint. */
const list = (values: readonly string[]) => `(${values.map((v) => `'${v}'`).join(", ")})`;

/** A random id made by the database, so set-based writers (INSERT … SELECT) get one per row. */
const randomId = (prefix: string) => sql.raw(`('${prefix}_' || replace(gen_random_uuid()::text, '-', ''))`);

/** The event body sent to an endpoint (Standard Webhooks): `data` is the record as GET returns it. */
export interface WebhookPayload {
  type: WebhookOutboxType;
  timestamp: string;
  data: unknown;
}

/**
 * An admin's webhook endpoint (extensions.md E8). The secret must be kept in clear to sign; it is
 * returned once, at creation or rotation. During a rotation the previous secret signs as well.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    ...tenantKey(),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    events: text("events").array().$type<WebhookEventType[]>().notNull(),
    /** `whsec_` + base64: the current signing secret. */
    secret: text("secret").notNull(),
    /** The secret before the last rotation; it also signs until previous_secret_expires_at. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    enabled: boolean("enabled").notNull().default(true),
    /** Why the endpoint is disabled when the system disabled it (e.g. failing for 5 days). */
    disabledReason: text("disabled_reason"),
    /** Since when every delivery has failed; null once one succeeds. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
  ],
);

/**
 * The outbox: one row per changed record, written in the change's own transaction, so a committed
 * change always has its event and a rolled-back one never does. `id` is the `webhook-id` header.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    companyId: text("company_id").notNull(),
    id: text("id").notNull().default(randomId("evt")),
    type: text("type").$type<WebhookOutboxType>().notNull(),
    recordType: text("record_type").$type<WebhookRecordType>().notNull(),
    recordId: text("record_id").notNull(),
    payload: jsonb("payload").$type<WebhookPayload>().notNull(),
    /** When the relay fanned the event out into deliveries; null while it waits for the relay. */
    relayedAt: timestamp("relayed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    check("webhook_events_type_check", sql`${t.type} in ${sql.raw(list(WEBHOOK_OUTBOX_TYPES))}`),
    check("webhook_events_record_type_check", sql`${t.recordType} in ${sql.raw(list(WEBHOOK_RECORD_TYPES))}`),
    // Pruning after 30 days reads the oldest rows alone.
    index("webhook_events_created_at_idx").on(t.createdAt),
    // The relay's queue: the events still to fan out, oldest first, and nothing else.
    index("webhook_events_unrelayed_idx")
      .on(t.createdAt)
      .where(sql`${t.relayedAt} is null`),
  ],
);

/** One row per (event, subscribed enabled endpoint), inserted by the relay (the fan-out). */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    companyId: text("company_id").notNull(),
    id: text("id").notNull().default(randomId("whd")),
    eventId: text("event_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).defaultNow(),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    responseCode: integer("response_code"),
    durationMs: integer("duration_ms"),
    /** What went wrong, for the log; never a secret. */
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({
      columns: [t.companyId, t.eventId],
      foreignColumns: [webhookEvents.companyId, webhookEvents.id],
    }).onDelete("cascade"),
    foreignKey({
      columns: [t.companyId, t.endpointId],
      foreignColumns: [webhookEndpoints.companyId, webhookEndpoints.id],
    }).onDelete("cascade"),
    check("webhook_deliveries_status_check", sql`${t.status} in ${sql.raw(list(WEBHOOK_DELIVERY_STATUSES))}`),
    // An endpoint's log, newest first: a page is one index range.
    index("webhook_deliveries_endpoint_idx").on(t.companyId, t.endpointId, t.createdAt.desc(), t.id.desc()),
    index("webhook_deliveries_event_idx").on(t.companyId, t.eventId),
    index("webhook_deliveries_created_at_idx").on(t.createdAt),
  ],
);

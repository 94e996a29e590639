import { sql } from "drizzle-orm";
import {
  boolean,
  foreignKey,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { companies } from "./companies";
import { createdAt, tenantKey } from "./columns";

/** The records a bulk operation changed. */
export type BulkRecordType = "lead" | "customer";

/**
 * A bulk change of leads or customers (POST /leads/bulk, /customers/bulk), kept so it can be
 * undone once (POST …/bulk/{id}/undo).
 */
export const leadBulkOperations = pgTable(
  "lead_bulk_operations",
  {
    ...tenantKey(),
    /** Whose bulk change: each undo endpoint finds only its own kind's operations. */
    recordType: text("record_type").$type<BulkRecordType>().notNull().default("lead"),
    /** The action of the request body, as validated ({ type, ... }). */
    action: jsonb("action").notNull(),
    changed: integer("changed").notNull(),
    actorKind: text("actor_kind").notNull(),
    actorId: text("actor_id").notNull(),
    createdAt: createdAt(),
    undoneAt: timestamp("undone_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
  ],
);

/**
 * The values a bulk operation replaced, one row per record (`lead_id` holds a customer's id too),
 * for an exact undo. No foreign key: undo joins the records, and key checks slow bulk changes.
 */
export const leadBulkChanges = pgTable(
  "lead_bulk_changes",
  {
    companyId: text("company_id").notNull(),
    operationId: text("operation_id").notNull(),
    leadId: text("lead_id").notNull(),
    assignedTo: text("assigned_to"),
    stage: text("stage"),
    /** The lead's lost reason before a stage change, which clears it when the stage is not lost. */
    lostReason: text("lost_reason"),
    tags: text("tags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    archived: boolean("archived").notNull(),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.operationId, t.leadId] }),
    foreignKey({
      columns: [t.companyId, t.operationId],
      foreignColumns: [leadBulkOperations.companyId, leadBulkOperations.id],
    }).onDelete("cascade"),
  ],
);

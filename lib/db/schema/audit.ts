import { foreignKey, index, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { companies } from "./companies";
import type { AuditChange } from "@/lib/values/audit";

/**
 * Who changed which setting, when and from where (extensions.md E11), written in the change's own
 * transaction. The actor's name is a snapshot: the log keeps who it was after a rename or removal.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    companyId: text("company_id").notNull(),
    /** `aud_` and a time-ordered id, so newest first is `at desc, id desc`. */
    id: text("id").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** The user who acted; null for an API key or the system. */
    actorUserId: text("actor_user_id"),
    actorName: text("actor_name").notNull(),
    ip: text("ip"),
    kind: text("kind").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    changes: jsonb("changes").$type<AuditChange[]>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    index("audit_log_at_idx").on(t.companyId, t.at.desc(), t.id.desc()),
    index("audit_log_actor_idx").on(t.companyId, t.actorUserId, t.at.desc()),
    index("audit_log_kind_idx").on(t.companyId, t.kind, t.at.desc()),
  ],
);

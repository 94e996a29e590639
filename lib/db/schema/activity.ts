import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  foreignKey,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { companies } from "./companies";

import {
  ACTIVITY_ACTOR_KINDS,
  ACTIVITY_RECORD_TYPES,
  ACTIVITY_TYPES,
  type ActivityActorKind,
  type ActivityChange,
  type ActivityRecordType,
  type ActivityType,
} from "@/lib/values/enums";

export {
  ACTIVITY_ACTOR_KINDS,
  ACTIVITY_RECORD_TYPES,
  ACTIVITY_TYPES,
  type ActivityActorKind,
  type ActivityChange,
  type ActivityRecordType,
  type ActivityType,
  type ActivityValue,
} from "@/lib/values/enums";

/** `('a', 'b')`: the constant values of a check constraint. */
const list = (values: readonly string[]) => `(${values.map((v) => `'${v}'`).join(", ")})`;

/**
 * A lead's or customer's history (extensions.md E3), written in the change's own transaction. A
 * sequence id keeps bulk inserts in writing order; actor names are read live, so renames show.
 * The sequence is one counter for every company, so the API shows the random `public_id` instead.
 */
export const recordActivity = pgTable(
  "record_activity",
  {
    companyId: text("company_id").notNull(),
    id: bigint("id", { mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    /** The entry's id in the API: random, made by the database for the set-based writers too. */
    publicId: text("public_id")
      .notNull()
      .default(sql`('act_' || replace(gen_random_uuid()::text, '-', ''))`),
    recordType: text("record_type").$type<ActivityRecordType>().notNull(),
    recordId: text("record_id").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    type: text("type").$type<ActivityType>().notNull(),
    actorKind: text("actor_kind").$type<ActivityActorKind>().notNull(),
    /** The user's or API key's id; null for the import. */
    actorId: text("actor_id"),
    changes: jsonb("changes")
      .$type<ActivityChange[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** A note's text (type "note"). */
    note: text("note"),
    /** A conversion's other record: the customer of a converted lead, the lead of a customer. */
    relatedId: text("related_id"),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    check(
      "record_activity_record_type_check",
      sql`${t.recordType} in ${sql.raw(list(ACTIVITY_RECORD_TYPES))}`,
    ),
    check("record_activity_type_check", sql`${t.type} in ${sql.raw(list(ACTIVITY_TYPES))}`),
    check("record_activity_actor_kind_check", sql`${t.actorKind} in ${sql.raw(list(ACTIVITY_ACTOR_KINDS))}`),
    // A record's history, newest first: a page of it is one index range.
    index("record_activity_record_idx").on(t.companyId, t.recordType, t.recordId, t.at.desc(), t.id.desc()),
    // The leads list's note filter reads a company's notes alone, not its whole history.
    index("record_activity_notes_idx")
      .on(t.companyId, t.recordType, t.recordId)
      .where(sql`${t.type} = 'note'`),
  ],
);

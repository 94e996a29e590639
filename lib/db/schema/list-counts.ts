import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
} from "drizzle-orm/pg-core";
import { companies } from "./companies";

/** The lists whose exact totals are kept in list_counts. */
export const LIST_COUNT_ENTITIES = [
  "leads",
  "customers",
  "service_plans",
  "jobs",
  "pins",
  "lead_tags",
  "customer_tags",
  "job_days",
] as const;
export type ListCountEntity = (typeof LIST_COUNT_ENTITIES)[number];

/**
 * List row counts by filter dimensions, so a filtered total is sum(n) over a few rows. Kept by
 * triggers (drizzle/0006–0009, 0019); lib/domain/list-counts.ts reads them. Dimensions (the
 * migrations rely on this format):
 *
 * | entity        | rows counted               | flag     | key1               | key2         |
 * | leads         | all                        | archived | stage              | —            |
 * | customers     | all                        | archived | status             | —            |
 * | service_plans | all                        | active   | frequency          | service_type |
 * | jobs          | not is_quote, not archived | false    | status             | —            |
 * | pins          | all                        | false    | pin_type_id        | —            |
 * | lead_tags     | leads with a tag           | archived | canonical tag set  | stage        |
 * | customer_tags | customers with a tag       | archived | canonical tag set  | status       |
 * | job_days      | jobs of the list, with a   | false    | job_day_key(       | status       |
 * |               | service date               |          |  service_date)     |              |
 *
 * Delta rows (+/- n), never updated, so concurrent writers never wait on a shared counter; rows
 * are folded per touched tuple (list_counts_fold, SKIP LOCKED). A tag set key is the sorted
 * distinct tags as text[]. Lead rows also sum projected_value in `amount` (0019).
 */
export const listCounts = pgTable(
  "list_counts",
  {
    companyId: text("company_id").notNull(),
    id: bigint("id", { mode: "number" }).generatedAlwaysAsIdentity(),
    entity: text("entity").$type<ListCountEntity>().notNull(),
    flag: boolean("flag").notNull(),
    key1: text("key1"),
    key2: text("key2"),
    n: integer("n").notNull(),
    /**
     * The change of the rows' summed amount with n, kept for the leads and lead_tags rows only
     * (their projected_value, a lead without one adding 0); null for the other lists.
     */
    amount: numeric("amount", { mode: "number" }),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    check(
      "list_counts_entity_check",
      sql`${t.entity} in ('leads', 'customers', 'service_plans', 'jobs', 'pins', 'lead_tags', 'customer_tags', 'job_days')`,
    ),
    // The readers' and the compaction's lookup: a tenant's rows of one list, by dimension.
    index("list_counts_entity_idx").on(t.companyId, t.entity, t.flag, t.key1, t.key2),
  ],
);

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
 * Row counts of the lists by their filter columns ("dimensions"), so that a list filtered only by
 * those reads its exact total as sum(n) over a few rows instead of counting up to a million.
 * Kept by statement-level triggers on the counted tables
 * (drizzle/0006_list_counts.sql, 0007_tag_set_counts.sql, 0008_job_day_counts.sql,
 * 0009_list_counts_fold.sql, 0019_lead_stage_sums.sql);
 * lib/domain/list-counts.ts reads them and names the dimensions:
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
 * Delta rows, never updated: each write statement inserts one row per touched dimension tuple
 * with its change n (+/-), so concurrent writers of a tenant never wait on a shared counter row.
 * One statement in 32 that added rows then folds its tenant's rows of the list into one row per
 * tuple, skipping rows other transactions hold. A total is sum(n) over the matching rows, exact
 * in any snapshot. Every folded row is a dead tuple for VACUUM (autovacuum; the bench vacuums it).
 * Keyed by (company_id, id) like every table; id is a plain sequence (nobody refers to it).
 *
 * The tag lists count each record once under its whole tag set: its distinct non-null tags sorted
 * bytewise, as the text of that text[] (key1::text[] reads it back exactly), so "any of the tags
 * T" is sum(n) over the rows whose set overlaps T. A tenant has thousands of such tuples, so their
 * rows are folded by every write statement, and only the tuples it touched: it deletes their rows
 * no other transaction holds (SKIP LOCKED) and inserts one row with their sum and its change. A
 * tuple keeps one row plus one per concurrent writer; no write folds every tuple. The job_days
 * rows are folded the same way (a tenant has a tuple per day and status): a service-date range
 * sums its whole days, key1 being the day as a key that sorts as the days do (job_day_key). Both
 * fold through one function, list_counts_fold(list, deltas) (0009), given the statement's change
 * per touched tuple (type list_count_delta).
 *
 * The leads' rows ('leads', 'lead_tags') also keep `amount`, the summed projected_value of the
 * rows counted by n (0019_lead_stage_sums.sql, read by lib/domain/leads/stage-totals.ts): a
 * change of a lead's value alone writes a row of n = 0, so their rows are folded while n or
 * amount sums to something (the tag sets through list_counts_fold_sums).
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

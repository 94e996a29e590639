import { sql } from "drizzle-orm";
import {
  bigint,
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
import type { JobStatus } from "./jobs";

/** The breakdowns of the job report whose sums job_report_totals keeps. */
export const JOB_REPORT_TOTAL_KINDS = ["day", "assigned", "crew", "assigned_day", "crew_day"] as const;
export type JobReportTotalKind = (typeof JOB_REPORT_TOTAL_KINDS)[number];

/**
 * The job report's sums (GET /reports/serviced-jobs, contract section 7) over the listed jobs
 * (never quotes nor archived), per status, so that the report over all of a tenant's jobs reads
 * a few thousand rows instead of every job and crew row, and the report over a range of whole
 * days a few rows a day and technician instead of the range's jobs and every crew row. Kept by statement-level triggers on jobs (drizzle/
 * 0014_job_report_totals.sql; 0015 added the `_day` kinds); lib/domain/reports/
 * serviced-job-report.ts reads them:
 *
 * | kind         | key                                              | a job counts under it     |
 * | day          | job_day_key(service_date) (0008), '' without one | once                      |
 * | assigned     | assigned_to, '' when unassigned                  | once                      |
 * | crew         | a crew member's user id                          | once per crew member      |
 * |              |                                                  | other than its assignee   |
 * | assigned_day | job_day_key(service_date) ':' assigned_to        | once, when it has both    |
 * | crew_day     | job_day_key(service_date) ':' a crew member's id | as under crew, when it    |
 * |              |                                                  | has a service date        |
 *
 * A `_day` key starts with its day's key (ten digits), so the keys of a range of days are a
 * range of keys in any collation.
 *
 * job_count, total, received and outstanding are the sums of 1, line_items_total,
 * total_received and greatest(line_items_total − total_received, 0) over those jobs.
 *
 * Delta rows as in list_counts (lib/db/schema/list-counts.ts): every write statement of jobs
 * folds the rows of the tuples (kind, key, status) it touched that no other transaction holds
 * into one row with their sum plus its change, so writers never wait on one another and a sum
 * over the rows is exact in any snapshot. Keyed by (company_id, id) like every table.
 */
export const jobReportTotals = pgTable(
  "job_report_totals",
  {
    companyId: text("company_id").notNull(),
    id: bigint("id", { mode: "number" }).generatedAlwaysAsIdentity(),
    kind: text("kind").$type<JobReportTotalKind>().notNull(),
    key: text("key").notNull(),
    status: text("status").$type<JobStatus>().notNull(),
    jobCount: integer("job_count").notNull(),
    total: numeric("total", { mode: "number" }).notNull(),
    received: numeric("received", { mode: "number" }).notNull(),
    outstanding: numeric("outstanding", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    check(
      "job_report_totals_kind_check",
      sql`${t.kind} in ('day', 'assigned', 'crew', 'assigned_day', 'crew_day')`,
    ),
    // The report's read (a tenant's rows, of one status or all) and the fold's probe (a tuple).
    index("job_report_totals_tuple_idx").on(t.companyId, t.status, t.kind, t.key),
  ],
);

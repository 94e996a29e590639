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
 * The job report's sums per status over listed jobs, so the report reads a few rows per day and
 * technician instead of every job. Kept by triggers (drizzle/0014, 0015); read by
 * lib/domain/reports/serviced-job-report.ts. Keys by kind (the migrations rely on this format):
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
 * A `_day` key starts with its ten-digit day key, so a range of days is a range of keys.
 * Delta rows folded as in list_counts, so writers never wait on one another.
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

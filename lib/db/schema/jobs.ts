import { sql, type SQL } from "drizzle-orm";
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { companies } from "./companies";
import { createdAt, money, sortIndexes, tenantKey } from "./columns";
import { customers } from "./customers";
import { servicePlans } from "./service-plans";
import { users } from "./users";
import { JOB_STATUSES, type JobStatus } from "@/lib/values/enums";

export {
  JOB_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PAYMENT_TYPES,
  type JobStatus,
} from "@/lib/values/enums";

/** A job's outstanding money (contract section 7): its total less what was received, never below 0. */
export function jobOutstanding(total: AnyPgColumn | SQL, received: AnyPgColumn | SQL): SQL {
  return sql`greatest(${total} - ${received}, 0)`;
}

/** A job's status by its place in the work: Unscheduled 1 … Completed 4, Cancelled 5 (JOB_STATUSES). */
const statusRank = (status: AnyPgColumn | SQL): SQL =>
  sql`(case ${status} ${sql.raw(JOB_STATUSES.map((name, i) => `when '${name}' then ${i + 1}`).join(" "))} end)`;

/**
 * Sort keys of GET /serviced-jobs, shared by ORDER BY and the sort indexes (a query must spell an
 * expression as its index does). Takes columns, or the same columns under an alias.
 */
export function jobSortKeys(t: {
  createdAt: AnyPgColumn | SQL;
  serviceDate: AnyPgColumn | SQL;
  status: AnyPgColumn | SQL;
  lineItemsTotal: AnyPgColumn | SQL;
  totalReceived: AnyPgColumn | SQL;
}) {
  return {
    created_at: [t.createdAt],
    service_date: [t.serviceDate],
    status: [statusRank(t.status)],
    total: [t.lineItemsTotal],
    total_received: [t.totalReceived],
    total_outstanding: [jobOutstanding(t.lineItemsTotal, t.totalReceived)],
  } satisfies Record<string, (AnyPgColumn | SQL)[]>;
}

export const jobs = pgTable(
  "jobs",
  {
    ...tenantKey(),
    customerId: text("customer_id").notNull(),
    servicePlanId: text("service_plan_id"),
    status: text("status").$type<JobStatus>().notNull(),
    isQuote: boolean("is_quote").notNull().default(false),
    archived: boolean("archived").notNull().default(false),
    assignedTo: text("assigned_to"),
    /**
     * Start of the earliest visit, kept in step with job_visits by every writer (the import):
     * the service-date filter and its index need it on the job row.
     */
    serviceDate: timestamp("service_date", { withTimezone: true }),
    /**
     * Line item total and net received, kept by triggers (drizzle/0001_job_money.sql) so reports
     * read job rows only. Writers never set them.
     */
    lineItemsTotal: money("line_items_total").notNull().default(0),
    totalReceived: money("total_received").notNull().default(0),
    /**
     * Crew user ids, kept by triggers (drizzle/0014) so the report totals' triggers on jobs see
     * the crew even when job and crew are deleted together. Writers never set it.
     */
    crewUserIds: text("crew_user_ids")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    foreignKey({
      name: "jobs_customer_fk",
      columns: [t.companyId, t.customerId],
      foreignColumns: [customers.companyId, customers.id],
    }),
    foreignKey({
      name: "jobs_service_plan_fk",
      columns: [t.companyId, t.servicePlanId],
      foreignColumns: [servicePlans.companyId, servicePlans.id],
    }),
    foreignKey({
      name: "jobs_assigned_to_fk",
      columns: [t.companyId, t.assignedTo],
      foreignColumns: [users.companyId, users.id],
    }),
    check(
      "jobs_status_check",
      sql`${t.status} in ('Unscheduled', 'Scheduled', 'In Progress', 'Completed', 'Cancelled')`,
    ),
    // Listed jobs are never quotes nor archived: the partial indexes hold only listable jobs.
    index("jobs_listed_created_idx")
      .on(t.companyId, t.createdAt.desc(), t.id.desc())
      .where(sql`not ${t.isQuote} and not ${t.archived}`),
    index("jobs_completed_created_idx")
      .on(t.companyId, t.createdAt.desc(), t.id.desc())
      .where(sql`not ${t.isQuote} and not ${t.archived} and ${t.status} = 'Completed'`),
    // Covering: a date-bounded page (created_at, id) and the job report (assignee, money) are
    // read from this index alone.
    index("jobs_listed_service_date_idx")
      .on(t.companyId, t.serviceDate, t.createdAt, t.id, t.assignedTo, t.lineItemsTotal, t.totalReceived)
      .where(sql`not ${t.isQuote} and not ${t.archived}`),
    // Date-bounded pages read day by day (job_day_key, 0008) instead of the whole range; status
    // and service_date trail the key so filters are answered from the index alone.
    index("jobs_listed_day_created_idx")
      .on(
        t.companyId,
        sql`job_day_key(${t.serviceDate})`,
        t.createdAt.desc(),
        t.id.desc(),
        t.status,
        t.serviceDate,
      )
      .where(sql`not ${t.isQuote} and not ${t.archived}`),
    // A customer's jobs (GET /serviced-jobs?customer_id=), newest first: the customer page's list,
    // count and report read them here, since the kept counters are not kept per customer.
    index("jobs_customer_created_idx")
      .on(t.companyId, t.customerId, t.createdAt.desc(), t.id.desc())
      .where(sql`not ${t.isQuote} and not ${t.archived}`),
    index("jobs_plan_idx")
      .on(t.companyId, t.servicePlanId, t.status)
      .where(sql`not ${t.isQuote} and not ${t.archived}`),
    // A payment's job to its plan from the index alone: the knock-to-cash report's money
    // collected in a range looks up one listable job per payment.
    index("jobs_listed_plan_of_idx")
      .on(t.companyId, t.id, t.servicePlanId)
      .where(sql`not ${t.isQuote} and not ${t.archived}`),
    // Exact totals of the job list: index-only counts over the narrowest possible entries.
    index("jobs_listed_count_idx")
      .on(t.companyId)
      .where(sql`not ${t.isQuote} and not ${t.archived}`),
    index("jobs_completed_count_idx")
      .on(t.companyId)
      .where(sql`not ${t.isQuote} and not ${t.archived} and ${t.status} = 'Completed'`),
    index("jobs_completed_service_date_idx")
      .on(t.companyId, t.serviceDate, t.createdAt, t.id, t.assignedTo, t.lineItemsTotal, t.totalReceived)
      .where(sql`not ${t.isQuote} and not ${t.archived} and ${t.status} = 'Completed'`),
    // Each sort order of the list (-created_at is jobs_listed_created_idx), status trailing so
    // that only_completed=true skips the other jobs by the index alone.
    ...sortIndexes("jobs", t, jobSortKeys(t), {
      skip: ["-created_at"],
      listed: { name: "listed", where: sql`not ${t.isQuote} and not ${t.archived}` },
      covering: {
        created_at: [t.status],
        service_date: [t.status],
        status: [t.status],
        total: [t.status],
        total_received: [t.status],
        total_outstanding: [t.status, t.lineItemsTotal, t.totalReceived],
      },
    }),
  ],
);

export const jobVisits = pgTable(
  "job_visits",
  {
    ...tenantKey(),
    jobId: text("job_id").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.jobId], foreignColumns: [jobs.companyId, jobs.id] }).onDelete(
      "cascade",
    ),
    index("job_visits_job_idx").on(t.companyId, t.jobId, t.startsAt),
  ],
);

/** Crew members of a job, in the order given; the assigned user is on the job row. */
export const jobCrew = pgTable(
  "job_crew",
  {
    ...tenantKey(),
    jobId: text("job_id").notNull(),
    userId: text("user_id").notNull(),
    position: integer("position").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.jobId], foreignColumns: [jobs.companyId, jobs.id] }).onDelete(
      "cascade",
    ),
    // Crew rows reference users without a cascade, so a company's deletion must cascade to crews
    // early, before the users' foreign key check finds them.
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    foreignKey({
      name: "job_crew_user_fk",
      columns: [t.companyId, t.userId],
      foreignColumns: [users.companyId, users.id],
    }),
    index("job_crew_job_idx").on(t.companyId, t.jobId, t.position),
    index("job_crew_user_idx").on(t.companyId, t.userId),
    // A user is on a job's crew once: technicians are listed and counted once per job
    // (contract section 7) without de-duplicating on every read.
    uniqueIndex("job_crew_member_idx").on(t.companyId, t.jobId, t.userId),
  ],
);

export const jobLineItems = pgTable(
  "job_line_items",
  {
    ...tenantKey(),
    jobId: text("job_id").notNull(),
    title: text("title").notNull().default(""),
    description: text("description").notNull().default(""),
    totalPrice: money("total_price").notNull().default(0),
    position: integer("position").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.jobId], foreignColumns: [jobs.companyId, jobs.id] }).onDelete(
      "cascade",
    ),
    index("job_line_items_job_idx").on(t.companyId, t.jobId, t.position),
  ],
);

export const jobPayments = pgTable(
  "job_payments",
  {
    ...tenantKey(),
    jobId: text("job_id").notNull(),
    amount: money("amount").notNull(),
    paymentDate: timestamp("payment_date", { withTimezone: true }),
    paymentMethod: text("payment_method").notNull(),
    paymentType: text("payment_type").notNull(),
    status: text("status").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.jobId], foreignColumns: [jobs.companyId, jobs.id] }).onDelete(
      "cascade",
    ),
    check("job_payments_type_check", sql`${t.paymentType} in ('payment', 'refund')`),
    check("job_payments_status_check", sql`${t.status} in ('succeeded', 'pending', 'failed')`),
    check("job_payments_method_check", sql`${t.paymentMethod} in ('card', 'ach', 'cash', 'check', 'other')`),
    index("job_payments_job_idx").on(t.companyId, t.jobId, t.paymentDate),
    // The knock-to-cash report's money collected in a range reads a tenant's payments by date.
    index("job_payments_date_idx").on(t.companyId, t.paymentDate),
  ],
);

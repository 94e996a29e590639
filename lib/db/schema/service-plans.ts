import { sql } from "drizzle-orm";
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
} from "drizzle-orm/pg-core";
import { companies } from "./companies";
import { createdAt, money, tenantKey } from "./columns";
import { customers } from "./customers";
import { users } from "./users";
import type { PlanFrequency } from "@/lib/values/enums";

export { PLAN_FREQUENCIES, type PlanFrequency } from "@/lib/values/enums";

export const servicePlans = pgTable(
  "service_plans",
  {
    ...tenantKey(),
    customerId: text("customer_id").notNull(),
    soldBy: text("sold_by"),
    frequency: text("frequency").$type<PlanFrequency>().notNull(),
    customFrequencyLabel: text("custom_frequency_label"),
    serviceType: text("service_type"),
    startDate: timestamp("start_date", { withTimezone: true }),
    active: boolean("active").notNull().default(true),
    /** Planned visits; null: the frequency's count in one year (lib/domain/service-plans). */
    totalVisits: integer("total_visits"),
    pricePerVisit: money("price_per_visit").notNull().default(0),
    /**
     * Sums over the plan's listed jobs, kept by a trigger (drizzle/0003) so plan numbers never
     * read jobs; writers never set them (lib/domain/service-plans/numbers.ts reads them).
     */
    jobsCompleted: integer("jobs_completed").notNull().default(0),
    jobsScheduled: integer("jobs_scheduled").notNull().default(0),
    jobsNotCancelled: integer("jobs_not_cancelled").notNull().default(0),
    notCancelledLineItemsTotal: money("not_cancelled_line_items_total").notNull().default(0),
    jobsReceived: money("jobs_received").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    foreignKey({
      name: "service_plans_customer_fk",
      columns: [t.companyId, t.customerId],
      foreignColumns: [customers.companyId, customers.id],
    }),
    foreignKey({
      name: "service_plans_sold_by_fk",
      columns: [t.companyId, t.soldBy],
      foreignColumns: [users.companyId, users.id],
    }),
    check(
      "service_plans_frequency_check",
      sql`${t.frequency} in ('One-Time', 'Annual', 'Semi-Annual', 'Tri-Annual', 'Quarterly', 'Bi-Monthly', 'Monthly', 'Bi-Weekly', 'Weekly', 'Custom')`,
    ),
    check(
      "service_plans_custom_visits_check",
      sql`${t.frequency} <> 'Custom' or ${t.totalVisits} is not null`,
    ),
    check("service_plans_total_visits_check", sql`${t.totalVisits} is null or ${t.totalVisits} >= 0`),
    index("service_plans_created_idx").on(t.companyId, t.createdAt.desc(), t.id.desc()),
    index("service_plans_active_created_idx").on(t.companyId, t.active, t.createdAt.desc(), t.id.desc()),
    index("service_plans_frequency_created_idx").on(
      t.companyId,
      t.frequency,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index("service_plans_type_created_idx").on(t.companyId, t.serviceType, t.createdAt.desc(), t.id.desc()),
    index("service_plans_sold_by_created_idx").on(t.companyId, t.soldBy, t.createdAt.desc(), t.id.desc()),
    // A customer's plans in list order (GET /service-plans?customer_id=); it also serves every
    // lookup by customer alone.
    index("service_plans_customer_created_idx").on(
      t.companyId,
      t.customerId,
      t.createdAt.desc(),
      t.id.desc(),
    ),
  ],
);

import { z } from "zod";
import { count, isoDateQuery, money, rangeInOrder } from "./common";
import { servicedJobFiltersSchema } from "./serviced-jobs";
import { servicePlanFiltersSchema, servicePlanFrequencySchema, userRefSchema } from "./service-plans";
import { territoryIdQuery } from "./territories";

/*
 * Report and CSV export endpoints under /api/reports: the same filters as the list endpoints
 * (without page and limit), answered for the whole filtered set by the database.
 */

/**
 * The end bound of a report's range, described with its rule: a schema cannot compare two dates,
 * so the 400 of a range that runs backwards is stated in words (lists answer an empty page instead).
 */
const reportRangeEnd = <S extends z.ZodType>(bound: S, start: string): S =>
  bound.describe(`${descriptionOf(bound)} Before \`${start}\`: 400 naming this parameter.`);
const descriptionOf = (schema: z.ZodType): string =>
  schema.description ?? (schema instanceof z.ZodOptional ? descriptionOf(schema.unwrap() as z.ZodType) : "");

/** Each report's filters: a list's, whose date range must run forwards (extensions.md E7). */
const planReportFilters = servicePlanFiltersSchema
  .extend({
    created_at_range_end: reportRangeEnd(
      servicePlanFiltersSchema.shape.created_at_range_end,
      "created_at_range_start",
    ),
  })
  .superRefine(rangeInOrder("created_at_range_start", "created_at_range_end"));
const jobRangeInOrder = rangeInOrder("service_date_range_start", "service_date_range_end");
const jobReportFilters = servicedJobFiltersSchema.extend({
  service_date_range_end: reportRangeEnd(
    servicedJobFiltersSchema.shape.service_date_range_end,
    "service_date_range_start",
  ),
});

export const getServicePlanReportQuerySchema = planReportFilters.describe(
  "Query of GET /reports/service-plans: the filters of GET /service-plans, without pagination.",
);
export type GetServicePlanReportQuery = z.output<typeof getServicePlanReportQuerySchema>;

export const getServicePlansExportQuerySchema = planReportFilters.describe(
  "Query of GET /reports/service-plans/export: the filters of GET /service-plans, without pagination.",
);
export type GetServicePlansExportQuery = z.output<typeof getServicePlansExportQuerySchema>;

export const REPORT_INTERVALS = ["week", "month"] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

export const getServicedJobReportQuerySchema = jobReportFilters
  .extend({
    interval: z
      .enum(REPORT_INTERVALS, { error: "must be week or month" })
      .default("month")
      .describe("Bucket of over_time: week (starting Monday, UTC) or month (UTC); default month."),
  })
  .superRefine(jobRangeInOrder)
  .describe(
    "Query of GET /reports/serviced-jobs: the filters of GET /serviced-jobs, without pagination, plus interval.",
  );
export type GetServicedJobReportQuery = z.output<typeof getServicedJobReportQuerySchema>;

export const getServicedJobsExportQuerySchema = jobReportFilters
  .superRefine(jobRangeInOrder)
  .describe(
    "Query of GET /reports/serviced-jobs/export: the filters of GET /serviced-jobs, without pagination.",
  );
export type GetServicedJobsExportQuery = z.output<typeof getServicedJobsExportQuerySchema>;

const rate = z
  .number()
  .describe("total_received / sale_value, rounded to 4 decimals; 0 when there is no sale value.");

/** The plan numbers summed over a group of plans (the whole set or one breakdown entry). */
const planTotalsShape = {
  plan_count: count("Number of plans."),
  sale_value: money("Sum of the plans' sale_value."),
  total_received: money("Sum of the plans' total_received."),
  collection_rate: rate,
  num_completed_jobs: count("Sum of the plans' num_completed_jobs."),
  num_scheduled_jobs: count("Sum of the plans' num_scheduled_jobs."),
  num_pending_jobs: count("Sum of the plans' num_pending_jobs."),
};

export const servicePlanReportDataSchema = z
  .object({
    ...planTotalsShape,
    by_frequency: z
      .array(z.object({ frequency: servicePlanFrequencySchema, ...planTotalsShape }))
      .describe("One entry per frequency present, in the frequency enumeration's order."),
    by_service_type: z
      .array(
        z.object({
          service_type: z.string().describe("Service type; empty for plans without one."),
          ...planTotalsShape,
        }),
      )
      .describe("One entry per service type, by sale value, highest first."),
    by_sales_rep: z
      .array(
        z.object({
          sold_by: userRefSchema.describe("The seller (empty strings for plans without one)."),
          ...planTotalsShape,
        }),
      )
      .describe("Sales rep leaderboard: by money collected (total_received), highest first."),
  })
  .describe("Totals and breakdowns of every plan matching the filters.");
export type ServicePlanReport = z.output<typeof servicePlanReportDataSchema>;

export const servicePlanReportSchema = z
  .object({ status: z.literal("success"), data: servicePlanReportDataSchema })
  .describe("Response of GET /reports/service-plans.");
export type ServicePlanReportResponse = z.output<typeof servicePlanReportSchema>;

/** The job numbers summed over a group of jobs. */
const jobTotalsShape = {
  job_count: count("Number of jobs."),
  total: money("Sum of the jobs' line item totals."),
  total_received: money("Sum of the jobs' total_received."),
  total_outstanding: money("Sum of the jobs' total_outstanding."),
};

export const servicedJobReportDataSchema = z
  .object({
    ...jobTotalsShape,
    interval: z.enum(REPORT_INTERVALS).describe("The bucket of over_time."),
    over_time: z
      .array(
        z.object({
          period_start: z
            .string()
            .nullable()
            .describe(
              "Start of the week (Monday) or month, 00:00 UTC, ISO 8601; null for the jobs without a visit (last).",
            ),
          ...jobTotalsShape,
        }),
      )
      .describe("Jobs per period of their service date, oldest first; periods without jobs are left out."),
    by_technician: z
      .array(
        z.object({
          technician: userRefSchema,
          ...jobTotalsShape,
        }),
      )
      .describe(
        "Per technician (assigned user or crew member): the jobs they worked and those jobs' money (a job with two technicians counts for both). By total_received, highest first.",
      ),
  })
  .describe("Totals, a time series and a per-technician breakdown of every job matching the filters.");
export type ServicedJobReport = z.output<typeof servicedJobReportDataSchema>;

export const servicedJobReportSchema = z
  .object({ status: z.literal("success"), data: servicedJobReportDataSchema })
  .describe("Response of GET /reports/serviced-jobs.");
export type ServicedJobReportResponse = z.output<typeof servicedJobReportSchema>;

// ---------------------------------------------------------------------------------------------
// GET /api/reports/field-activity (extensions.md E7): from knock to cash, per user

export const getFieldActivityReportQuerySchema = z
  .object({
    from: isoDateQuery(
      "start",
      "Start of the range, ISO 8601 date or date-time (a date: from its start in UTC); default: no lower bound.",
      ["2026-03-01"],
    ).optional(),
    to: isoDateQuery(
      "end",
      "End of the range, inclusive (a date: its whole UTC day); default: no upper bound. Before `from`: 400.",
      ["2026-03-31"],
    ).optional(),
    territory_id: territoryIdQuery("knocks, leads, plans and payments").describe(
      "Only what happened inside this territory (GET /territories; an unknown id is a 404): knocks at " +
        "pins inside it, leads whose location is inside it, and the plans and payments of customers whose " +
        "property location is inside it.",
    ),
  })
  .superRefine(rangeInOrder("from", "to"))
  .describe("Query of GET /reports/field-activity and its CSV export.");
export type GetFieldActivityReportQuery = z.output<typeof getFieldActivityReportQuerySchema>;

const knocksByPinType = z
  .record(z.string(), z.number().int().min(0))
  .describe("Knocks per outcome: { pin_type_id: count }, only the pin types knocked.");

/** The numbers of one user, or of everyone (totals). */
const fieldActivityNumbersShape = {
  knocks: count(
    "Visits (pin_visits) the user made in the range: a pin's create and each change of its type.",
  ),
  knocks_by_pin_type: knocksByPinType,
  leads: count(
    "Leads created in the range that are linked to a pin the user created (pins.lead_id) or assigned to the user, archived ones too.",
  ),
  won: count("Of those leads, those now in a pipeline stage of kind won."),
  customers: count("Customers converted from those leads (leads.customer_id)."),
  sale_value: money(
    "Sale value (as GET /reports/service-plans computes it) of the plans the user sold (sold_by), created in the range.",
  ),
  collected: money(
    "Net money received in the range on the jobs of the plans the user sold: succeeded payments minus succeeded refunds, by payment date, quotes and archived jobs left out (as the serviced-job report's total_received).",
  ),
};

const conversion = (description: string) => z.number().nullable().describe(description);

export const fieldActivityRowSchema = z
  .object({ user: userRefSchema, ...fieldActivityNumbersShape })
  .describe("One user's knocks, leads and money.");
export type FieldActivityRow = z.output<typeof fieldActivityRowSchema>;

export const fieldActivityReportSchema = z
  .object({
    status: z.literal("success"),
    data: z
      .array(fieldActivityRowSchema)
      .describe(
        "One row per user who knocked, got a lead, sold or collected money (net, not zero) in the range: a leaderboard by collected, then sale value, highest first.",
      ),
    totals: z
      .object(fieldActivityNumbersShape)
      .describe(
        "Everyone's numbers: knocks and money are the rows' sums; leads, won and customers count each lead or customer once, even when two users share it (a pin's creator and the lead's owner).",
      ),
    conversion: z
      .object({
        leads: conversion("totals.leads / totals.knocks; null without knocks."),
        won: conversion("totals.won / totals.leads; null without leads."),
        customers: conversion("totals.customers / totals.won; null without won leads."),
        collected: conversion("totals.collected / totals.sale_value; null without sale value."),
      })
      .describe(
        "The funnel over the totals: each step over the one before it, as a ratio (0.25 is 25 %), not rounded.",
      ),
  })
  .describe("Response of GET /reports/field-activity.");
export type FieldActivityReport = z.output<typeof fieldActivityReportSchema>;

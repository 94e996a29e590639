import { z } from "zod";
import { rangeInOrder } from "./common";
import { servicedJobFiltersSchema } from "./serviced-jobs";
import { servicePlanFiltersSchema, servicePlanFrequencySchema, userRefSchema } from "./service-plans";

/*
 * Report and CSV export endpoints under /api/reports: the same filters as the list endpoints
 * (without page and limit), answered for the whole filtered set by the database.
 */

/** Each report's filters: a list's, whose date range must run forwards (extensions.md E7). */
const planReportFilters = servicePlanFiltersSchema.superRefine(
  rangeInOrder("created_at_range_start", "created_at_range_end"),
);
const jobRangeInOrder = rangeInOrder("service_date_range_start", "service_date_range_end");

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

export const getServicedJobReportQuerySchema = servicedJobFiltersSchema
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

export const getServicedJobsExportQuerySchema = servicedJobFiltersSchema
  .superRefine(jobRangeInOrder)
  .describe(
    "Query of GET /reports/serviced-jobs/export: the filters of GET /serviced-jobs, without pagination.",
  );
export type GetServicedJobsExportQuery = z.output<typeof getServicedJobsExportQuerySchema>;

const money = (description: string) => z.number().describe(`${description} Dollars, rounded to cents.`);
const count = (description: string) => z.number().int().min(0).describe(description);
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

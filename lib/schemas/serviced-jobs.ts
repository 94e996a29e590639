import { z } from "zod";
import { JOB_STATUSES, PAYMENT_METHODS, PAYMENT_STATUSES, PAYMENT_TYPES } from "@/lib/values/enums";
import { booleanQuery, isoDateQuery, paginationQuerySchema, paginationSchema, sortQuery } from "./common";
import { customerRefSchema, textFilterQuery, userRefSchema } from "./service-plans";

/** The filters of GET /serviced-jobs, shared by its report and CSV export. */
export const servicedJobFiltersSchema = z.object({
  only_completed: booleanQuery(
    "true (default): only jobs with status Completed; false: every non-archived, non-quote job.",
  ).default(true),
  service_date_range_start: isoDateQuery(
    "start",
    "ISO 8601 date or date-time: jobs whose first visit starts on or after it. With a date bound, jobs without a visit are left out.",
  ).optional(),
  service_date_range_end: isoDateQuery(
    "end",
    "ISO 8601 date or date-time: jobs whose first visit starts on or before it (a bare date includes its whole UTC day).",
  ).optional(),
  customer_id: textFilterQuery(
    "Only the jobs of this customer id. An id that names no customer of the company matches no job: an empty list, not a 404.",
  ),
});
export type ServicedJobFilters = z.output<typeof servicedJobFiltersSchema>;

/** The fields GET /serviced-jobs sorts by: the job's own columns (customer and technicians are not). */
export const SERVICED_JOB_SORT_FIELDS = [
  "created_at",
  "service_date",
  "status",
  "total",
  "total_received",
  "total_outstanding",
] as const;
export type ServicedJobSortField = (typeof SERVICED_JOB_SORT_FIELDS)[number];

export const getServicedJobsQuerySchema = servicedJobFiltersSchema
  .extend(paginationQuerySchema.shape)
  .extend({
    sort: sortQuery(
      SERVICED_JOB_SORT_FIELDS,
      "Comma-separated fields to order by, each ascending or with a leading `-` descending: " +
        `${SERVICED_JOB_SORT_FIELDS.join(", ")}. Jobs without a service date come last either way, and ` +
        "`id` descending breaks ties. Status compares by its place in the work: Unscheduled, Scheduled, " +
        "In Progress, Completed, Cancelled. Default: newest first (-created_at).",
      ["-total_outstanding", "service_date", "status,-service_date"],
    ).optional(),
  })
  .describe("Query of GET /serviced-jobs.");
export type GetServicedJobsQuery = z.output<typeof getServicedJobsQuerySchema>;

export const jobLineItemSchema = z
  .object({
    id: z.string().describe("Line item id."),
    title: z.string().describe("Title."),
    description: z.string().describe("Description; empty when none."),
    total_price: z.number().describe("Total price of the line, dollars."),
  })
  .describe("A billed line of the job.");

export const jobPaymentSchema = z
  .object({
    id: z.string().describe("Payment id."),
    amount: z.number().describe("Amount in dollars (positive for payments and refunds alike)."),
    payment_date: z.string().nullable().describe("When it was paid or refunded, ISO 8601; null if unknown."),
    payment_method: z.enum(PAYMENT_METHODS).describe("card, ach, cash, check or other."),
    payment_type: z.enum(PAYMENT_TYPES).describe("payment, or refund (subtracted from what was received)."),
    status: z.enum(PAYMENT_STATUSES).describe("Only succeeded payments and refunds count."),
  })
  .describe("A payment or refund on the job.");

export const servicedJobSchema = z
  .object({
    id: z.string().describe("Job id."),
    created_at: z.string().describe("When the job was created, ISO 8601 (the list's default order)."),
    customer: customerRefSchema,
    service_date: z
      .string()
      .nullable()
      .describe(
        "Start of the job's first visit, ISO 8601; null when it has no visit (only listed with only_completed=false and no date bound).",
      ),
    service_plan_id: z
      .string()
      .nullable()
      .describe("The plan (job series) the job belongs to; null if none."),
    status: z.enum(JOB_STATUSES).describe("Unscheduled, Scheduled, In Progress, Completed or Cancelled."),
    technicians: z
      .array(userRefSchema)
      .describe("The assigned user, then the crew members in crew order, each once."),
    line_items: z.array(jobLineItemSchema).describe("Line items in their order."),
    payments: z.array(jobPaymentSchema).describe("Payments and refunds, oldest first."),
    total: z
      .number()
      .describe("The job's amount: the sum of its line items' total_price, dollars rounded to cents."),
    total_received: z
      .number()
      .describe("Net paid: succeeded payments minus succeeded refunds, dollars rounded to cents."),
    total_outstanding: z
      .number()
      .describe("Line item totals minus total_received, never below 0; dollars rounded to cents."),
  })
  .describe("A serviced job (never a quote, never archived).");
export type ServicedJob = z.output<typeof servicedJobSchema>;

export const listServicedJobsResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z
      .array(servicedJobSchema)
      .describe("The page of jobs in `sort` order, by default newest created first (id desc tie-break)."),
    pagination: paginationSchema,
  })
  .describe("A page of serviced jobs.");
export type ListServicedJobsResponse = z.output<typeof listServicedJobsResponseSchema>;

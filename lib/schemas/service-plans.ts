import { z } from "zod";
import { maxChars } from "./text";
import { PLAN_FREQUENCIES } from "@/lib/values/enums";
import { count, isoDateQuery, money, paginationQuerySchema, paginationSchema } from "./common";

/**
 * An exact-match text filter of a list query (ids, service type). Trimmed; an empty value is
 * the same as leaving the parameter out, so a form can send its empty fields as they are.
 */
export const textFilterQuery = (description: string) =>
  maxChars(z.string().trim(), 255)
    .transform((value) => (value === "" ? undefined : value))
    .optional()
    .describe(description);

/** A customer as embedded in plans and jobs; unknown names are "". */
export const customerRefSchema = z
  .object({
    id: z.string().describe("Customer id."),
    company_name: z.string().describe("Company name; empty when none."),
    first_name: z.string().describe("First name; empty when none."),
    last_name: z.string().describe("Last name; empty when none."),
  })
  .describe("The customer the record belongs to.");
export type CustomerRef = z.output<typeof customerRefSchema>;

/** A user as embedded in plans (seller), jobs (technicians) and pins (creator). */
export const userRefSchema = z
  .object({
    email: z.string().describe("The user's email; empty when there is no user."),
    name: z.string().describe("The user's name; empty when there is no user."),
    user_id: z.string().describe("The user's id; empty when there is no user."),
  })
  .describe("A user of the company.");
export type UserRef = z.output<typeof userRefSchema>;

export const servicePlanFrequencySchema = z
  .enum(PLAN_FREQUENCIES, { error: `must be one of ${PLAN_FREQUENCIES.join(", ")}` })
  .describe("Recurrence of the plan.");

/** The filters of GET /service-plans, shared by its report and CSV export. */
export const servicePlanFiltersSchema = z.object({
  created_at_range_start: isoDateQuery(
    "start",
    "ISO 8601 date or date-time: plans created on or after it (a bare date: from 00:00 UTC).",
  ).optional(),
  created_at_range_end: isoDateQuery(
    "end",
    "ISO 8601 date or date-time: plans created on or before it (a bare date includes its whole UTC day).",
  ).optional(),
  frequency: servicePlanFrequencySchema.optional().describe("Only plans of this frequency (exact value)."),
  service_type: textFilterQuery("Only plans of this service type (exact, case-sensitive)."),
  sold_by_user_id: textFilterQuery("Only plans sold by this user id."),
  customer_id: textFilterQuery(
    "Only the plans of this customer id. An id that names no customer of the company matches no plan: an empty list, not a 404.",
  ),
  status: z
    .enum(["active", "inactive"], { error: "must be active or inactive" })
    .optional()
    .describe("active: only active plans; inactive: only inactive plans."),
});
export type ServicePlanFilters = z.output<typeof servicePlanFiltersSchema>;

export const getServicePlansQuerySchema = servicePlanFiltersSchema
  .extend(paginationQuerySchema.shape)
  .describe("Query of GET /service-plans.");
export type GetServicePlansQuery = z.output<typeof getServicePlansQuerySchema>;

export const servicePlanSchema = z
  .object({
    id: z.string().describe("Plan id."),
    active: z.boolean().describe("Whether the plan is currently active."),
    created_at: z.string().describe("When the plan was created, ISO 8601."),
    customer: customerRefSchema,
    num_completed_jobs: count("The plan's jobs with status Completed."),
    num_pending_jobs: count(
      "Planned visits not yet scheduled: max(total visits − scheduled jobs, 0). Total visits is the plan's own count, or the frequency's count in one year.",
    ),
    num_scheduled_jobs: count("The plan's jobs with status Scheduled, In Progress or Completed."),
    sale_value: money(
      "Contract value: line item totals of the plan's jobs that are not Cancelled, plus the price per visit for each planned visit without a job yet.",
    ),
    service_frequency: z
      .string()
      .describe("The frequency's name (e.g. Quarterly); for Custom plans, the plan's own label."),
    service_type: z.string().describe("Service type of the plan; empty when none."),
    sold_by: userRefSchema.describe("The user who sold the plan (empty strings when none)."),
    start_date: z.string().nullable().describe("When service starts, ISO 8601; null when not set."),
    total_received: money(
      "Net paid on the plan's jobs: succeeded payments minus succeeded refunds (may be negative).",
    ),
  })
  .describe("A service plan (recurring service agreement) with its derived numbers.");
export type ServicePlan = z.output<typeof servicePlanSchema>;

export const listServicePlansResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z.array(servicePlanSchema).describe("The page of plans, newest created first (id desc tie-break)."),
    pagination: paginationSchema,
  })
  .describe("A page of service plans.");
export type ListServicePlansResponse = z.output<typeof listServicePlansResponseSchema>;

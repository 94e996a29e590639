import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { listServicedJobs } from "@/lib/domain/serviced-jobs/list";
import { getServicedJobsQuerySchema, listServicedJobsResponseSchema } from "@/lib/schemas/serviced-jobs";
import { named } from "@/lib/api/route-docs";

// GET /api/serviced-jobs – list serviced jobs with technicians, line items, payments and balances
export const GET = apiRoute({
  permission: "jobs:read",
  query: getServicedJobsQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await listServicedJobs({ ctx, input: query })) }),
  docs: {
    tag: "Serviced jobs",
    operationId: "listServicedJobs",
    summary: "List serviced jobs",
    description: [
      "The company's jobs, newest first (`created_at`, then `id`, descending), or in the order of `sort` " +
        "(`sort=-total_outstanding`: most owed first; `sort=status,-service_date`; jobs without a service " +
        "date last, ties by `id` descending, so pages never repeat or skip a job). By default only Completed " +
        "jobs; `only_completed=false` lists every status. Quotes and archived jobs are never listed.",
      "`service_date` is the start of the job's first visit; the date range filters on it, and with a date " +
        "bound jobs without a visit are left out, so `pagination.total` is the filtered count. " +
        "`total` is the sum of the line items' `total_price`; `total_received` is succeeded payments minus " +
        "succeeded refunds; `total_outstanding` is `total` minus that, never below 0.",
      "`customer_id` lists one customer's jobs (with `only_completed=false`, all of them: a customer's " +
        "balance is the sum of their `total_outstanding`); an id that names no customer of the company is " +
        "not an error: it answers an empty list with `total` 0.",
    ].join("\n\n"),
    responses: [
      {
        status: 200,
        description: "A page of serviced jobs.",
        schema: named("ListServicedJobsResponse", listServicedJobsResponseSchema),
      },
    ],
    example: {
      query: {
        service_date_range_start: "2026-03-01",
        service_date_range_end: "2026-03-31",
        sort: "-total_outstanding",
      },
    },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

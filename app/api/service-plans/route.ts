import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { listServicePlans } from "@/lib/domain/service-plans/list";
import { getServicePlansQuerySchema, listServicePlansResponseSchema } from "@/lib/schemas/service-plans";
import { named } from "@/lib/api/route-docs";

// GET /api/service-plans – list service plans with their derived numbers
export const GET = apiRoute({
  permission: "service_plans:read",
  query: getServicePlansQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await listServicePlans({ ctx, input: query })) }),
  docs: {
    tag: "Service plans",
    operationId: "listServicePlans",
    summary: "List service plans",
    description: [
      "The company's service plans, newest first (`created_at`, then `id`, descending) or in the order " +
        "of `sort` (`sort=-sale_value`: the largest sale value first; empty values last, ties by `id` " +
        "descending), with numbers the " +
        "database derives from the plan's jobs: `num_completed_jobs` (Completed), `num_scheduled_jobs` " +
        "(Scheduled, In Progress or Completed), `num_pending_jobs` (planned visits without a scheduled job), " +
        "`sale_value` (line items of non-cancelled jobs plus the price per visit of each planned visit " +
        "without a job) and `total_received` (payments minus refunds). Quotes and archived jobs never count.",
      "When a plan gives no number of visits, it is the frequency's count in one year: One-Time 1, Annual 1, " +
        "Semi-Annual 2, Tri-Annual 3, Quarterly 4, Bi-Monthly 6, Monthly 12, Bi-Weekly 26, Weekly 52.",
      "`customer_id` lists one customer's plans (a customer page's plans); an id that names no customer " +
        "of the company is not an error: it answers an empty list with `total` 0.",
    ].join("\n\n"),
    responses: [
      {
        status: 200,
        description: "A page of service plans.",
        schema: named("ListServicePlansResponse", listServicePlansResponseSchema),
      },
    ],
    example: { query: { status: "active", frequency: "Quarterly", created_at_range_start: "2026-01-01" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getServicePlanReport } from "@/lib/domain/reports/service-plan-report";
import { getServicePlanReportQuerySchema, servicePlanReportSchema } from "@/lib/schemas/reports";
import { named } from "@/lib/api/route-docs";

// GET /api/reports/service-plans – totals and breakdowns of the filtered service plans
export const GET = apiRoute({
  permission: "service_plans:read",
  query: getServicePlanReportQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await getServicePlanReport({ ctx, input: query })) }),
  docs: {
    tag: "Reports",
    operationId: "getServicePlanReport",
    summary: "Service plan report",
    description:
      "For every plan matching the filters of `GET /service-plans`: plan count, sale value, money received, " +
      "collection rate and job counts, broken down by frequency, by service type and by sales rep (a " +
      "leaderboard by money collected). The numbers are the list's numbers, summed. A `created_at_range_end` " +
      "before `created_at_range_start` is a 400 naming the end (the list answers an empty page instead).",
    responses: [
      {
        status: 200,
        description: "The report.",
        schema: named("ServicePlanReport", servicePlanReportSchema),
      },
    ],
    example: { query: { status: "active", created_at_range_start: "2026-01-01" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

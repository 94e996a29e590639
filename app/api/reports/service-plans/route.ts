import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getServicePlanReport } from "@/lib/domain/reports/service-plan-report";
import { getServicePlanReportQuerySchema } from "@/lib/schemas/reports";

// GET /api/reports/service-plans – totals and breakdowns of the filtered service plans
export const GET = apiRoute({
  permission: "service_plans:read",
  query: getServicePlanReportQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await getServicePlanReport({ ctx, input: query })) }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

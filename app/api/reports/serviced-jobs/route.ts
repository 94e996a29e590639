import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getServicedJobReport } from "@/lib/domain/reports/serviced-job-report";
import { getServicedJobReportQuerySchema } from "@/lib/schemas/reports";

// GET /api/reports/serviced-jobs – totals, time series and technician breakdown of the filtered jobs
export const GET = apiRoute({
  permission: "jobs:read",
  query: getServicedJobReportQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await getServicedJobReport({ ctx, input: query })) }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

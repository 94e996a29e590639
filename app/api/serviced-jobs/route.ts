import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { listServicedJobs } from "@/lib/domain/serviced-jobs/list";
import { getServicedJobsQuerySchema } from "@/lib/schemas/serviced-jobs";

// GET /api/serviced-jobs – list serviced jobs with technicians, line items, payments and balances
export const GET = apiRoute({
  permission: "jobs:read",
  query: getServicedJobsQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await listServicedJobs({ ctx, input: query })) }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

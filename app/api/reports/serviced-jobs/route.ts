import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getServicedJobReport } from "@/lib/domain/reports/serviced-job-report";
import { getServicedJobReportQuerySchema, servicedJobReportSchema } from "@/lib/schemas/reports";
import { named } from "@/lib/api/route-docs";

// GET /api/reports/serviced-jobs – totals, time series and technician breakdown of the filtered jobs
export const GET = apiRoute({
  permission: "jobs:read",
  query: getServicedJobReportQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await getServicedJobReport({ ctx, input: query })) }),
  docs: {
    tag: "Reports",
    operationId: "getServicedJobReport",
    summary: "Serviced job report",
    description:
      "For every job matching the filters of `GET /serviced-jobs`: job count, total, received and " +
      "outstanding money, per week or month of the service date (`interval`), and per technician. A " +
      "`service_date_range_end` before `service_date_range_start` is a 400 naming the end (the list " +
      "answers an empty page instead).",
    responses: [
      {
        status: 200,
        description: "The report.",
        schema: named("ServicedJobReport", servicedJobReportSchema),
      },
    ],
    example: {
      query: { only_completed: "true", interval: "week", service_date_range_start: "2026-01-01" },
    },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getFieldActivityReport } from "@/lib/domain/reports/field-activity";
import { getFieldActivityReportQuerySchema } from "@/lib/schemas/reports";

// GET /api/reports/field-activity – per user, from knocks to leads, sales and money collected
export const GET = apiRoute({
  permission: "reports:read",
  query: getFieldActivityReportQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await getFieldActivityReport({ ctx, input: query })) }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

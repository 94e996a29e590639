import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { listServicePlans } from "@/lib/domain/service-plans/list";
import { getServicePlansQuerySchema } from "@/lib/schemas/service-plans";

// GET /api/service-plans – list service plans with their derived numbers
export const GET = apiRoute({
  permission: "service_plans:read",
  query: getServicePlansQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await listServicePlans({ ctx, input: query })) }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

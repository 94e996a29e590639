import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { listActivity } from "@/lib/domain/activity/activity";
import { activityQuerySchema } from "@/lib/schemas/activity";
import { customerIdParamsSchema } from "@/lib/schemas/customers";

// GET /api/customers/{id}/activity – the customer's history, newest first (extensions.md E3)
export const GET = apiRoute({
  scopes: ["customers:read"],
  params: customerIdParamsSchema,
  query: activityQuerySchema,
  handler: ({ ctx, params, query }) =>
    listActivity({ ctx, recordType: "customer", recordId: params.id, input: query }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

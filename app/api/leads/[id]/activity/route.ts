import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { listActivity } from "@/lib/domain/activity/activity";
import { activityQuerySchema } from "@/lib/schemas/activity";
import { leadIdParamsSchema } from "@/lib/schemas/leads";

// GET /api/leads/{id}/activity – the lead's history, newest first (extensions.md E3)
export const GET = apiRoute({
  scopes: ["leads:read"],
  params: leadIdParamsSchema,
  query: activityQuerySchema,
  handler: ({ ctx, params, query }) =>
    listActivity({ ctx, recordType: "lead", recordId: params.id, input: query }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

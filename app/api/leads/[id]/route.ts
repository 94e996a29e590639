import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getLeadOrThrow } from "@/lib/domain/leads";
import { leadIdParamsSchema } from "@/lib/schemas/leads";

// GET /api/leads/{id} – one lead
export const GET = apiRoute({
  permission: "leads:read",
  params: leadIdParamsSchema,
  handler: async ({ ctx, params }) => ({
    status: "success",
    data: await getLeadOrThrow({ ctx, input: params }),
  }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

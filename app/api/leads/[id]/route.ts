import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getLeadOrThrow } from "@/lib/domain/leads";
import { getLeadResponseSchema, leadIdParamsSchema } from "@/lib/schemas/leads";
import { named } from "@/lib/api/route-docs";

// GET /api/leads/{id} – one lead
export const GET = apiRoute({
  permission: "leads:read",
  params: leadIdParamsSchema,
  handler: async ({ ctx, params }) => ({
    status: "success",
    data: await getLeadOrThrow({ ctx, input: params }),
  }),
  docs: {
    tag: "Leads",
    operationId: "getLead",
    summary: "Get a lead",
    description: "One lead by its id. An id of another company is not found.",
    responses: [
      { status: 200, description: "The lead.", schema: named("GetLeadResponse", getLeadResponseSchema) },
    ],
    notFound: "Lead",
    example: { params: { id: "lead_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

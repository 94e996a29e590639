import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { convertLead, dryRunConvertLead } from "@/lib/domain/leads/convert-lead";
import { convertLeadBodySchema } from "@/lib/schemas/lead-convert";
import { leadIdParamsSchema } from "@/lib/schemas/leads";
import { upsertQuerySchema } from "@/lib/schemas/upsert-fields";

// POST /api/leads/{id}/convert – the lead's customer: made from it, or a matching one linked (E4)
export const POST = apiRoute({
  permission: ["leads:write", "customers:write"],
  params: leadIdParamsSchema,
  query: upsertQuerySchema,
  body: convertLeadBodySchema,
  bodyOptional: true,
  handler: async ({ ctx, params, query, body }) => {
    // ?dry_run=true: what the call would do, nothing written (200).
    if (query.dry_run) return dryRunConvertLead({ ctx, id: params.id, input: body });
    const { created, ...answer } = await convertLead({ ctx, id: params.id, input: body });
    return respond(answer, created ? 201 : 200);
  },
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

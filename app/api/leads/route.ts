import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { listLeads, upsertLead } from "@/lib/domain/leads";
import { getLeadsQuerySchema, upsertLeadBodySchema } from "@/lib/schemas/leads";

// GET /api/leads – list leads
export const GET = apiRoute({
  scopes: ["leads:read"],
  query: getLeadsQuerySchema,
  handler: ({ ctx, query }) => listLeads({ ctx, input: query }),
});

// POST /api/leads – create or update a lead (201 created, 200 updated)
export const POST = apiRoute({
  scopes: ["leads:write"],
  body: upsertLeadBodySchema,
  handler: async ({ ctx, body }) => {
    const { created, lead } = await upsertLead({ ctx, input: body });
    return respond(lead, created ? 201 : 200);
  },
});

export const { PUT, PATCH, DELETE } = methodsNotAllowed("GET, POST");

import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { dryRunUpsertLead, listLeads, upsertLead } from "@/lib/domain/leads";
import { getLeadsQuerySchema, upsertLeadBodySchema } from "@/lib/schemas/leads";
import { upsertQuerySchema } from "@/lib/schemas/upsert-fields";

// GET /api/leads – list leads
export const GET = apiRoute({
  permission: "leads:read",
  query: getLeadsQuerySchema,
  handler: ({ ctx, query }) => listLeads({ ctx, input: query }),
});

// POST /api/leads – create or update a lead (201 created, 200 updated or dry run)
export const POST = apiRoute({
  permission: "leads:write",
  query: upsertQuerySchema,
  body: upsertLeadBodySchema,
  handler: async ({ ctx, query, body }) => {
    // ?dry_run=true: what the call would do, nothing written (200).
    if (query.dry_run) return dryRunUpsertLead({ ctx, input: body });
    const { created, lead } = await upsertLead({ ctx, input: body });
    return respond(lead, created ? 201 : 200);
  },
});

export const { PUT, PATCH, DELETE } = methodsNotAllowed("GET, POST");

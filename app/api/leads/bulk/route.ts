import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { bulkChangeLeads } from "@/lib/domain/leads/bulk-leads";
import { bulkLeadsBodySchema } from "@/lib/schemas/lead-bulk";

// POST /api/leads/bulk – one action on many leads (by ids or by filter), all or nothing, undoable
export const POST = apiRoute({
  scopes: ["leads:write"],
  body: bulkLeadsBodySchema,
  handler: ({ ctx, body }) => bulkChangeLeads({ ctx, input: body }),
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

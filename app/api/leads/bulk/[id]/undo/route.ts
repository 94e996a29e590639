import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { undoBulkChange } from "@/lib/domain/leads/bulk-leads";
import { bulkOperationIdParamsSchema } from "@/lib/schemas/lead-bulk";

// POST /api/leads/bulk/{id}/undo – restore what a bulk change replaced (once)
export const POST = apiRoute({
  scopes: ["leads:write"],
  params: bulkOperationIdParamsSchema,
  handler: ({ ctx, params }) => undoBulkChange({ ctx, id: params.id }),
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

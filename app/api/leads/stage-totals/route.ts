import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { leadStageTotals } from "@/lib/domain/leads";
import { getLeadStageTotalsQuerySchema } from "@/lib/schemas/leads";

// GET /api/leads/stage-totals – the matching leads' count and projected value per stage (the board)
export const GET = apiRoute({
  permission: "leads:read",
  query: getLeadStageTotalsQuerySchema,
  handler: ({ ctx, query }) => leadStageTotals({ ctx, input: query }),
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed("GET");

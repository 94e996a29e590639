import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { leadStageTotals } from "@/lib/domain/leads";
import { getLeadStageTotalsQuerySchema, leadStageTotalsResponseSchema } from "@/lib/schemas/leads";
import { named } from "@/lib/api/route-docs";

// GET /api/leads/stage-totals – the matching leads' count and projected value per stage (the board)
export const GET = apiRoute({
  permission: "leads:read",
  query: getLeadStageTotalsQuerySchema,
  handler: ({ ctx, query }) => leadStageTotals({ ctx, input: query }),
  docs: {
    tag: "Leads",
    operationId: "getLeadStageTotals",
    summary: "Lead totals per stage",
    description: [
      "For a board of leads by stage: the leads matching the same filters as `GET /leads` (paging " +
        "aside), counted and their `projected_value` summed per stage, exact. One row per stage value " +
        "held by a matching lead, in text order with no stage (`null`) last: stages outside the " +
        "pipeline appear as stored, and a stage without matching leads has no row. `totals` covers " +
        "every matching lead; a lead without a projected value counts and adds 0.",
      "`sort` does not apply here. Filtered by `archived`, `stage` and `tags` alone, the answer comes from totals the server keeps " +
        "as leads are written, whatever the number of leads; other filters count the matching leads.",
    ].join("\n\n"),
    notFound: "Territory",
    responses: [
      {
        status: 200,
        description: "Counts and projected values per stage, and in all.",
        schema: named("LeadStageTotalsResponse", leadStageTotalsResponseSchema),
      },
    ],
    example: { query: { tags: "spring-promo" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

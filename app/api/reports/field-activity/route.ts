import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { getFieldActivityReport } from "@/lib/domain/reports/field-activity";
import { fieldActivityReportSchema, getFieldActivityReportQuerySchema } from "@/lib/schemas/reports";
import { named } from "@/lib/api/route-docs";

// GET /api/reports/field-activity – per user, from knocks to leads, sales and money collected
export const GET = apiRoute({
  permission: "reports:read",
  query: getFieldActivityReportQuerySchema,
  handler: async ({ ctx, query }) => ({ ...(await getFieldActivityReport({ ctx, input: query })) }),
  docs: {
    tag: "Reports",
    operationId: "getFieldActivityReport",
    summary: "Knock-to-cash report",
    description: [
      "From knock to cash, per user, over `from`..`to` (both optional, inclusive; a bare `to` date is its " +
        "whole UTC day): one row per user who knocked, got a lead, sold or collected money (net, not zero) " +
        "in the range, as a leaderboard by money collected. A `to` before `from` is a 400 naming `to`.",
      "`knocks`: the user's visits (a pin's create and each change of its type), per pin type too. " +
        "`leads`: leads created in the range that are assigned to the user or were made from a pin the user " +
        "created (archived ones too); `won`: of those, the ones now in a stage of kind `won`; `customers`: " +
        "the customers converted from them. `sale_value`: the sale value (as `GET /reports/service-plans`) " +
        "of the plans the user sold, created in the range. `collected`: succeeded payments minus succeeded " +
        "refunds dated in the range on the jobs of the plans the user sold (quotes and archived jobs left " +
        "out, as `GET /reports/serviced-jobs` nets them).",
      "`territory_id`: knocks at pins inside the territory, leads whose location is inside it, and the plans " +
        "and payments of customers whose property location is inside it (the edge counts as inside; records " +
        "without a location never match). `totals` sums the rows, except that a lead or customer credited to " +
        "two users (a pin's creator and the lead's owner) counts once.",
    ].join("\n\n"),
    notFound: "Territory",
    responses: [
      {
        status: 200,
        description: "The report.",
        schema: named("FieldActivityReport", fieldActivityReportSchema),
      },
    ],
    example: { query: { from: "2026-03-01", to: "2026-03-31" } },
  },
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { setArchivedMany } from "@/lib/domain/activity/archive";
import {
  bulkCustomersBodySchema,
  bulkCustomersResponseSchema,
  CUSTOMER_BULK_IDS_MAX,
  type BulkCustomersResponse,
} from "@/lib/schemas/customer-bulk";
import { named } from "@/lib/api/route-docs";

// POST /api/customers/bulk – archive or unarchive many customers, all or nothing
export const POST = apiRoute({
  permission: "customers:write",
  body: bulkCustomersBodySchema,
  handler: async ({ ctx, body }): Promise<BulkCustomersResponse> => {
    const { matched, changedIds } = await setArchivedMany({
      ctx,
      recordType: "customer",
      ids: body.ids,
      archived: body.action.type === "archive",
    });
    return { status: "success", matched, changed: changedIds.length, changed_ids: changedIds };
  },
  docs: {
    tag: "Customers",
    operationId: "bulkChangeCustomers",
    summary: "Archive or unarchive many customers",
    description: [
      `Applies \`action.type\` (\`archive\` or \`unarchive\`) to the customers named by \`ids\` (at most ` +
        `${CUSTOMER_BULK_IDS_MAX.toLocaleString("en-US")}), each recorded in the customer's activity as ` +
        "`POST /customers/{id}/archive` records it.",
      "All or nothing, in one transaction: an id that is not a customer of the company is a 400 listing " +
        "the unknown ids (`ids[i]`), and nothing is changed.",
      "`matched` is the number of customers named, `changed` those the action changed (a customer that " +
        "already is so is left as it was), `changed_ids` their ids: the opposite action on them undoes " +
        "this one exactly.",
    ].join("\n\n"),
    bodyName: "BulkCustomersBody",
    responses: [
      {
        status: 200,
        description: "The customers were changed.",
        schema: named("BulkCustomersResponse", bulkCustomersResponseSchema),
      },
    ],
    example: { body: { ids: ["cus_01jq8m2x4kd7w3a9c5v6r8t0ye"], action: { type: "archive" } } },
  },
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

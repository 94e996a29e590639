import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { bulkChangeCustomers } from "@/lib/domain/customers/bulk-customers";
import {
  bulkCustomersBodySchema,
  bulkCustomersResponseSchema,
  CUSTOMER_BULK_IDS_MAX,
} from "@/lib/schemas/customer-bulk";

// POST /api/customers/bulk – archive or unarchive many customers, all or nothing, undoable
export const POST = apiRoute({
  permission: "customers:write",
  body: bulkCustomersBodySchema,
  handler: ({ ctx, body }) => bulkChangeCustomers({ ctx, input: body }),
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
        "already is so is left as it was), `changed_ids` their ids. The operation is kept: `POST` to " +
        "`undo.path` (`/customers/bulk/{id}/undo`) restores the values it replaced.",
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

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { named } from "@/lib/api/route-docs";
import { bulkChangeCustomers } from "@/lib/domain/customers/bulk-customers";
import {
  bulkCustomersBodySchema,
  bulkCustomersResponseSchema,
  CUSTOMER_BULK_IDS_MAX,
} from "@/lib/schemas/customer-bulk";

// POST /api/customers/bulk – archive or unarchive many customers (by ids or by filter), undoable
export const POST = apiRoute({
  permission: "customers:write",
  // The count of customers a filter matches reads the list: a write-only key must not learn it.
  inputPermissions: [
    {
      permission: "customers:read",
      when: "A selection by `filter`",
      applies: ({ body }) => body.filter !== undefined,
    },
  ],
  body: bulkCustomersBodySchema,
  handler: ({ ctx, body }) => bulkChangeCustomers({ ctx, input: body }),
  docs: {
    tag: "Customers",
    operationId: "bulkChangeCustomers",
    summary: "Archive or unarchive many customers",
    description: [
      `Applies \`action.type\` (\`archive\` or \`unarchive\`) to the customers named by \`ids\` (at most ` +
        `${CUSTOMER_BULK_IDS_MAX.toLocaleString("en-US")}; archived ones too) or matching \`filter\` (the ` +
        "filters of `GET /customers`: `search`, `status`, `tags`, `archived`, same meaning: without " +
        "`archived: true` only active customers), never both, each recorded in the customer's " +
        "activity as `POST /customers/{id}/archive` records it.",
      "A selection by `filter` needs the list's read scope as well as `customers:write` (its " +
        "`matched` count reads the list): `customers:read` (or, for an API key, `leads:read`), else " +
        "a 403 `INSUFFICIENT_SCOPE` naming it. A filter key `GET /customers` does not know is a 400 " +
        'naming it, never ignored. A filter that narrows nothing (`{}`, or only `archived`) needs `"all": ' +
        "true` (a 400 naming `filter` otherwise); `all` with `ids` or a narrowing filter is a 400 naming `all`.",
      "All or nothing, in one transaction: an id that is not a customer of the company is a 400 listing " +
        "the unknown ids (`ids[i]`), and nothing is changed.",
      "`matched` is the number of customers selected, `changed` those the action changed (a customer that " +
        "already is so is left as it was), `changed_ids` their ids. The operation is kept: `POST` to " +
        "`undo.path` (`/customers/bulk/{id}/undo`) within 24 hours restores the values it replaced (see there).",
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
    moreExamples: [
      {
        name: "byFilter",
        summary: "Archive the inactive customers tagged lapsed",
        body: { filter: { status: "inactive", tags: ["lapsed"] }, action: { type: "archive" } },
      },
    ],
  },
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

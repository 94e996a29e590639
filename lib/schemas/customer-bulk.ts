import { z } from "zod";
import { maxChars, nonBlank } from "./text";
import { CUSTOMER_STATUSES } from "@/lib/values/enums";
import {
  bulkSelectionCheck,
  bulkUndoLinkSchema,
  undoBulkResponseSchema,
  unknownFilterMessage,
} from "./lead-bulk";
import { idParamsSchema, searchQuery, SHORT_TEXT_MAX, TAG_MAX, TAGS_MAX } from "./upsert-fields";

/** Most customers one bulk request may name: a table's selection, several pages of it. */
export const CUSTOMER_BULK_IDS_MAX = 1_000;

/** The keys of the customer filter that narrow the selection (`archived` only widens it). */
const NARROWING_CUSTOMER_FILTERS = ["search", "status", "tags"] as const;

/**
 * The filters of GET /customers, as JSON, with the list's meaning. An unknown key is refused, not
 * ignored: a misspelt filter would otherwise select every customer.
 */
export const bulkCustomerFilterSchema = z
  .strictObject(
    {
      search: searchQuery(
        "As GET /customers: case-insensitive substring of the names, company name, email or phone.",
      ),
      status: z
        .enum(CUSTOMER_STATUSES, { error: "must be active or inactive" })
        .optional()
        .describe("As GET /customers: active or inactive."),
      tags: z
        .array(maxChars(nonBlank(z.string().trim()), TAG_MAX))
        .max(TAGS_MAX, `must have at most ${TAGS_MAX} tags`)
        .optional()
        .describe("As GET /customers: customers having any of these tags (exact, case-sensitive)."),
      archived: z
        .boolean()
        .default(false)
        .describe("As GET /customers: include archived customers (default false: only active ones)."),
    },
    {
      error: (issue): string | undefined =>
        issue.code === "unrecognized_keys"
          ? unknownFilterMessage("GET /customers", [...NARROWING_CUSTOMER_FILTERS, "archived"], issue.keys)
          : undefined,
    },
  )
  .describe(
    "Select the customers GET /customers would list with these filters (every page of them). A key " +
      'that is not one of these filters is a 400; a filter that narrows nothing needs `"all": true`.',
  );
export type BulkCustomerFilter = z.output<typeof bulkCustomerFilterSchema>;

/** Whether a filter selects every customer (every active one, or every one with `archived`). */
export function isEmptyCustomerFilter(
  filter: Partial<Record<(typeof NARROWING_CUSTOMER_FILTERS)[number], unknown>>,
): boolean {
  return NARROWING_CUSTOMER_FILTERS.every((key) => {
    const value = filter[key];
    return value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
  });
}

export const bulkCustomersBodySchema = z
  .object({
    ids: z
      .array(maxChars(nonBlank(z.string().trim()), SHORT_TEXT_MAX))
      .min(1, "must name at least one customer")
      .max(CUSTOMER_BULK_IDS_MAX, `must name at most ${CUSTOMER_BULK_IDS_MAX} customers`)
      .optional()
      .describe(
        `Select these customers (at most ${CUSTOMER_BULK_IDS_MAX}, archived ones too); every id must be a ` +
          "customer of the company, else a 400 listing the unknown ones and nothing is changed.",
      ),
    filter: bulkCustomerFilterSchema.optional(),
    all: z
      .boolean()
      .optional()
      .describe(
        "`true` confirms a `filter` that narrows nothing (`{}`, or only `archived`): every customer " +
          "(every active one without `archived: true`). Needed then, refused otherwise.",
      ),
    action: z
      .object({ type: z.enum(["archive", "unarchive"]).describe("What to do to each customer.") })
      .describe("The action."),
  })
  .check(bulkSelectionCheck("customer", isEmptyCustomerFilter))
  .describe("Archive or unarchive many customers at once, selected by ids or by a filter.");
export type BulkCustomersBody = z.output<typeof bulkCustomersBodySchema>;

export const bulkCustomersResponseSchema = z
  .object({
    status: z.literal("success"),
    matched: z.number().int().describe("Customers selected."),
    changed: z.number().int().describe("Customers the action changed (one already so is left as it was)."),
    changed_ids: z.array(z.string()).describe("The customers changed."),
    id: z.string().describe("The bulk operation's id, to undo it."),
    undo: bulkUndoLinkSchema("the changed customers' previous archived and archived_at"),
  })
  .describe("The outcome of a bulk change of customers.");
export type BulkCustomersResponse = z.output<typeof bulkCustomersResponseSchema>;

export const customerBulkOperationIdParamsSchema = idParamsSchema(
  "The bulk operation's id (the id of POST /customers/bulk).",
);

export const undoBulkCustomersResponseSchema = undoBulkResponseSchema("Customers");
export type UndoBulkCustomersResponse = z.output<typeof undoBulkCustomersResponseSchema>;

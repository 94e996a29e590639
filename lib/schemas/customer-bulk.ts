import { z } from "zod";
import { bulkUndoLinkSchema, undoBulkResponseSchema } from "./lead-bulk";
import { idParamsSchema, SHORT_TEXT_MAX } from "./upsert-fields";

/** Most customers one bulk request may name: a table's selection, several pages of it. */
export const CUSTOMER_BULK_IDS_MAX = 1_000;

export const bulkCustomersBodySchema = z
  .object({
    ids: z
      .array(z.string().trim().min(1, "must not be empty").max(SHORT_TEXT_MAX))
      .min(1, "must name at least one customer")
      .max(CUSTOMER_BULK_IDS_MAX, `must name at most ${CUSTOMER_BULK_IDS_MAX} customers`)
      .describe(
        `The customers (at most ${CUSTOMER_BULK_IDS_MAX}); every id must be a customer of the company, ` +
          "else a 400 listing the unknown ones and nothing is changed.",
      ),
    action: z
      .object({ type: z.enum(["archive", "unarchive"]).describe("What to do to each customer.") })
      .describe("The action."),
  })
  .describe("Archive or unarchive many customers at once.");
export type BulkCustomersBody = z.output<typeof bulkCustomersBodySchema>;

export const bulkCustomersResponseSchema = z
  .object({
    status: z.literal("success"),
    matched: z.number().int().describe("Customers named."),
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

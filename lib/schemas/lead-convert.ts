import { z } from "zod";
import { customerDetailSchema, customerDryRunResponseSchema, upsertCustomerBodySchema } from "./customers";
import { leadSchema } from "./leads";
import { dryRunResultId, matchedOnSchema, notDryRun } from "./upsert-fields";

// ---------------------------------------------------------------------------------------------
// POST /api/leads/{id}/convert (extensions.md E4)

export const convertLeadBodySchema = upsertCustomerBodySchema
  .omit({ id: true, remove_tags: true })
  .describe(
    "Optional. The new customer's fields where they should differ from what the lead carries over " +
      "(its name split into first and last name, property address, phone, email, tags, notes); " +
      '`match: "none"` makes a new customer even when the lead\'s phone or email matches one. A ' +
      "matched customer is linked as it is: these fields only shape a new one.",
  );
export type ConvertLeadBody = z.output<typeof convertLeadBodySchema>;

/**
 * A lead's name as its customer's first and last name: split at the last space (one word: the
 * first name; none: both empty). The API's conversion and the dashboard's prefilled form alike.
 */
export function splitLeadName(name: string | null | undefined): { first_name: string; last_name: string } {
  const trimmed = (name ?? "").trim();
  const split = trimmed.lastIndexOf(" ");
  return split < 0
    ? { first_name: trimmed, last_name: "" }
    : { first_name: trimmed.slice(0, split).trim(), last_name: trimmed.slice(split + 1) };
}

export const CONVERT_MESSAGES = {
  created: "Customer created from the lead",
  linked: "Lead linked to an existing customer",
  already: "The lead was already converted",
} as const;

export const convertLeadResponseSchema = z
  .object({
    status: z.literal("success"),
    message: z.enum(Object.values(CONVERT_MESSAGES) as [string, ...string[]]).describe("What was done."),
    matched_on: matchedOnSchema.describe(
      "null: a new customer was made; phone or email: an existing customer matched and was linked; " +
        "id: the lead was already converted to this customer.",
    ),
    data: customerDetailSchema.describe("The customer, as GET /customers/{id} returns it."),
    lead: leadSchema.describe("The lead after the conversion, as GET /leads/{id} returns it."),
    dry_run: notDryRun,
  })
  .describe("The outcome of a conversion.");
export type ConvertLeadResponse = z.output<typeof convertLeadResponseSchema>;

export const convertLeadDryRunResponseSchema = customerDryRunResponseSchema
  .extend({
    existing: customerDetailSchema
      .nullable()
      .describe("The customer the lead would be linked to (matched, or already linked), or null."),
    result: customerDetailSchema
      .extend({ id: dryRunResultId("customer") })
      .describe("The customer as it would be after the conversion (a customer it would make has no id)."),
  })
  .describe("What a conversion would do; nothing is written.");
export type ConvertLeadDryRunResponse = z.output<typeof convertLeadDryRunResponseSchema>;

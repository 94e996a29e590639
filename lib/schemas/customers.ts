import { z } from "zod";
import { CUSTOMER_STATUSES } from "@/lib/values/enums";
import { parseTagList } from "@/lib/values/normalize";
import {
  booleanQuery,
  feedPaginationQuerySchema,
  feedQueryShape,
  paginationSchema,
  sortQuery,
} from "./common";
import {
  DRY_RUN_MESSAGE,
  dryRunResultId,
  dryRunTrue,
  notDryRun,
  idParamsSchema,
  locationSchema,
  matchedOnSchema,
  matchInput,
  nullableEmail,
  nullableNotes,
  nullableText,
  recordIdInput,
  searchQuery,
  tagsInput,
} from "./upsert-fields";

// Customer responses leave out string fields without a value instead of sending null (see
// lib/domain/customers/customer-record.ts); `address` members are "" when unknown.

// ---------------------------------------------------------------------------------------------
// GET /api/customers

/** The fields GET /customers sorts by (extensions.md E2). */
export const CUSTOMER_SORT_FIELDS = ["created_at", "updated_at", "name", "status"] as const;
export type CustomerSortField = (typeof CUSTOMER_SORT_FIELDS)[number];

export const getCustomersQuerySchema = feedPaginationQuerySchema.extend({
  ...feedQueryShape,
  archived: booleanQuery("Include archived customers (true or false, default false).").default(false),
  search: searchQuery(
    "Case-insensitive substring of the first name, last name, 'first last', company name, email or " +
      "phone; a phone also matches on its digits alone.",
  ),
  status: z
    .enum(CUSTOMER_STATUSES, { error: "must be active or inactive" })
    .optional()
    .describe("active or inactive."),
  tags: z
    .string()
    .transform(parseTagList)
    .optional()
    .describe("Comma-separated tags; a customer matches if it has any of them (exact, case-sensitive)."),
  sort: sortQuery(
    CUSTOMER_SORT_FIELDS,
    "Comma-separated fields to order by, each ascending or with a leading `-` descending: " +
      `${CUSTOMER_SORT_FIELDS.join(", ")}. \`name\` is the last name, then the first name, then the ` +
      "company name, each case-insensitive (on its first 100 characters). Empty values come last either way, and `id` descending " +
      "breaks ties. Default: newest first (-created_at).",
    ["name", "status,-updated_at"],
  ).optional(),
});
export type GetCustomersQuery = z.output<typeof getCustomersQuerySchema>;

export const customerIdParamsSchema = idParamsSchema("The customer's id.");
export type CustomerIdParams = z.output<typeof customerIdParamsSchema>;

// ---------------------------------------------------------------------------------------------
// POST /api/customers

export const upsertCustomerBodySchema = z
  .object({
    id: recordIdInput(
      "Update the customer with this id (404 if unknown); absent: match by phone, then email.",
    ),
    first_name: nullableText(
      "First name. A new customer needs a name (first, last or company), email or phone.",
    ),
    last_name: nullableText("Last name."),
    company_name: nullableText("Company name."),
    email: nullableEmail("Email; matched case-insensitively when no id is given."),
    phone: nullableText("Phone, any format; matched on its digits when no id is given."),
    notes: nullableNotes("Notes, at most 10,000 characters."),
    source: nullableText("Where the customer came from."),
    property_street1: nullableText("Property (service) address, line 1."),
    property_street2: nullableText("Property address, line 2."),
    property_city: nullableText("Property city."),
    property_state: nullableText("Property state or region."),
    property_zip: nullableText("Property postal code."),
    property_country: nullableText("Property country."),
    billing_street1: nullableText("Billing address, line 1."),
    billing_street2: nullableText("Billing address, line 2."),
    billing_city: nullableText("Billing city."),
    billing_state: nullableText("Billing state or region."),
    billing_zip: nullableText("Billing postal code."),
    billing_country: nullableText("Billing country."),
    billing_same_as_property: z
      .boolean()
      .optional()
      .describe("true: the billing address is the property address (billing_* are copied from it)."),
    service_frequency: nullableText("How often the customer is serviced."),
    service_type: nullableText("Kind of service."),
    status: z
      .enum(CUSTOMER_STATUSES, { error: "must be active or inactive" })
      .optional()
      .describe("active or inactive; a new customer is active unless told otherwise."),
    tags: tagsInput("Tags to add: merged with the existing tags (existing first, then new ones)."),
    remove_tags: tagsInput(
      "Tags to take out of the customer's tags, after adding `tags` (one in both is taken out); others are ignored.",
    ),
    match: matchInput("customer"),
  })
  .describe(
    "Create or update a customer. Absent fields are kept, null (or an empty string) clears a field, " +
      "tags are merged. Unknown fields are ignored.",
  );
export type UpsertCustomerBody = z.output<typeof upsertCustomerBodySchema>;

// ---------------------------------------------------------------------------------------------
// Records

const text = (description: string) => z.string().optional().describe(`${description} Left out when empty.`);

export const customerAddressSchema = z
  .object({
    street1: z.string().describe("Line 1; empty string when unknown."),
    street2: z.string().optional().describe("Line 2; left out when empty."),
    city: z.string().describe("City; empty string when unknown."),
    state: z.string().describe("State or region; empty string when unknown."),
    zip: z.string().describe("Postal code; empty string when unknown."),
    country: z.string().describe("Country; empty string when unknown."),
  })
  .describe("The property (service) address.");
export type CustomerAddress = z.output<typeof customerAddressSchema>;

export const customerSchema = z
  .object({
    id: z.string().describe("The customer's id."),
    first_name: text("First name."),
    last_name: text("Last name."),
    company_name: text("Company name."),
    email: text("Email."),
    phone: text("Phone as entered."),
    notes: text("Notes."),
    source: text("Where the customer came from."),
    address: customerAddressSchema,
    status: z.enum(CUSTOMER_STATUSES).describe("active or inactive."),
    tags: z.array(z.string()).describe("Tags, in the order they were added."),
    created_at: z.string().describe("When the customer was created (ISO 8601)."),
    location: locationSchema
      .optional()
      .describe("[latitude, longitude] of the property; left out when unknown."),
    is_auto_pay: z.boolean().describe("Whether the customer pays automatically."),
  })
  .describe("A customer as listed.");
export type Customer = z.output<typeof customerSchema>;

export const customerDetailSchema = customerSchema
  .extend({
    has_payment_method: z.boolean().describe("True when at least one saved payment method is on file."),
    // Beyond interface.md's record: what the dashboard's edit form needs to show the whole customer.
    billing_street1: text("Billing address, line 1."),
    billing_street2: text("Billing address, line 2."),
    billing_city: text("Billing city."),
    billing_state: text("Billing state or region."),
    billing_zip: text("Billing postal code."),
    billing_country: text("Billing country."),
    billing_same_as_property: z.boolean().describe("Whether billing uses the property address."),
    service_frequency: text("How often the customer is serviced."),
    service_type: text("Kind of service."),
    archived: z.boolean().describe("Whether the customer is archived (POST /customers/{id}/archive)."),
    archived_at: text("When the customer was archived (ISO 8601)."),
    lead_id: text("The lead the customer was converted from (POST /leads/{id}/convert)."),
  })
  .describe("A customer as returned by id: the list record plus payment facts, billing address and service.");
export type CustomerDetail = z.output<typeof customerDetailSchema>;

export const CUSTOMER_MESSAGES = { created: "Customer created", updated: "Customer updated" } as const;

export const customerUpsertResponseSchema = z
  .object({
    id: z.string().describe("The customer's id."),
    first_name: text("First name."),
    last_name: text("Last name."),
    company_name: text("Company name."),
    email: text("Email."),
    phone: text("Phone as entered."),
    notes: text("Notes."),
    source: text("Where the customer came from."),
    property_street1: text("Property address, line 1."),
    property_street2: text("Property address, line 2."),
    property_city: text("Property city."),
    property_state: text("Property state or region."),
    property_zip: text("Property postal code."),
    property_country: text("Property country."),
    billing_street1: text("Billing address, line 1."),
    billing_street2: text("Billing address, line 2."),
    billing_city: text("Billing city."),
    billing_state: text("Billing state or region."),
    billing_zip: text("Billing postal code."),
    billing_country: text("Billing country."),
    billing_same_as_property: z.boolean().describe("Whether billing uses the property address."),
    service_frequency: text("How often the customer is serviced."),
    service_type: text("Kind of service."),
    status: z.enum(CUSTOMER_STATUSES).describe("The customer's own status: active or inactive."),
    tags: z.array(z.string()).describe("Tags after merging."),
    created_at: z.string().describe("When the customer was created (ISO 8601)."),
    message: z
      .enum([CUSTOMER_MESSAGES.created, CUSTOMER_MESSAGES.updated])
      .describe("Customer created (201) or Customer updated (200)."),
    matched_on: matchedOnSchema,
    dry_run: notDryRun,
  })
  .describe("The created or updated customer, flat; status is the customer's status, not 'success'.");
export type CustomerUpsertResponse = z.output<typeof customerUpsertResponseSchema>;

export const customerDryRunResponseSchema = z
  .object({
    status: z.literal("success"),
    message: z.literal(DRY_RUN_MESSAGE),
    dry_run: dryRunTrue,
    matched_on: matchedOnSchema,
    existing: customerDetailSchema
      .nullable()
      .describe("The matched customer as GET /customers/{id} returns it, or null."),
    result: customerUpsertResponseSchema
      .omit({ dry_run: true })
      .extend({ id: dryRunResultId("customer") })
      .describe("The answer the call would give without dry_run (a customer it would create has no id)."),
  })
  .describe("What POST /customers would do (?dry_run=true): nothing was written.");
export type CustomerDryRunResponse = z.output<typeof customerDryRunResponseSchema>;

export const listCustomersResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z
      .array(customerSchema)
      .describe("Customers in `sort` order, by default newest first (created_at, then id, descending)."),
    pagination: paginationSchema,
  })
  .describe("A page of customers.");
export type ListCustomersResponse = z.output<typeof listCustomersResponseSchema>;

export const getCustomerResponseSchema = z
  .object({ status: z.literal("success"), data: customerDetailSchema })
  .describe("One customer.");
export type GetCustomerResponse = z.output<typeof getCustomerResponseSchema>;

import {
  customerDetailSchema,
  customerIdParamsSchema,
  customerSchema,
  customerDryRunResponseSchema,
  customerUpsertResponseSchema,
  getCustomerResponseSchema,
  getCustomersQuerySchema,
  listCustomersResponseSchema,
  upsertCustomerBodySchema,
} from "@/lib/schemas/customers";
import {
  bulkCustomersBodySchema,
  bulkCustomersResponseSchema,
  CUSTOMER_BULK_IDS_MAX,
} from "@/lib/schemas/customer-bulk";
import { upsertQuerySchema } from "@/lib/schemas/upsert-fields";
import { z } from "zod";
import { named, type ResourceSpec } from "../types";
import { customerStoryEndpoints } from "./activity";

const upsertResponse = named("CustomerUpsertResponse", customerUpsertResponseSchema);
const dryRunResponse = named("CustomerDryRunResponse", customerDryRunResponseSchema);
/** 200: an update, or a dry run (?dry_run=true). */
const updatedOrDryRun = named(
  "CustomerUpdatedOrDryRunResponse",
  z
    .union([upsertResponse.schema, dryRunResponse.schema])
    .describe("An updated customer, or a dry run's answer."),
);

export const customersPaths: ResourceSpec = {
  tag: "Customers",
  description: "Customers with their property and billing address: create-or-update, list, get by id.",
  components: [named("Customer", customerSchema), named("CustomerDetail", customerDetailSchema)],
  endpoints: [
    {
      method: "POST",
      path: "/customers",
      operationId: "upsertCustomer",
      summary: "Create or update a customer",
      description: [
        "Matching as for leads: `id` (an unknown id is a 404); else phone digits; else email " +
          "(case-insensitive); several matches: the newest. A new customer needs a first name, last name, " +
          "company name, email or phone (else 400) and is `active` unless `status` says otherwise.",
        "On update, fields present overwrite, absent fields are kept and `null` clears a field; `tags` are " +
          "merged. `billing_same_as_property: true` copies the property address to the billing address. " +
          "The response is flat; its `status` is the customer's own (`active` or `inactive`).",
        "`remove_tags` takes tags out after the merge (the way to undo an update's added tags).",
        "`matched_on` says what the call matched: `id`, `phone` or `email`, or `null` when it created " +
          'the customer. `match: "none"` always creates a new customer, even when the phone or email matches ' +
          "(with an `id` it is a 400 naming `match`).",
        "`?dry_run=true` validates and matches exactly as the real call, writes nothing and answers 200 " +
          'with `message: "Dry run"`, `matched_on`, `existing` (the matched customer as `GET /customers/{id}` ' +
          "returns it, or `null`) and `result` (the answer the real call would give). Errors are those of " +
          "the real call.",
      ].join("\n\n"),
      scopes: ["customers:write"],
      query: upsertQuerySchema,
      body: named("UpsertCustomerBody", upsertCustomerBodySchema),
      responses: [
        {
          status: 201,
          description: "A new customer was created (`message`: Customer created).",
          schema: upsertResponse,
        },
        {
          status: 200,
          description:
            "An existing customer was updated (`message`: Customer updated), or, with `?dry_run=true`, what the " +
            "call would do (`message`: Dry run; nothing written).",
          schema: updatedOrDryRun,
        },
      ],
      notFound: "Customer",
      example: {
        body: {
          first_name: "Sam",
          last_name: "Rivera",
          email: "sam@example.com",
          phone: "512-555-0199",
          property_street1: "12 Oak St",
          property_city: "Austin",
          property_state: "TX",
          property_zip: "78701",
          property_country: "US",
          billing_same_as_property: true,
          tags: ["quarterly"],
        },
      },
      moreExamples: [
        {
          name: "dry_run",
          summary: "Dry run: what would this call match and change?",
          query: { dry_run: "true" },
          body: { first_name: "Sam", phone: "(512) 555-0199", service_frequency: "monthly" },
        },
        {
          name: "match_none",
          summary: "Always create a new customer, even if the phone or email matches",
          body: { first_name: "Sam", last_name: "Rivera", phone: "512.555.0199", match: "none" },
        },
      ],
    },
    {
      method: "GET",
      path: "/customers",
      operationId: "listCustomers",
      summary: "List customers",
      description:
        "The company's customers, newest first (`created_at`, then `id`, descending), or in the order of " +
        "`sort` (`sort=name`: by last name, then first name, then company name; `sort=status,-updated_at`; " +
        "empty values last, ties by `id` descending). Archived customers are left out unless `archived=true`.",
      scopes: ["customers:read"],
      query: getCustomersQuerySchema,
      responses: [
        {
          status: 200,
          description: "A page of customers.",
          schema: named("ListCustomersResponse", listCustomersResponseSchema),
        },
      ],
      example: { query: { status: "active", tags: "quarterly", sort: "name" } },
    },
    {
      method: "GET",
      path: "/customers/{id}",
      operationId: "getCustomer",
      summary: "Get a customer",
      description:
        "One customer by its id, with `has_payment_method`. An id of another company is not found.",
      scopes: ["customers:read"],
      params: customerIdParamsSchema,
      responses: [
        {
          status: 200,
          description: "The customer.",
          schema: named("GetCustomerResponse", getCustomerResponseSchema),
        },
      ],
      notFound: "Customer",
      example: { params: { id: "cus_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
    },
    ...customerStoryEndpoints,
    {
      method: "POST",
      path: "/customers/bulk",
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
      scopes: ["customers:write"],
      body: named("BulkCustomersBody", bulkCustomersBodySchema),
      responses: [
        {
          status: 200,
          description: "The customers were changed.",
          schema: named("BulkCustomersResponse", bulkCustomersResponseSchema),
        },
      ],
      example: { body: { ids: ["cus_01jq8m2x4kd7w3a9c5v6r8t0ye"], action: { type: "archive" } } },
    },
  ],
};

import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { dryRunUpsertCustomer, listCustomers, upsertCustomer } from "@/lib/domain/customers";
import {
  customerDryRunResponseSchema,
  customerUpsertResponseSchema,
  getCustomersQuerySchema,
  listCustomersResponseSchema,
  upsertCustomerBodySchema,
} from "@/lib/schemas/customers";
import { upsertQuerySchema } from "@/lib/schemas/upsert-fields";
import { whenDryRun } from "@/lib/api/route-config";
import { named } from "@/lib/api/route-docs";
import { z } from "zod";

// GET /api/customers – list customers
export const GET = apiRoute({
  permission: "customers:read",
  query: getCustomersQuerySchema,
  handler: ({ ctx, query }) => listCustomers({ ctx, input: query }),
  docs: {
    tag: "Customers",
    operationId: "listCustomers",
    summary: "List customers",
    description:
      "The company's customers, newest first (`created_at`, then `id`, descending), or in the order of " +
      "`sort` (`sort=name`: by last name, then first name, then company name; `sort=status,-updated_at`; " +
      "empty values last, ties by `id` descending). Archived customers are left out unless `archived=true`. " +
      "With `updated_since` or `cursor` the list walks its changes instead (the change feed, extensions E10): " +
      "oldest change first, archived customers included, `sort` and `archived` ignored, the other filters applied; " +
      "`pagination.next_cursor` leads to the next page, `null` on the last. Offset pages drift while " +
      "records are written; a walk never skips or repeats a change. `page` with `cursor`, or a cursor altered or made for another list or other filters, is a 400 naming `cursor`.",
    responses: [
      {
        status: 200,
        description: "A page of customers.",
        schema: named("ListCustomersResponse", listCustomersResponseSchema),
      },
    ],
    example: { query: { status: "active", tags: "quarterly", sort: "name" } },
  },
});

// POST /api/customers – create or update a customer (201 created, 200 updated or dry run)
export const POST = apiRoute({
  permission: "customers:write",
  // A dry run answers the matched customer: a write-only key must not read customers through it.
  inputPermissions: [whenDryRun("customers:read")],
  query: upsertQuerySchema,
  body: upsertCustomerBodySchema,
  handler: async ({ ctx, query, body }) => {
    // ?dry_run=true: what the call would do, nothing written (200).
    if (query.dry_run) return dryRunUpsertCustomer({ ctx, input: body });
    const { created, customer } = await upsertCustomer({ ctx, input: body });
    return respond(customer, created ? 201 : 200);
  },
  docs: {
    tag: "Customers",
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
        'with `message: "Dry run"`, `dry_run: true`, `matched_on`, `existing` (the matched customer as ' +
        "`GET /customers/{id}` returns it, or `null`) and `result` (the answer the real call would give; " +
        "a customer it would create has no `id` yet). Errors are those of the real call. It shows the " +
        "matched customer, so it needs the read scope too (see Access).",
      "While a CSV import of the company runs, a call whose phone or email the import claimed waits " +
        "for it, then matches the record it wrote; one still waiting when its time is up is a 409 " +
        "`IMPORT_IN_PROGRESS` naming the import.",
    ].join("\n\n"),
    errors: ["IMPORT_IN_PROGRESS"],
    bodyName: "UpsertCustomerBody",
    responses: [
      {
        status: 201,
        description: "A new customer was created (`message`: Customer created).",
        schema: named("CustomerUpsertResponse", customerUpsertResponseSchema),
      },
      {
        status: 200,
        description:
          "An existing customer was updated (`message`: Customer updated), or, with `?dry_run=true`, what the " +
          "call would do (a CustomerDryRunResponse, `dry_run: true`; nothing written).",
        schema: named(
          "CustomerUpdatedOrDryRunResponse",
          z
            .discriminatedUnion("dry_run", [customerUpsertResponseSchema, customerDryRunResponseSchema])
            .describe("An updated customer, or (`dry_run: true`) a dry run's answer."),
        ),
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
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET, POST");

import {
  activityQuerySchema,
  addNoteBodySchema,
  addNoteResponseSchema,
  listActivityResponseSchema,
  NOTE_MAX_LENGTH,
} from "@/lib/schemas/activity";
import { customerIdParamsSchema, getCustomerResponseSchema } from "@/lib/schemas/customers";
import {
  convertLeadBodySchema,
  convertLeadDryRunResponseSchema,
  convertLeadResponseSchema,
} from "@/lib/schemas/lead-convert";
import { getLeadResponseSchema, leadIdParamsSchema } from "@/lib/schemas/leads";
import { upsertQuerySchema } from "@/lib/schemas/upsert-fields";
import { z } from "zod";
import { named, type EndpointSpec } from "../types";

/** A record's activity, notes and archive endpoints (extensions.md E3), for leads or customers. */
function recordStoryEndpoints(kind: "lead" | "customer"): EndpointSpec[] {
  const plural = kind === "lead" ? "leads" : "customers";
  const Name = kind === "lead" ? "Lead" : "Customer";
  const params = kind === "lead" ? leadIdParamsSchema : customerIdParamsSchema;
  const id = kind === "lead" ? "lead_01jq8m2x4kd7w3a9c5v6r8t0ye" : "cus_01jq8m2x4kd7w3a9c5v6r8t0ye";
  const record = named(
    kind === "lead" ? "GetLeadResponse" : "GetCustomerResponse",
    kind === "lead" ? getLeadResponseSchema : getCustomerResponseSchema,
  );
  const archive = (archived: boolean): EndpointSpec => ({
    method: "POST",
    path: `/${plural}/{id}/${archived ? "archive" : "unarchive"}`,
    operationId: `${archived ? "archive" : "unarchive"}${Name}`,
    summary: `${archived ? "Archive" : "Unarchive"} a ${kind}`,
    description:
      `${archived ? "Archives" : "Unarchives"} the ${kind} (\`archived\`, \`archived_at\`) and records an ` +
      `\`${archived ? "archived" : "unarchived"}\` entry in its activity, in one transaction. A ${kind} ` +
      `that already is so is answered as it is, with no new entry. No body. ${
        archived
          ? `Archived ${plural} leave the default list (\`archived=true\` shows them) and still match on create-or-update.`
          : ""
      }`.trim(),
    scopes: [`${plural}:write`],
    params,
    responses: [{ status: 200, description: `The ${kind}, as GET answers it.`, schema: record }],
    notFound: Name,
    example: { params: { id } },
  });
  return [
    {
      method: "GET",
      path: `/${plural}/{id}/activity`,
      operationId: `list${Name}Activity`,
      summary: `A ${kind}'s activity`,
      description: [
        `What happened to the ${kind}, newest first (entries written in the same transaction are in ` +
          "the order they were written): `created`, `updated` (each changed field with its value " +
          "before and after, as the record's GET answer spells it), `archived`, `unarchived`, " +
          "`note` and `converted`, from the API, the dashboard and the import alike.",
        "`actor` is who did it: a dashboard user, an API key (its name as it is now) or the import. " +
          "An update by the import is recorded without its changed fields.",
      ].join("\n\n"),
      scopes: [`${plural}:read`],
      params,
      query: activityQuerySchema,
      responses: [
        {
          status: 200,
          description: "A page of the activity.",
          schema: named("ListActivityResponse", listActivityResponseSchema),
        },
      ],
      notFound: Name,
      example: { params: { id }, query: { limit: "20" } },
    },
    {
      method: "POST",
      path: `/${plural}/{id}/notes`,
      operationId: `add${Name}Note`,
      summary: `Add a note to a ${kind}`,
      description:
        `A note on the ${kind}, kept in its activity with who wrote it and when. \`body\`: 1 to ` +
        `${NOTE_MAX_LENGTH.toLocaleString("en-US")} characters, not only spaces. Notes are found by ` +
        (kind === "lead" ? "the `note` filter of `GET /leads`." : "reading the activity."),
      scopes: [`${plural}:write`],
      params,
      body: named("AddNoteBody", addNoteBodySchema),
      responses: [
        {
          status: 201,
          description: "The note's activity entry.",
          schema: named("AddNoteResponse", addNoteResponseSchema),
        },
      ],
      notFound: Name,
      example: { params: { id }, body: { body: "Called back: wants a quote for the back yard too." } },
    },
    archive(true),
    archive(false),
  ];
}

export const leadStoryEndpoints: EndpointSpec[] = [
  ...recordStoryEndpoints("lead"),
  {
    method: "POST",
    path: "/leads/{id}/convert",
    operationId: "convertLead",
    summary: "Convert a lead to a customer",
    description: [
      "Makes a customer from the lead: its name split at the last space into first and last name, " +
        "its property address, phone, email, tags, notes and source; the body, optional, gives " +
        "fields that should differ. When the lead's phone, else its email, matches a customer " +
        "(the rule of create-or-update, archived customers too), that customer is linked as it is " +
        'instead (200); `match: "none"` always makes a new one (201).',
      "The lead gets `customer_id` and the pipeline's first `won` stage; the customer gets " +
        "`lead_id` (a customer keeps the first lead it came from). Both get a `converted` entry in " +
        "their activity, a new customer its `created` one: one transaction.",
      'A lead converted before answers 200 with its customer (`matched_on: "id"`) and changes ' +
        "nothing. `?dry_run=true` answers what the call would do and writes nothing.",
    ].join("\n\n"),
    scopes: ["leads:write"],
    alsoScopes: ["customers:write"],
    params: leadIdParamsSchema,
    query: upsertQuerySchema,
    body: named("ConvertLeadBody", convertLeadBodySchema),
    responses: [
      {
        status: 201,
        description: "A customer was made from the lead.",
        schema: named("ConvertLeadResponse", convertLeadResponseSchema),
      },
      {
        status: 200,
        description:
          "An existing customer was linked (or the lead was converted before); with `dry_run=true`, " +
          "a ConvertLeadDryRunResponse.",
        schema: named(
          "ConvertLeadLinkedOrDryRunResponse",
          z
            .union([convertLeadResponseSchema, convertLeadDryRunResponseSchema])
            .describe("A linked customer, or a dry run's answer."),
        ),
      },
    ],
    notFound: "Lead",
    example: { params: { id: "lead_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
    moreExamples: [
      {
        name: "preview",
        summary: "Preview: which customer would it be?",
        params: { id: "lead_01jq8m2x4kd7w3a9c5v6r8t0ye" },
        query: { dry_run: "true" },
        body: { service_type: "Quarterly pest control" },
      },
    ],
  },
];

export const customerStoryEndpoints: EndpointSpec[] = recordStoryEndpoints("customer");

import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { convertLead, dryRunConvertLead } from "@/lib/domain/leads/convert-lead";
import {
  convertLeadBodySchema,
  convertLeadDryRunResponseSchema,
  convertLeadResponseSchema,
} from "@/lib/schemas/lead-convert";
import { leadIdParamsSchema } from "@/lib/schemas/leads";
import { upsertQuerySchema } from "@/lib/schemas/upsert-fields";
import { named } from "@/lib/api/route-docs";
import { z } from "zod";

// POST /api/leads/{id}/convert – the lead's customer: made from it, or a matching one linked (E4)
export const POST = apiRoute({
  permission: ["leads:write", "customers:write"],
  // A dry run shows the matched customer and the lead's fields: both read scopes as well.
  dryRunPermission: ["leads:read", "customers:read"],
  params: leadIdParamsSchema,
  query: upsertQuerySchema,
  body: convertLeadBodySchema,
  bodyOptional: true,
  handler: async ({ ctx, params, query, body }) => {
    // ?dry_run=true: what the call would do, nothing written (200).
    if (query.dry_run) return dryRunConvertLead({ ctx, id: params.id, input: body });
    const { created, ...answer } = await convertLead({ ctx, id: params.id, input: body });
    return respond(answer, created ? 201 : 200);
  },
  docs: {
    tag: "Leads",
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
        "nothing. `?dry_run=true` answers what the call would do and writes nothing: `dry_run: true`, " +
        "`existing` (the customer it would link, or `null`) and `result` (the customer as it would be; " +
        "one it would make has no `id` yet). It shows the lead's fields and the " +
        "matched customer, so it needs both read scopes too (see Access).",
    ].join("\n\n"),
    bodyName: "ConvertLeadBody",
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
          "a ConvertLeadDryRunResponse (`dry_run: true`).",
        schema: named(
          "ConvertLeadLinkedOrDryRunResponse",
          z
            .discriminatedUnion("dry_run", [convertLeadResponseSchema, convertLeadDryRunResponseSchema])
            .describe("A linked customer, or (`dry_run: true`) a dry run's answer."),
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
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed("POST");

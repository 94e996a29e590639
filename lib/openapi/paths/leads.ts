import {
  getLeadResponseSchema,
  getLeadsQuerySchema,
  leadIdParamsSchema,
  leadSchema,
  leadUpsertResponseSchema,
  listLeadsResponseSchema,
  upsertLeadBodySchema,
} from "@/lib/schemas/leads";
import { named, type ResourceSpec } from "../types";

const upsertResponse = named("LeadUpsertResponse", leadUpsertResponseSchema);

export const leadsPaths: ResourceSpec = {
  tag: "Leads",
  description: "Sales prospects in the pipeline: create-or-update, list with filters, get by id.",
  components: [named("Lead", leadSchema)],
  endpoints: [
    {
      method: "POST",
      path: "/leads",
      operationId: "upsertLead",
      summary: "Create or update a lead",
      description: [
        "Matching, in order: `id` (an unknown id is a 404); else the company's lead whose phone has the same " +
          "digits (a leading US `1` of an 11-digit number ignored); else the one whose email matches " +
          "case-insensitively; several matches: the newest. Archived leads are matched too and stay archived. " +
          "No match: a new lead, which needs a name, an email or a phone (else 400).",
        "On update, fields present overwrite, absent fields are kept and `null` clears a field; `tags` are " +
          "merged (the existing ones, then the new ones not yet present). `address_*` is stored as " +
          "`property_*` and `source` as `lead_source`; the response carries both names. Concurrent calls " +
          "with the same new phone or email create one lead.",
      ].join("\n\n"),
      scopes: ["leads:write"],
      body: named("UpsertLeadBody", upsertLeadBodySchema),
      responses: [
        {
          status: 201,
          description: "A new lead was created (`message`: Lead created).",
          schema: upsertResponse,
        },
        {
          status: 200,
          description: "An existing lead was updated (`message`: Lead updated).",
          schema: upsertResponse,
        },
      ],
      notFound: "Lead",
      example: {
        body: {
          name: "Jane Doe",
          phone: "(555) 123-4567",
          email: "jane@example.com",
          address_city: "Austin",
          priority: "high",
          stage: "new",
          tags: ["spring-promo"],
        },
      },
    },
    {
      method: "GET",
      path: "/leads",
      operationId: "listLeads",
      summary: "List leads",
      description:
        "The company's leads, newest first (`created_at`, then `id`, descending). Archived leads are left " +
        "out unless `archived=true`.",
      scopes: ["leads:read"],
      query: getLeadsQuerySchema,
      responses: [
        {
          status: 200,
          description: "A page of leads.",
          schema: named("ListLeadsResponse", listLeadsResponseSchema),
        },
      ],
      example: { query: { search: "555", limit: "20" } },
    },
    {
      method: "GET",
      path: "/leads/{id}",
      operationId: "getLead",
      summary: "Get a lead",
      description: "One lead by its id. An id of another company is not found.",
      scopes: ["leads:read"],
      params: leadIdParamsSchema,
      responses: [
        { status: 200, description: "The lead.", schema: named("GetLeadResponse", getLeadResponseSchema) },
      ],
      notFound: "Lead",
      example: { params: { id: "lead_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
    },
  ],
};

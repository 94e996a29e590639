import { apiRoute, methodsNotAllowed, respond } from "@/lib/api/handler";
import { dryRunUpsertLead, listLeads, upsertLead } from "@/lib/domain/leads";
import {
  getLeadsQuerySchema,
  leadDryRunResponseSchema,
  leadUpsertResponseSchema,
  listLeadsResponseSchema,
  upsertLeadBodySchema,
} from "@/lib/schemas/leads";
import { upsertQuerySchema } from "@/lib/schemas/upsert-fields";
import { whenDryRun } from "@/lib/api/route-config";
import { named } from "@/lib/api/route-docs";
import { z } from "zod";

// GET /api/leads – list leads
export const GET = apiRoute({
  permission: "leads:read",
  query: getLeadsQuerySchema,
  handler: ({ ctx, query }) => listLeads({ ctx, input: query }),
  docs: {
    tag: "Leads",
    operationId: "listLeads",
    summary: "List leads",
    description:
      "The company's leads, newest first (`created_at`, then `id`, descending), or in the order of " +
      "`sort` (`sort=follow_up_date,-priority`: soonest follow-up first, then high priority first; " +
      "empty values last, ties by `id` descending). Archived leads are left out unless `archived=true`. " +
      "`follow_up_from` and `follow_up_to` keep the leads to follow up within a range, both ends " +
      "inclusive (`follow_up_to=2026-03-31`: due by the end of that UTC day; a range that runs " +
      "backwards matches nothing). `open=true` keeps the leads still being worked: those not in a " +
      "won or lost stage of the pipeline (`GET /pipeline`), as the dashboard's Due today and Overdue " +
      "views ask. `territory_id` keeps the leads whose location lies inside that " +
      "territory (`GET /territories`), its edge included; leads without a location never match, and " +
      "an unknown territory is a 404. " +
      "With `updated_since` or `cursor` the list walks its changes instead (the change feed, extensions E10): " +
      "oldest change first, archived leads included, `sort` and `archived` ignored, the other filters applied; " +
      "`pagination.next_cursor` leads to the next page, `null` on the last. Offset pages drift while " +
      "records are written; a walk never skips or repeats a change. `page` with `cursor`, or a cursor altered or made for another list or other filters, is a 400 naming `cursor`.",
    notFound: "Territory",
    responses: [
      {
        status: 200,
        description: "A page of leads.",
        schema: named("ListLeadsResponse", listLeadsResponseSchema),
      },
    ],
    example: { query: { follow_up_to: "2026-03-31", sort: "follow_up_date,-priority", limit: "20" } },
  },
});

// POST /api/leads – create or update a lead (201 created, 200 updated or dry run)
export const POST = apiRoute({
  permission: "leads:write",
  // A dry run answers the matched lead: a write-only key must not read leads through it.
  inputPermissions: [whenDryRun("leads:read")],
  query: upsertQuerySchema,
  body: upsertLeadBodySchema,
  handler: async ({ ctx, query, body }) => {
    // ?dry_run=true: what the call would do, nothing written (200).
    if (query.dry_run) return dryRunUpsertLead({ ctx, input: body });
    const { created, lead } = await upsertLead({ ctx, input: body });
    return respond(lead, created ? 201 : 200);
  },
  docs: {
    tag: "Leads",
    operationId: "upsertLead",
    summary: "Create or update a lead",
    description: [
      "Matching, in order: `id` (an unknown id is a 404); else the company's lead whose phone has the same " +
        "digits (a leading US `1` of an 11-digit number ignored); else the one whose email matches " +
        "case-insensitively; several matches: the newest. Archived leads are matched too and stay archived. " +
        "No match: a new lead, which needs a name, an email or a phone (else 400). An `assigned_to` " +
        "that is not a user of the company is a 400 naming it.",
      "On update, fields present overwrite, absent fields are kept and `null` clears a field; `tags` are " +
        "merged (the existing ones, then the new ones not yet present). `address_*` is stored as " +
        "`property_*` and `source` as `lead_source`; the response carries both names. Concurrent calls " +
        "with the same new phone or email create one lead.",
      "`remove_tags` takes tags out after the merge (the way to undo an update's added tags).",
      "`matched_on` says what the call matched: `id`, `phone` or `email`, or `null` when it created " +
        'the lead. `match: "none"` always creates a new lead, even when the phone or email matches ' +
        "(with an `id` it is a 400 naming `match`).",
      "`?dry_run=true` validates and matches exactly as the real call, writes nothing and answers 200 " +
        'with `message: "Dry run"`, `dry_run: true`, `matched_on`, `existing` (the matched lead as ' +
        "`GET /leads/{id}` returns it, or `null`) and `result` (the answer the real call would give; a " +
        "lead it would create has no `id` yet). Errors are those of the real call. It shows the matched " +
        "lead, so it needs the read scope too (see Access).",
      "While a CSV import of the company runs, a call whose phone or email the import claimed waits " +
        "for it, then matches the record it wrote; one still waiting when its time is up is a 409 " +
        "`IMPORT_IN_PROGRESS` naming the import.",
    ].join("\n\n"),
    errors: ["IMPORT_IN_PROGRESS"],
    bodyName: "UpsertLeadBody",
    responses: [
      {
        status: 201,
        description: "A new lead was created (`message`: Lead created).",
        schema: named("LeadUpsertResponse", leadUpsertResponseSchema),
      },
      {
        status: 200,
        description:
          "An existing lead was updated (`message`: Lead updated), or, with `?dry_run=true`, what the " +
          "call would do (a LeadDryRunResponse, `dry_run: true`; nothing written).",
        schema: named(
          "LeadUpdatedOrDryRunResponse",
          z
            .discriminatedUnion("dry_run", [leadUpsertResponseSchema, leadDryRunResponseSchema])
            .describe("An updated lead, or (`dry_run: true`) a dry run's answer."),
        ),
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
    moreExamples: [
      {
        name: "dry_run",
        summary: "Dry run: what would this call match and change?",
        query: { dry_run: "true" },
        body: { name: "Jane Doe", phone: "555.123.4567", stage: "quoted" },
      },
      {
        name: "match_none",
        summary: "Always create a new lead, even if the phone or email matches",
        body: { name: "Jane Doe (second property)", phone: "(555) 123-4567", match: "none" },
      },
    ],
  },
});

export const { PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("GET, POST");

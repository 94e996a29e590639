import { z } from "zod";
import { maxChars } from "./text";
import { LEAD_PRIORITIES } from "@/lib/values/enums";
import { parseTagList } from "@/lib/values/normalize";
import {
  booleanQuery,
  feedPaginationQuerySchema,
  feedQueryShape,
  isoDateQuery,
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
  nullableIsoDate,
  nullableNotes,
  nullableText,
  recordIdInput,
  searchQuery,
  tagsInput,
} from "./upsert-fields";
import { assignedToInput, assignedToQuery } from "./lead-owners";
import { territoryIdQuery } from "./territories";

/** Largest amount numeric(12,2) holds. */
const MAX_MONEY = 9_999_999_999.99;

// ---------------------------------------------------------------------------------------------
// GET /api/leads

/** The fields GET /leads sorts by (extensions.md E2). */
export const LEAD_SORT_FIELDS = [
  "created_at",
  "updated_at",
  "name",
  "stage",
  "priority",
  "projected_value",
  "follow_up_date",
] as const;
export type LeadSortField = (typeof LEAD_SORT_FIELDS)[number];

export const getLeadsQuerySchema = feedPaginationQuerySchema.extend({
  ...feedQueryShape,
  archived: booleanQuery("Include archived leads (true or false, default false).").default(false),
  search: searchQuery(
    "Case-insensitive substring of the name, email or phone; a phone also matches on its digits alone.",
  ),
  note: searchQuery(
    "Only leads with a note (POST /leads/{id}/notes) containing this text, case-insensitive.",
  ),
  stage: z.string().trim().optional().describe("Only leads in this pipeline stage (exact)."),
  tags: z
    .string()
    .transform(parseTagList)
    .optional()
    .describe("Comma-separated tags; a lead matches if it has any of them (exact, case-sensitive)."),
  follow_up_from: isoDateQuery(
    "start",
    "Only leads with a follow-up date on or after this ISO 8601 date or date-time (a date: from its start in UTC).",
    ["2026-03-01"],
  ).optional(),
  follow_up_to: isoDateQuery(
    "end",
    "Only leads with a follow-up date on or before this ISO 8601 date or date-time (a date: its whole UTC day).",
    ["2026-03-31", "2026-03-31T17:00:00-05:00"],
  ).optional(),
  sort: sortQuery(
    LEAD_SORT_FIELDS,
    "Comma-separated fields to order by, each ascending or with a leading `-` descending: " +
      `${LEAD_SORT_FIELDS.join(", ")}. Empty values come last either way, and \`id\` descending ` +
      "breaks ties. Names compare case-insensitively, priority as low < medium < high, stages as text. " +
      "Default: newest first (-created_at).",
    ["follow_up_date,-priority", "-projected_value"],
  ).optional(),
  assigned_to: assignedToQuery,
  territory_id: territoryIdQuery("leads"),
  open: booleanQuery(
    "true: only open leads, those not in a closed stage (a pipeline stage of kind won or lost, " +
      "GET /pipeline); a lead without a stage or with a stage outside the pipeline counts as open. " +
      "false or absent: no such filter.",
  ).optional(),
});
export type GetLeadsQuery = z.output<typeof getLeadsQuerySchema>;

/**
 * GET /api/leads/stage-totals: the list's filters without its paging and order (a board counts
 * every matching lead).
 */
export const getLeadStageTotalsQuerySchema = getLeadsQuerySchema.omit({
  page: true,
  limit: true,
  sort: true,
});
export type GetLeadStageTotalsQuery = z.output<typeof getLeadStageTotalsQuerySchema>;

export const leadIdParamsSchema = idParamsSchema("The lead's id.");
export type LeadIdParams = z.output<typeof leadIdParamsSchema>;

// ---------------------------------------------------------------------------------------------
// POST /api/leads

export const upsertLeadBodySchema = z
  .object({
    id: recordIdInput("Update the lead with this id (404 if unknown); absent: match by phone, then email."),
    name: maxChars(z.string().trim(), 255)
      .optional()
      .describe("The prospect's name. A new lead needs a name, an email or a phone."),
    email: nullableEmail("Email; matched case-insensitively when no id is given."),
    phone: nullableText("Phone, any format; matched on its digits when no id is given."),
    address_street1: nullableText("Property address, line 1 (stored and returned as property_street1)."),
    address_street2: nullableText("Property address, line 2."),
    address_city: nullableText("Property city."),
    address_state: nullableText("Property state or region."),
    address_zip: nullableText("Property postal code."),
    address_country: nullableText("Property country."),
    priority: z.enum(LEAD_PRIORITIES).nullable().optional().describe("low, medium or high."),
    projected_value: z
      .number()
      .min(0, "must not be negative")
      .max(MAX_MONEY, `must be at most ${MAX_MONEY}`)
      .nullable()
      .optional()
      .describe("Expected value in dollars (rounded to cents)."),
    service_type: nullableText("Service the prospect wants."),
    source: nullableText("Where the lead came from (returned as source and lead_source)."),
    stage: nullableText("Pipeline stage."),
    lost_reason: nullableText(
      "Why the lead was lost: a label of GET /lost-reasons, or any other text. Moving the lead to a stage " +
        "that is not lost clears it unless the same call gives one.",
    ),
    tags: tagsInput("Tags to add: merged with the existing tags (existing first, then new ones)."),
    remove_tags: tagsInput(
      "Tags to take out of the lead's tags, after adding `tags` (one in both is taken out); others are ignored.",
    ),
    notes: nullableNotes("Notes, at most 10,000 characters."),
    follow_up_date: nullableIsoDate("When to follow up: ISO 8601 date or date-time."),
    match: matchInput("lead"),
    assigned_to: assignedToInput("Owner: a user id of the company (GET /users lists them); null unassigns."),
  })
  .describe(
    "Create or update a lead. Absent fields are kept, null (or an empty string) clears a field, " +
      "tags are merged. Unknown fields are ignored.",
  );
export type UpsertLeadBody = z.output<typeof upsertLeadBodySchema>;

// ---------------------------------------------------------------------------------------------
// Records

const nullableString = (description: string) => z.string().nullable().describe(description);

export const leadSchema = z
  .object({
    id: z.string().describe("The lead's id."),
    name: z.string().describe("The prospect's name; empty when the lead was created without one."),
    email: nullableString("Email."),
    phone: nullableString("Phone as entered."),
    property_street1: nullableString("Property address, line 1."),
    property_street2: nullableString("Property address, line 2."),
    property_city: nullableString("Property city."),
    property_state: nullableString("Property state or region."),
    property_zip: nullableString("Property postal code."),
    property_country: nullableString("Property country."),
    priority: z.enum(LEAD_PRIORITIES).nullable().describe("low, medium or high."),
    projected_value: z.number().nullable().describe("Expected value in dollars."),
    value_score: z.number().nullable().describe("Score of the lead's value."),
    service_type: nullableString("Service the prospect wants."),
    lead_source: nullableString("Where the lead came from."),
    stage: nullableString("Pipeline stage."),
    lost_reason: nullableString("Why the lead was lost (a lost reason's label), or null."),
    tags: z.array(z.string()).describe("Tags, in the order they were added."),
    notes: nullableString("Notes."),
    follow_up_date: nullableString("When to follow up (ISO 8601)."),
    assigned_to: nullableString("Id of the user the lead is assigned to."),
    archived: z.boolean().nullable().describe("Whether the lead is archived."),
    archived_at: nullableString("When the lead was archived (ISO 8601)."),
    customer_id: nullableString("The customer the lead was converted to (POST /leads/{id}/convert)."),
    created_at: nullableString("When the lead was created (ISO 8601)."),
    location: locationSchema.nullable().describe("[latitude, longitude] of the property, or null."),
  })
  .describe("A lead as listed and as returned by id.");
export type Lead = z.output<typeof leadSchema>;

export const LEAD_MESSAGES = { created: "Lead created", updated: "Lead updated" } as const;

export const leadUpsertResponseSchema = leadSchema
  .extend({
    address_street1: nullableString("Same as property_street1."),
    address_street2: nullableString("Same as property_street2."),
    address_city: nullableString("Same as property_city."),
    address_state: nullableString("Same as property_state."),
    address_zip: nullableString("Same as property_zip."),
    address_country: nullableString("Same as property_country."),
    source: nullableString("Same as lead_source."),
    status: z.literal("success").describe("The response status."),
    message: z
      .enum([LEAD_MESSAGES.created, LEAD_MESSAGES.updated])
      .describe("Lead created (201) or Lead updated (200)."),
    matched_on: matchedOnSchema,
    dry_run: notDryRun,
  })
  .describe("The created or updated lead, flat, with both the address_* and property_* names.");
export type LeadUpsertResponse = z.output<typeof leadUpsertResponseSchema>;

export const leadDryRunResponseSchema = z
  .object({
    status: z.literal("success"),
    message: z.literal(DRY_RUN_MESSAGE),
    dry_run: dryRunTrue,
    matched_on: matchedOnSchema,
    existing: leadSchema.nullable().describe("The matched lead as GET /leads/{id} returns it, or null."),
    result: leadUpsertResponseSchema
      .omit({ dry_run: true })
      .extend({ id: dryRunResultId("lead") })
      .describe("The answer the call would give without dry_run (a lead it would create has no id)."),
  })
  .describe("What POST /leads would do (?dry_run=true): nothing was written.");
export type LeadDryRunResponse = z.output<typeof leadDryRunResponseSchema>;

export const listLeadsResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z
      .array(leadSchema)
      .describe("Leads in `sort` order, by default newest first (created_at, then id, descending)."),
    pagination: paginationSchema,
  })
  .describe("A page of leads.");
export type ListLeadsResponse = z.output<typeof listLeadsResponseSchema>;

export const getLeadResponseSchema = z
  .object({ status: z.literal("success"), data: leadSchema })
  .describe("One lead.");
export type GetLeadResponse = z.output<typeof getLeadResponseSchema>;

const stageTotalFields = {
  count: z.number().int().describe("Number of matching leads (exact)."),
  projected_value: z
    .number()
    .describe("Sum of their projected_value in dollars, exact to the cent (a lead without one adds 0)."),
};

export const leadStageTotalSchema = z
  .object({
    stage: z
      .string()
      .nullable()
      .describe("The stage as stored: a pipeline stage's key, any other string, or null (no stage)."),
    ...stageTotalFields,
  })
  .describe("The matching leads of one stage.");
export type LeadStageTotal = z.output<typeof leadStageTotalSchema>;

export const leadStageTotalsResponseSchema = z
  .object({
    status: z.literal("success"),
    data: z
      .array(leadStageTotalSchema)
      .describe(
        "One row per stage value held by a matching lead (null and strings outside the pipeline " +
          "included, none for a stage without matching leads), by stage (null last).",
      ),
    totals: z.object(stageTotalFields).describe("All matching leads: the sums of data."),
  })
  .describe("The matching leads counted and their projected values summed, per stage.");
export type LeadStageTotalsResponse = z.output<typeof leadStageTotalsResponseSchema>;

import { z } from "zod";
import { maxChars, nonBlank } from "./text";
import { isoDateQuery } from "./common";
import { assignedToInput, assignedToQuery } from "./lead-owners";
import { territoryIdQuery } from "./territories";
import {
  idParamsSchema,
  nullableText,
  searchQuery,
  SHORT_TEXT_MAX,
  TAG_MAX,
  TAGS_MAX,
} from "./upsert-fields";

/** Most leads one bulk request may name by id. */
export const BULK_IDS_MAX = 10_000;

const tag = maxChars(nonBlank(z.string().trim()), TAG_MAX);

/** The filters of GET /leads, as JSON: the same meaning as the list's query parameters. */
export const bulkLeadFilterSchema = z
  .object({
    search: searchQuery("As GET /leads: case-insensitive substring of the name, email or phone."),
    note: searchQuery("As GET /leads: leads with a note containing this text, case-insensitive."),
    stage: z
      .string()
      .trim()
      .max(SHORT_TEXT_MAX)
      .optional()
      .describe("As GET /leads: leads in this stage (exact)."),
    tags: z
      .array(tag)
      .max(TAGS_MAX, `must have at most ${TAGS_MAX} tags`)
      .optional()
      .describe("As GET /leads: leads having any of these tags (exact, case-sensitive)."),
    archived: z
      .boolean()
      .default(false)
      .describe("As GET /leads: include archived leads (default false: only active ones)."),
    assigned_to: assignedToQuery,
    territory_id: territoryIdQuery("leads"),
    follow_up_from: isoDateQuery(
      "start",
      "As GET /leads: a follow-up date on or after this ISO 8601 date or date-time.",
    ).optional(),
    follow_up_to: isoDateQuery(
      "end",
      "As GET /leads: a follow-up date on or before this ISO 8601 date or date-time.",
    ).optional(),
  })
  .describe("Select the leads GET /leads would list with these filters (every page of them).");
export type BulkLeadFilter = z.output<typeof bulkLeadFilterSchema>;

export const bulkLeadActionSchema = z
  .discriminatedUnion("type", [
    z
      .object({
        type: z.literal("assign"),
        assigned_to: assignedToInput("A user id of the company, or null to unassign."),
      })
      .describe("Set the owner."),
    z
      .object({
        type: z.literal("set_stage"),
        stage: nullableText(
          "The stage; null clears it. A pipeline stage named by its key or label, in any case, is stored as its key.",
        ),
      })
      .describe("Set the stage."),
    z
      .object({
        type: z.literal("add_tags"),
        tags: z
          .array(tag)
          .min(1, "must have at least one tag")
          .max(TAGS_MAX, `must have at most ${TAGS_MAX} tags`)
          .describe("Tags to add, merged as create-or-update merges them (existing first, then new ones)."),
      })
      .describe("Add tags."),
    z.object({ type: z.literal("archive") }).describe("Archive the leads."),
    z.object({ type: z.literal("unarchive") }).describe("Unarchive the leads."),
  ])
  .describe("What to do to each selected lead: assign, set_stage, add_tags, archive or unarchive.");
export type BulkLeadAction = z.output<typeof bulkLeadActionSchema>;

export const bulkLeadsBodySchema = z
  .object({
    ids: z
      .array(maxChars(nonBlank(z.string().trim()), SHORT_TEXT_MAX))
      .min(1, "must name at least one lead")
      .max(BULK_IDS_MAX, `must name at most ${BULK_IDS_MAX} leads`)
      .optional()
      .describe(
        `Select these leads (at most ${BULK_IDS_MAX}, archived ones too); every id must be a lead of the ` +
          "company, else a 400 listing the unknown ones and nothing is changed.",
      ),
    filter: bulkLeadFilterSchema.optional(),
    action: bulkLeadActionSchema,
  })
  .superRefine((body, ctx) => {
    if ((body.ids === undefined) === (body.filter === undefined)) {
      for (const field of ["ids", "filter"]) {
        ctx.addIssue({ code: "custom", path: [field], message: "give either ids or filter" });
      }
    }
  })
  .describe("Change many leads at once: one action on the leads selected by ids or by a filter.");
export type BulkLeadsBody = z.output<typeof bulkLeadsBodySchema>;

/** How a bulk change's answer says to undo it, leads' and customers' alike. */
export const bulkUndoLinkSchema = (restores: string) =>
  z
    .object({
      method: z.literal("POST"),
      path: z.string().describe("POST here to undo the operation."),
    })
    .describe(`How to undo it: restores ${restores}.`);

export const bulkLeadsResponseSchema = z
  .object({
    status: z.literal("success"),
    id: z.string().describe("The bulk operation's id, to undo it."),
    matched: z.number().int().describe("Leads selected."),
    changed: z
      .number()
      .int()
      .describe("Leads the action changed (a lead that already had the value is left as it was)."),
    undo: bulkUndoLinkSchema("the changed leads' previous values"),
  })
  .describe("The outcome of a bulk change.");
export type BulkLeadsResponse = z.output<typeof bulkLeadsResponseSchema>;

export const bulkOperationIdParamsSchema = idParamsSchema(
  "The bulk operation's id (the id of POST /leads/bulk).",
);
export type BulkOperationIdParams = z.output<typeof bulkOperationIdParamsSchema>;

/** The answer of a bulk change's undo, leads' and customers' alike. */
export const undoBulkResponseSchema = (records: string) =>
  z
    .object({
      status: z.literal("success"),
      id: z.string().describe("The bulk operation's id."),
      restored: z.number().int().describe(`${records} whose previous values were restored.`),
    })
    .describe("The outcome of an undo.");

export const undoBulkLeadsResponseSchema = undoBulkResponseSchema("Leads");
export type UndoBulkLeadsResponse = z.output<typeof undoBulkLeadsResponseSchema>;

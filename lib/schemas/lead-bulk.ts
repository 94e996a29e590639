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

/**
 * The filters of GET /leads, as JSON: the same meaning as the list's query parameters. An unknown
 * key is refused, not ignored: a misspelt filter would otherwise select every lead.
 */
export const bulkLeadFilterSchema = z
  .strictObject(
    {
      search: searchQuery("As GET /leads: case-insensitive substring of the name, email or phone."),
      note: searchQuery("As GET /leads: leads with a note containing this text, case-insensitive."),
      stage: maxChars(z.string().trim(), SHORT_TEXT_MAX)
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
      open: z
        .boolean()
        .optional()
        .describe("As GET /leads: true keeps only open leads (not in a won or lost stage)."),
    },
    {
      error: (issue): string | undefined =>
        issue.code === "unrecognized_keys"
          ? unknownFilterMessage("GET /leads", [...NARROWING_LEAD_FILTERS, "archived"], issue.keys)
          : undefined,
    },
  )
  .describe(
    "Select the leads GET /leads would list with these filters (every page of them). A key that is " +
      'not one of these filters is a 400; a filter that narrows nothing (`{}`, or only `archived`) needs `"all": true`.',
  );
export type BulkLeadFilter = z.output<typeof bulkLeadFilterSchema>;

/** The keys of the lead filter that narrow the selection (`archived` only widens it). */
const NARROWING_LEAD_FILTERS = [
  "search",
  "note",
  "stage",
  "tags",
  "assigned_to",
  "territory_id",
  "follow_up_from",
  "follow_up_to",
  "open",
] as const;

/** The 400 of a filter key the list does not know, leads' and customers' alike. */
export function unknownFilterMessage(list: string, known: readonly string[], keys: readonly string[]) {
  const named = keys.map((key) => `"${key}"`).join(", ");
  return `${keys.length === 1 ? "unknown filter" : "unknown filters"} ${named}: ${list} filters by ${known.join(", ")}`;
}

/** Whether a filter selects every lead (every active one, or every one with `archived`). */
export function isEmptyLeadFilter(
  filter: Partial<Record<(typeof NARROWING_LEAD_FILTERS)[number], unknown>>,
): boolean {
  return NARROWING_LEAD_FILTERS.every((key) => {
    const value = filter[key];
    return (
      value === undefined || value === "" || value === false || (Array.isArray(value) && value.length === 0)
    );
  });
}

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
      .describe(
        "Set the stage. A stage that is not lost also clears the lead's lost reason, as a single stage change does; undo restores it.",
      ),
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

/**
 * The selection rules of a bulk body, leads' and customers' alike: ids or a filter; a filter that
 * narrows nothing only with `all: true`, and `all` with nothing else. A check, not superRefine: it
 * sees the filter's own issues, so an unknown key is not also reported as an empty filter.
 */
export function bulkSelectionCheck<F>(record: string, isEmpty: (filter: F) => boolean) {
  return (ctx: z.core.ParsePayload<{ ids?: unknown; filter?: F; all?: boolean }>) => {
    const body = ctx.value;
    const issue = (field: string, message: string) =>
      ctx.issues.push({ code: "custom", input: body, path: [field], message });
    if ((body.ids === undefined) === (body.filter === undefined)) {
      for (const field of ["ids", "filter"]) issue(field, "give either ids or filter");
      return;
    }
    if (ctx.issues.some((existing) => existing.path?.[0] === "filter")) return;
    const everyRecord = body.filter !== undefined && isEmpty(body.filter);
    if (everyRecord && body.all !== true) {
      issue(
        "filter",
        `an empty filter selects every ${record}: send "all": true to confirm, or give a filter`,
      );
    } else if (!everyRecord && body.all === true) {
      issue(
        "all",
        body.ids
          ? "all goes with an empty filter, not with ids"
          : "all goes with an empty filter only: leave it out when the filter narrows the selection",
      );
    }
  };
}

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
    all: z
      .boolean()
      .optional()
      .describe(
        "`true` confirms a `filter` that narrows nothing (`{}`, or only `archived`): every lead " +
          "(every active one without `archived: true`). Needed then, refused otherwise.",
      ),
    action: bulkLeadActionSchema,
  })
  .check(bulkSelectionCheck("lead", isEmptyLeadFilter))
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

/** Skipped records an undo's answer lists by id, at most (its `skipped` counts them all). */
export const UNDO_SKIPPED_IDS_LISTED = 100;

/** The answer of a bulk change's undo, leads' and customers' alike. */
export const undoBulkResponseSchema = (records: string) =>
  z
    .object({
      status: z.literal("success"),
      id: z.string().describe("The bulk operation's id."),
      restored: z.number().int().describe(`${records} whose previous values were restored.`),
      skipped: z
        .number()
        .int()
        .describe(
          `${records} left as they are: changed since the operation (the field no longer holds the ` +
            "value it set), so restoring them would revert a later write.",
        ),
      skipped_ids: z
        .array(z.string())
        .max(UNDO_SKIPPED_IDS_LISTED)
        .describe(
          `The first ${UNDO_SKIPPED_IDS_LISTED} skipped ids, in id order (\`skipped\` counts them all).`,
        ),
    })
    .describe("The outcome of an undo.");

export const undoBulkLeadsResponseSchema = undoBulkResponseSchema("Leads");
export type UndoBulkLeadsResponse = z.output<typeof undoBulkLeadsResponseSchema>;

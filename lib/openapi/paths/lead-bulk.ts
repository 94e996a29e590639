import {
  bulkLeadsBodySchema,
  bulkLeadsResponseSchema,
  bulkOperationIdParamsSchema,
  undoBulkLeadsResponseSchema,
  BULK_IDS_MAX,
} from "@/lib/schemas/lead-bulk";
import { named, type EndpointSpec } from "../types";

/** POST /leads/bulk and its undo, documented with the leads. */
export const leadBulkEndpoints: EndpointSpec[] = [
  {
    method: "POST",
    path: "/leads/bulk",
    operationId: "bulkChangeLeads",
    summary: "Change many leads at once",
    description: [
      `Selects leads by \`ids\` (at most ${BULK_IDS_MAX.toLocaleString("en-US")}; archived ones too) or ` +
        "by `filter` (the filters of `GET /leads`, same meaning: without `archived: true` only active " +
        "leads), never both, and applies one `action` to each: `assign` (`assigned_to`: a user id of " +
        "the company or null), `set_stage`, `add_tags` (merged as create-or-update merges them), " +
        "`archive` or `unarchive`. Every lead's `updated_at` is set; list totals stay exact.",
      "All or nothing, in one transaction: an id that is not a lead of the company is a 400 listing " +
        "the unknown ids (`ids[i]`), a lead that would get more than 100 tags a 400 naming " +
        "`action.tags`, a `filter.territory_id` that is no territory of the company a 404, and nothing is changed.",
      "`matched` is the number of leads selected, `changed` those the action changed (a lead that " +
        "already has the value is left as it was). The operation is kept: `POST` to `undo.path` " +
        "(`/leads/bulk/{id}/undo`) restores the values it replaced.",
    ].join("\n\n"),
    scopes: ["leads:write"],
    body: named("BulkLeadsBody", bulkLeadsBodySchema),
    notFound: "Territory",
    responses: [
      {
        status: 200,
        description: "The leads were changed.",
        schema: named("BulkLeadsResponse", bulkLeadsResponseSchema),
      },
    ],
    example: {
      body: {
        filter: { stage: "new", assigned_to: "none" },
        action: { type: "assign", assigned_to: "usr_01jq8m2x4kd7w3a9c5v6r8t0ye" },
      },
    },
  },
  {
    method: "POST",
    path: "/leads/bulk/{id}/undo",
    operationId: "undoBulkChangeLeads",
    summary: "Undo a bulk change",
    description:
      "The leads the bulk operation changed get back the values it replaced (only the fields its " +
      "action sets: the owner, the stage, the tags, or archived with archived_at), whatever was " +
      "written to those fields since. An operation is undone once: a second undo is a 409.",
    scopes: ["leads:write"],
    params: bulkOperationIdParamsSchema,
    responses: [
      {
        status: 200,
        description: "The previous values were restored.",
        schema: named("UndoBulkLeadsResponse", undoBulkLeadsResponseSchema),
      },
    ],
    notFound: "Bulk operation",
    errors: ["CONFLICT"],
    errorMessages: { CONFLICT: "This bulk operation has already been undone" },
    example: { params: { id: "blk_01jq8m2x4kd7w3a9c5v6r8t0ye" } },
  },
];

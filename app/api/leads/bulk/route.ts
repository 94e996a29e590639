import { apiRoute, methodsNotAllowed } from "@/lib/api/handler";
import { BULK_WORK_MS, bulkChangeLeads } from "@/lib/domain/leads/bulk-leads";
import { BULK_IDS_MAX, bulkLeadsBodySchema, bulkLeadsResponseSchema } from "@/lib/schemas/lead-bulk";
import { named } from "@/lib/api/route-docs";

// POST /api/leads/bulk – one action on many leads (by ids or by filter), all or nothing, undoable
export const POST = apiRoute({
  permission: "leads:write",
  // The count of leads a filter matches reads the list: a write-only key must not learn it.
  inputPermissions: [
    {
      permission: "leads:read",
      when: "A selection by `filter`",
      applies: ({ body }) => body.filter !== undefined,
    },
  ],
  // The chunks' time (BULK_WORK_MS), plus a statement before them and the last one (each within
  // the statement timeout): a change past its time rolls back before this answers 503.
  deadlineMs: BULK_WORK_MS + 10_000,
  body: bulkLeadsBodySchema,
  handler: ({ ctx, body }) => bulkChangeLeads({ ctx, input: body }),
  docs: {
    tag: "Leads",
    operationId: "bulkChangeLeads",
    summary: "Change many leads at once",
    description: [
      `Selects leads by \`ids\` (at most ${BULK_IDS_MAX.toLocaleString("en-US")}; archived ones too) or ` +
        "by `filter` (the filters of `GET /leads`, same meaning: without `archived: true` only active " +
        "leads), never both, and applies one `action` to each: `assign` (`assigned_to`: a user id of " +
        "the company or null, else a 400 naming `action.assigned_to`), `set_stage`, `add_tags` (merged as create-or-update merges them), " +
        "`archive` or `unarchive`. Every lead's `updated_at` is set; list totals stay exact.",
      "A selection by `filter` needs `leads:read` as well as `leads:write` (its `matched` count reads " +
        "the list): without it a 403 `INSUFFICIENT_SCOPE` names `leads:read`. A filter key that " +
        "`GET /leads` does not know is a 400 naming it, never ignored. A filter that narrows nothing " +
        '(`{}`, or only `archived`) selects every lead, so it needs `"all": true` (a 400 naming ' +
        "`filter` otherwise); `all` with `ids` or with a narrowing filter is a 400 naming `all`.",
      "All or nothing, in one transaction: an id that is not a lead of the company is a 400 listing " +
        "the unknown ids (`ids[i]`), a lead that would get more than 100 tags a 400 naming " +
        "`action.tags`, a `filter.territory_id` that is no territory of the company a 404, and nothing is changed.",
      "`matched` is the number of leads selected, `changed` those the action changed (a lead that " +
        "already has the value is left as it was). The operation is kept: `POST` to `undo.path` " +
        "(`/leads/bulk/{id}/undo`) within 24 hours restores the values it replaced (see there).",
    ].join("\n\n"),
    bodyName: "BulkLeadsBody",
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
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed("POST");

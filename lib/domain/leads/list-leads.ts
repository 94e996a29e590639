import "server-only";
import { and, sql, type SQL } from "drizzle-orm";
import { leads, leadSearchFields, leadSortKeys, pipelineStages, recordActivity } from "@/lib/db/schema";
import {
  isWalk,
  walkCondition,
  walkFields,
  walkOf,
  walkOrder,
  walkPage,
  walkReadLimit,
  type FeedColumns,
  type Walk,
} from "@/lib/domain/lists/change-feed";
import { listRows, type ListQueries } from "@/lib/domain/lists/newest-list";
import { textArray } from "@/lib/domain/lists/sql-fragments";
import {
  recordList,
  recordListQueries,
  recordListWhere,
  type RecordListFilter,
} from "@/lib/domain/record-lists";
import { timestampParam } from "@/lib/domain/reports/sql";
import { insideArea, territoryArea } from "@/lib/domain/territories/area";
import { pageOf, paginationOf } from "@/lib/schemas/common";
import type { GetLeadsQuery, ListLeadsResponse } from "@/lib/schemas/leads";
import { DEFAULT_PIPELINE } from "@/lib/schemas/pipeline";
import {
  LEAD_FIELDS,
  toLead,
  type LeadContext,
  type LeadReadContext,
  type LeadRecordRow,
} from "./lead-record";
import { ownerCondition, withOwnerResolved } from "./owners";

/**
 * GET /leads: newest first, with the exact total, read from the kept counters without a search;
 * a search shares its index matches with the page, or a short one counts beside it (newestList).
 * With `updated_since` or `cursor`, a walk of the changes instead (walkLeads).
 */
export async function listLeads({
  ctx,
  input,
}: {
  ctx: LeadReadContext;
  input: GetLeadsQuery;
}): Promise<ListLeadsResponse> {
  const filters = await withTerritoryResolved(ctx, withOwnerResolved(ctx, input));
  if (isWalk(input)) return walkLeads(ctx, input, filters);
  const { rows, total } = await listRows(leadListQueries(ctx, filters));
  return { status: "success", data: rows.map(toLead), pagination: paginationOf(pageOf(input), total) };
}

const LEAD_FEED: FeedColumns = {
  id: leads.id,
  changeXid: leads.changeXid,
  changeSeq: leads.changeSeq,
  updatedAt: leads.updatedAt,
};

/**
 * A page of the change feed (extensions.md E10): the leads' changes in order, archived leads
 * included, the list's other filters applied (change-feed.ts).
 */
async function walkLeads(
  ctx: LeadReadContext,
  input: GetLeadsQuery,
  filters: GetLeadsQuery & TerritoryResolved,
): Promise<ListLeadsResponse> {
  const walk = walkOf("leads", input, input);
  const rows = await leadWalkQuery(ctx, walk, { ...filters, limit: input.limit });
  const page = walkPage(rows as (LeadRecordRow & (typeof rows)[number])[], walk, input.limit);
  return { status: "success", data: page.rows.map(toLead), pagination: page.pagination };
}

/** The statement of a walk's page (exported so a test can check its plan). */
export function leadWalkQuery(ctx: LeadContext, walk: Walk, filters: LeadFilterInput & { limit: number }) {
  return ctx.db
    .select({ ...LEAD_FIELDS, ...walkFields(LEAD_FEED) })
    .from(leads)
    .where(and(leadFilter(ctx.companyId, { ...filters, archived: true }), walkCondition(LEAD_FEED, walk)))
    .orderBy(...walkOrder(LEAD_FEED))
    .limit(walkReadLimit(filters.limit));
}

/** The lead list: split by stage; a search matches name, email, phone and the phone's digits (leadSearchFields). */
const LEAD_LIST = recordList<typeof leads, LeadRecordRow>({
  listing: { table: leads, fields: LEAD_FIELDS },
  key: leads.stage,
  counters: { list: "leads", tags: "lead_tags" },
  searchFields: leadSearchFields(leads),
  sortKeys: leadSortKeys(leads),
});

/** The statements of a list request (exported so a test can check their plans). */
export function leadListQueries(
  ctx: LeadContext,
  input: GetLeadsQuery & TerritoryResolved,
): ListQueries<LeadRecordRow> {
  return recordListQueries(ctx.db, LEAD_LIST, ctx.companyId, {
    ...input,
    ...pageOf(input),
    ...leadListFilter(ctx.companyId, input),
  });
}

/** What the lead filters read of a request; `assigned_to` resolved (withOwnerResolved). */
export type LeadFilterInput = Pick<
  GetLeadsQuery,
  "archived" | "search" | "stage" | "tags" | "follow_up_from" | "follow_up_to" | "assigned_to"
> &
  Partial<Pick<GetLeadsQuery, "note" | "open">> &
  TerritoryResolved;

/** A request's `territory_id` with its ring read (withTerritoryResolved). */
export interface TerritoryResolved {
  territory_area?: string;
}

/**
 * Reads the territory's ring once, so the list's statements test each lead's point against a
 * constant. An unknown `territory_id` is a 404.
 */
export async function withTerritoryResolved<Q extends { territory_id?: string }>(
  ctx: Pick<LeadContext, "db" | "companyId">,
  query: Q,
): Promise<Q & TerritoryResolved> {
  if (query.territory_id === undefined) return query;
  return { ...query, territory_area: await territoryArea(ctx, query.territory_id) };
}

/**
 * The list's WHERE clause (recordListWhere), shared with GET /leads/stage-totals and the tests
 * that count its matches.
 */
export function leadFilter(companyId: string, input: LeadFilterInput): SQL {
  return recordListWhere(LEAD_LIST, companyId, { ...input, ...leadListFilter(companyId, input) });
}

/** The stage as the list's key, and the lead's own filters (owner, follow-up), which the counters do not keep. */
function leadListFilter(companyId: string, input: LeadFilterInput): RecordListFilter {
  return {
    key: input.stage,
    conditions: [
      ownerCondition(input.assigned_to),
      input.open ? openStageCondition(companyId) : undefined,
      ...followUpConditions(input),
      ...noteConditions(input),
      // Leads without a location have no point: `point(null, null) <@ area` is null, never true.
      input.territory_area === undefined ? undefined : insideArea("leads", input.territory_area),
    ],
  };
}

/**
 * A note containing the text (extensions.md E3), case-insensitive. The company's notes are read
 * by their partial index (record_activity_notes_idx), not the whole activity.
 */
function noteConditions(input: LeadFilterInput): SQL[] {
  if (!input.note) return [];
  return [
    sql`${leads.id} in (select a."record_id" from ${recordActivity} a
      where a."company_id" = ${leads.companyId} and a."record_type" = 'lead' and a."type" = 'note'
        and strpos(lower(a."note"), ${input.note.toLowerCase()}) > 0)`,
  ];
}

/**
 * The follow-up date range (extensions.md E2), inclusive; a reversed range matches nothing.
 * Spelled as the follow_up_date sort indexes' column so the range is read from them.
 */
function followUpConditions(input: LeadFilterInput): SQL[] {
  const conditions: SQL[] = [];
  if (input.follow_up_from)
    conditions.push(sql`${leads.followUpDate} >= ${timestampParam(input.follow_up_from)}`);
  if (input.follow_up_to)
    conditions.push(sql`${leads.followUpDate} <= ${timestampParam(input.follow_up_to)}`);
  return conditions;
}

/**
 * `open=true`: the lead's stage names no won or lost stage of the company's pipeline (matched as
 * create-or-update matches a stage: key or label, ignoring case and surrounding spaces). The
 * default pipeline's closed stages count while the company has stored none (loadPipeline).
 */
function openStageCondition(companyId: string): SQL {
  const closedDefaults = DEFAULT_PIPELINE.filter((stage) => stage.kind !== "open").flatMap((stage) => [
    stage.key.toLowerCase(),
    stage.label.toLowerCase(),
  ]);
  return sql`coalesce(lower(btrim(${leads.stage})), '') not in (
    select lower(names.name) from ${pipelineStages}
      cross join lateral (values (${pipelineStages.key}), (${pipelineStages.label})) as names(name)
      where ${pipelineStages.companyId} = ${companyId} and ${pipelineStages.kind} <> 'open'
    union all
    select closed.name from unnest(${textArray(closedDefaults)}) as closed(name)
      where not exists (select 1 from ${pipelineStages} where ${pipelineStages.companyId} = ${companyId}))`;
}

import type { SQL } from "drizzle-orm";
import { leads, leadSearchFields } from "@/lib/db/schema";
import { listRows, type ListQueries } from "@/lib/domain/lists/newest-list";
import { recordList, recordListQueries, recordListWhere } from "@/lib/domain/record-lists";
import { paginationOf } from "@/lib/schemas/common";
import type { GetLeadsQuery, ListLeadsResponse } from "@/lib/schemas/leads";
import { LEAD_FIELDS, toLead, type LeadContext, type LeadRecordRow } from "./lead-record";

/**
 * GET /leads: the company's leads, newest first (created_at, then id, descending), with the exact
 * number of matches. A request without a search reads its total from the kept counters
 * (lib/domain/list-counts.ts) in the page's own statement: those of archived and stage, or with
 * tags those of the tag sets. A search of three characters or more finds its matches once, by the
 * search index, for the page and the total together; a shorter one counts them beside the page
 * (newestList).
 */
export async function listLeads({
  ctx,
  input,
}: {
  ctx: LeadContext;
  input: GetLeadsQuery;
}): Promise<ListLeadsResponse> {
  const { rows, total } = await listRows(leadListQueries(ctx, input));
  return { status: "success", data: rows.map(toLead), pagination: paginationOf(input, total) };
}

/** The lead list: split by stage; a search matches name, email, phone and the phone's digits (leadSearchFields). */
const LEAD_LIST = recordList<typeof leads, LeadRecordRow>({
  listing: { table: leads, fields: LEAD_FIELDS },
  key: leads.stage,
  counters: { list: "leads", tags: "lead_tags" },
  searchFields: leadSearchFields(leads),
});

/** The statements of a list request (exported so a test can check their plans). */
export function leadListQueries(ctx: LeadContext, input: GetLeadsQuery): ListQueries<LeadRecordRow> {
  return recordListQueries(ctx.db, LEAD_LIST, ctx.companyId, { ...input, key: input.stage });
}

/** The list's WHERE clause (recordListWhere), also for the tests that count its matches. */
export function leadFilter(
  companyId: string,
  input: Pick<GetLeadsQuery, "archived" | "search" | "stage" | "tags">,
): SQL {
  return recordListWhere(LEAD_LIST, companyId, { ...input, key: input.stage });
}

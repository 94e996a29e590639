import { and, eq, or, sql, type SQL } from "drizzle-orm";
import { leads } from "@/lib/db/schema";
import { phoneSearchDigits } from "@/lib/domain/normalize";
import { listCountTotal, listTagCountTotal } from "@/lib/domain/list-counts";
import {
  containsPattern,
  listRows,
  newestList,
  textArray,
  type ListQueries,
  type ListQueryTotal,
} from "@/lib/domain/record-matching";
import { paginationOf } from "@/lib/schemas/common";
import type { GetLeadsQuery, ListLeadsResponse } from "@/lib/schemas/leads";
import { toLead, type LeadContext, type LeadRow } from "./lead-record";

/**
 * GET /leads: the company's leads, newest first (created_at, then id, descending), with the exact
 * number of matches. A request without a search reads its total from the kept counters
 * (lib/domain/list-counts.ts) in the page's own statement: those of archived and stage, or with
 * tags those of the tag sets. A narrow search finds its matches once, for the page and the total
 * together; a short one counts them beside the page (newestList).
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

/** The statements of a list request (exported so a test can check their plans). */
export function leadListQueries(ctx: LeadContext, input: GetLeadsQuery): ListQueries<LeadRow> {
  const where = leadFilter(ctx.companyId, input);
  return newestList(ctx.db, leads, ctx.companyId, where, input, () => leadCount(ctx, input, where));
}

/**
 * The request's total: kept by the counters when its filters are archived, stage and tags only
 * (the tag sets' counters when it has tags; read by the page's statement), else counted: count(*)
 * of the matching leads beside the page (a search too short to share its matches, see
 * newestList).
 */
function leadCount(ctx: LeadContext, input: GetLeadsQuery, where: SQL): ListQueryTotal {
  if (input.search) {
    return {
      counted: ctx.db
        .select({ total: sql<number>`count(*)::int` })
        .from(leads)
        .where(where),
    };
  }
  const companyId = ctx.companyId;
  const flag = input.archived ? undefined : false;
  const stage = input.stage || undefined;
  if (input.tags && input.tags.length > 0) {
    return {
      kept: listTagCountTotal(ctx.db, {
        companyId,
        entity: "lead_tags",
        flag,
        key2: stage,
        tags: input.tags,
      }),
    };
  }
  return { kept: listCountTotal(ctx.db, { companyId, entity: "leads", flag, key1: stage }) };
}

/**
 * The list's WHERE clause. Each predicate is written with the very expression of its index
 * (lib/db/schema/leads.ts) so PostgreSQL can use it: `not archived` (partial index),
 * `stage =`, `tags &&` (GIN), `lower(name)`, `email_normalized`, `lower(phone)` and
 * `phone_normalized` with LIKE (trigram GIN).
 */
export function leadFilter(
  companyId: string,
  input: Pick<GetLeadsQuery, "archived" | "search" | "stage" | "tags">,
): SQL {
  const conditions: (SQL | undefined)[] = [eq(leads.companyId, companyId)];
  if (!input.archived) conditions.push(sql`not ${leads.archived}`);
  if (input.stage) conditions.push(eq(leads.stage, input.stage));
  if (input.tags && input.tags.length > 0) conditions.push(sql`${leads.tags} && ${textArray(input.tags)}`);
  if (input.search) {
    const pattern = containsPattern(input.search);
    const digits = phoneSearchDigits(input.search);
    conditions.push(
      or(
        sql`lower(${leads.name}) like ${pattern}`,
        sql`${leads.emailNormalized} like ${pattern}`,
        sql`lower(${leads.phone}) like ${pattern}`,
        digits ? sql`${leads.phoneNormalized} like ${containsPattern(digits)}` : undefined,
      ),
    );
  }
  return and(...conditions) as SQL;
}

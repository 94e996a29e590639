import { and, eq, or, sql, type SQL } from "drizzle-orm";
import { customers } from "@/lib/db/schema";
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
import type { GetCustomersQuery, ListCustomersResponse } from "@/lib/schemas/customers";
import { toCustomer, type CustomerContext, type CustomerRow } from "./customer-record";

/**
 * GET /customers: the company's customers, newest first (created_at, then id, descending), with
 * the exact number of matches. A request without a search reads its total from the kept counters
 * (lib/domain/list-counts.ts) in the page's own statement: those of archived and status, or with
 * tags those of the tag sets. A narrow search finds its matches once, for the page and the total
 * together; a short one counts them beside the page (newestList).
 */
export async function listCustomers({
  ctx,
  input,
}: {
  ctx: CustomerContext;
  input: GetCustomersQuery;
}): Promise<ListCustomersResponse> {
  const { rows, total } = await listRows(customerListQueries(ctx, input));
  return { status: "success", data: rows.map(toCustomer), pagination: paginationOf(input, total) };
}

/** The statements of a list request (exported so a test can check their plans). */
export function customerListQueries(
  ctx: CustomerContext,
  input: GetCustomersQuery,
): ListQueries<CustomerRow> {
  const where = customerFilter(ctx.companyId, input);
  return newestList(ctx.db, customers, ctx.companyId, where, input, () => customerCount(ctx, input, where));
}

/**
 * The request's total: kept by the counters when its filters are archived, status and tags only
 * (the tag sets' counters when it has tags; read by the page's statement), else counted: count(*)
 * of the matching customers beside the page (a search too short to share its matches, see
 * newestList).
 */
function customerCount(ctx: CustomerContext, input: GetCustomersQuery, where: SQL): ListQueryTotal {
  if (input.search) {
    return {
      counted: ctx.db
        .select({ total: sql<number>`count(*)::int` })
        .from(customers)
        .where(where),
    };
  }
  const companyId = ctx.companyId;
  const flag = input.archived ? undefined : false;
  const status = input.status || undefined;
  if (input.tags && input.tags.length > 0) {
    return {
      kept: listTagCountTotal(ctx.db, {
        companyId,
        entity: "customer_tags",
        flag,
        key2: status,
        tags: input.tags,
      }),
    };
  }
  return { kept: listCountTotal(ctx.db, { companyId, entity: "customers", flag, key1: status }) };
}

/**
 * The list's WHERE clause, each predicate written with the expression of its index
 * (lib/db/schema/customers.ts): `not archived` (partial index), `status =`, `tags &&` (GIN), and
 * LIKE on `lower(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))` (first, last and
 * "first last" in one), `lower(company_name)`, `email_normalized`, `lower(phone)` and
 * `phone_normalized` (trigram GIN).
 */
export function customerFilter(
  companyId: string,
  input: Pick<GetCustomersQuery, "archived" | "search" | "status" | "tags">,
): SQL {
  const conditions: (SQL | undefined)[] = [eq(customers.companyId, companyId)];
  if (!input.archived) conditions.push(sql`not ${customers.archived}`);
  if (input.status) conditions.push(eq(customers.status, input.status));
  if (input.tags && input.tags.length > 0) {
    conditions.push(sql`${customers.tags} && ${textArray(input.tags)}`);
  }
  if (input.search) {
    const pattern = containsPattern(input.search);
    const digits = phoneSearchDigits(input.search);
    conditions.push(
      or(
        sql`lower(coalesce(${customers.firstName}, '') || ' ' || coalesce(${customers.lastName}, '')) like ${pattern}`,
        sql`lower(${customers.companyName}) like ${pattern}`,
        sql`${customers.emailNormalized} like ${pattern}`,
        sql`lower(${customers.phone}) like ${pattern}`,
        digits ? sql`${customers.phoneNormalized} like ${containsPattern(digits)}` : undefined,
      ),
    );
  }
  return and(...conditions) as SQL;
}

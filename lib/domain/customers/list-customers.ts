import "server-only";
import { and, type SQL } from "drizzle-orm";
import { customers, customerSearchFields, customerSortKeys } from "@/lib/db/schema";
import {
  isWalk,
  walkCondition,
  walkFields,
  walkOf,
  walkOrder,
  walkPage,
  walkReadLimit,
  type FeedColumns,
} from "@/lib/domain/lists/change-feed";
import { listRows, type ListQueries } from "@/lib/domain/lists/newest-list";
import { recordList, recordListQueries, recordListWhere } from "@/lib/domain/record-lists";
import { pageOf, paginationOf } from "@/lib/schemas/common";
import type { GetCustomersQuery, ListCustomersResponse } from "@/lib/schemas/customers";
import {
  LISTED_CUSTOMER_FIELDS,
  toCustomer,
  type CustomerContext,
  type ListedCustomerRow,
} from "./customer-record";

/**
 * GET /customers: newest first, with the exact total, read from the kept counters without a search;
 * a search shares its index matches with the page, or a short one counts beside it (newestList).
 * With `updated_since` or `cursor`, a walk of the changes instead (walkCustomers).
 */
export async function listCustomers({
  ctx,
  input,
}: {
  ctx: CustomerContext;
  input: GetCustomersQuery;
}): Promise<ListCustomersResponse> {
  if (isWalk(input)) return walkCustomers(ctx, input);
  const { rows, total } = await listRows(customerListQueries(ctx, input));
  return { status: "success", data: rows.map(toCustomer), pagination: paginationOf(pageOf(input), total) };
}

const CUSTOMER_FEED: FeedColumns = {
  id: customers.id,
  changeXid: customers.changeXid,
  changeSeq: customers.changeSeq,
  updatedAt: customers.updatedAt,
};

/**
 * A page of the change feed (extensions.md E10): the customers' changes in order, archived ones
 * included, the list's other filters applied (change-feed.ts).
 */
async function walkCustomers(ctx: CustomerContext, input: GetCustomersQuery): Promise<ListCustomersResponse> {
  const walk = walkOf("customers", input, input);
  const rows = await ctx.db
    .select({ ...LISTED_CUSTOMER_FIELDS, ...walkFields(CUSTOMER_FEED) })
    .from(customers)
    .where(
      and(customerFilter(ctx.companyId, { ...input, archived: true }), walkCondition(CUSTOMER_FEED, walk)),
    )
    .orderBy(...walkOrder(CUSTOMER_FEED))
    .limit(walkReadLimit(input.limit));
  const page = walkPage(rows as (ListedCustomerRow & (typeof rows)[number])[], walk, input.limit);
  return { status: "success", data: page.rows.map(toCustomer), pagination: page.pagination };
}

/**
 * The customer list: split by status; a search matches `first last` (first, last and both in
 * one), the company name, email, phone and the phone's digits (customerSearchFields).
 */
const CUSTOMER_LIST = recordList<typeof customers, ListedCustomerRow>({
  listing: { table: customers, fields: LISTED_CUSTOMER_FIELDS },
  key: customers.status,
  counters: { list: "customers", tags: "customer_tags" },
  searchFields: customerSearchFields(customers),
  sortKeys: customerSortKeys(customers),
});

/** The statements of a list request (exported so a test can check their plans). */
export function customerListQueries(
  ctx: CustomerContext,
  input: GetCustomersQuery,
): ListQueries<ListedCustomerRow> {
  return recordListQueries(ctx.db, CUSTOMER_LIST, ctx.companyId, {
    ...input,
    ...pageOf(input),
    key: input.status,
  });
}

/** The list's WHERE clause (recordListWhere), also for the tests that count its matches. */
export function customerFilter(
  companyId: string,
  input: Pick<GetCustomersQuery, "archived" | "search" | "status" | "tags">,
): SQL {
  return recordListWhere(CUSTOMER_LIST, companyId, { ...input, key: input.status });
}

import "server-only";
import type { SQL } from "drizzle-orm";
import { customers, customerSearchFields, customerSortKeys } from "@/lib/db/schema";
import { listRows, type ListQueries } from "@/lib/domain/lists/newest-list";
import { recordList, recordListQueries, recordListWhere } from "@/lib/domain/record-lists";
import { paginationOf } from "@/lib/schemas/common";
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
  return recordListQueries(ctx.db, CUSTOMER_LIST, ctx.companyId, { ...input, key: input.status });
}

/** The list's WHERE clause (recordListWhere), also for the tests that count its matches. */
export function customerFilter(
  companyId: string,
  input: Pick<GetCustomersQuery, "archived" | "search" | "status" | "tags">,
): SQL {
  return recordListWhere(CUSTOMER_LIST, companyId, { ...input, key: input.status });
}

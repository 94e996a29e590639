import "server-only";
import { and, eq, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, AnyPgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/lib/db/client";
import {
  SEARCH_FIELD_SEPARATOR,
  documentGrams,
  hasSearchGrams,
  searchDocument,
  searchGrams,
} from "@/lib/db/schema/columns";
import { listCountTotal, listTagCountTotal, type TagCountEntity } from "./list-counts";
import { containsPattern, renderedOnce, textArray } from "./lists/sql-fragments";
import type { SortItem } from "@/lib/schemas/common";
import {
  newestList,
  type ListOrderKey,
  type ListQueries,
  type ListQueryTotal,
  type NewestListing,
} from "./lists/newest-list";
import { phoneSearchDigits } from "@/lib/values/normalize";

/** The columns a lead or customer list filters on, each with an index of its own expression. */
type ListedRecordTable = AnyPgTable & {
  companyId: AnyPgColumn;
  id: AnyPgColumn;
  createdAt: AnyPgColumn;
  archived: AnyPgColumn;
  tags: AnyPgColumn;
  phoneNormalized: AnyPgColumn;
};

/** A lead or customer list as declared: its rows, the column it is split by, its counters, its searched fields. */
export interface RecordListSpec<T extends ListedRecordTable, R extends object> {
  /** The table and what a page selects of each row (its record's fields). */
  listing: NewestListing<R, T>;
  /** The column the list and its counters are split by: a lead's stage, a customer's status. */
  key: AnyPgColumn;
  /** The counters of the list (key1 = key) and of its tag sets (key2 = key). */
  counters: { list: "leads" | "customers"; tags: TagCountEntity };
  /** The fields a search matches, as the table's search index is built (searchDocument). */
  searchFields: readonly SQL[];
  /** The keys of each field the list sorts by, as the table's sort indexes are built (sortIndexes). */
  sortKeys: Readonly<Record<string, readonly ListOrderKey["key"][]>>;
}

/** A lead or customer list (recordList): its declaration and the SQL no request changes. */
export interface RecordList<T extends ListedRecordTable, R extends object> extends RecordListSpec<T, R> {
  search: SearchSql;
}

/**
 * A list as its requests use it, from its declaration: the parts of its search that no request
 * changes (its fields, document and grams) are rendered to their text here, once.
 */
export function recordList<T extends ListedRecordTable, R extends object>(
  spec: RecordListSpec<T, R>,
): RecordList<T, R> {
  const { table } = spec.listing;
  return {
    ...spec,
    search: {
      fields: spec.searchFields.map((field) => renderedOnce(sql`lower(${field})`)),
      document: renderedOnce(searchDocument(spec.searchFields)),
      grams: renderedOnce(documentGrams(table.companyId, spec.searchFields)),
    },
  };
}

/**
 * What a lead or customer list request filters by (`key`: its stage or status; `conditions`: the
 * list's own other filters, which the counters do not keep).
 */
export interface RecordListFilter {
  archived?: boolean;
  key?: string;
  tags?: readonly string[];
  search?: string;
  /** Further conditions, on columns the counters are not kept by: with any, the total is counted. */
  conditions?: readonly (SQL | undefined)[];
}

/**
 * The list's WHERE clause, each predicate spelled with its index's very expression (partial
 * `not archived`, key equality, GIN `tags &&`, search) so PostgreSQL can use it.
 */
export function recordListWhere<T extends ListedRecordTable, R extends object>(
  list: RecordList<T, R>,
  companyId: string,
  filter: RecordListFilter,
): SQL {
  const { table } = list.listing;
  const conditions: (SQL | undefined)[] = [eq(table.companyId, companyId)];
  if (!filter.archived) conditions.push(sql`not ${table.archived}`);
  if (filter.key) conditions.push(eq(list.key, filter.key));
  if (filter.tags && filter.tags.length > 0) conditions.push(sql`${table.tags} && ${textArray(filter.tags)}`);
  if (filter.search) conditions.push(searchCondition(list, companyId, filter.search));
  conditions.push(...(filter.conditions ?? []));
  return and(...conditions) as SQL;
}

/**
 * A search (contract section 5): the term in any field, case-insensitive, or a phone-like term's
 * digits in the normalized phone. Candidates come from the gram index, then LIKE checks them.
 */
function searchCondition<T extends ListedRecordTable, R extends object>(
  list: RecordList<T, R>,
  companyId: string,
  term: string,
): SQL {
  const searched = list.search;
  const inDocument = (text: string) => {
    const lowered = text.toLowerCase();
    const pattern = containsPattern(lowered);
    const grams = hasSearchGrams(lowered);
    // Grams' candidates are checked field by field: most match in their first field, so the rest
    // is never lowered. A term shorter than a gram reads all rows, where one document LIKE is cheaper.
    const like =
      grams || text.includes(SEARCH_FIELD_SEPARATOR)
        ? (or(...searched.fields.map((field) => sql`${field} like ${pattern}`)) as SQL)
        : sql`${searched.document} like ${pattern}`;
    if (!grams) return like;
    return and(sql`${searched.grams} @> ${searchGrams(companyId, lowered)}`, like) as SQL;
  };
  const matched = inDocument(term);
  const digits = phoneSearchDigits(term);
  if (!digits || digits === term) return matched;
  return or(
    matched,
    and(inDocument(digits), sql`${list.listing.table.phoneNormalized} like ${containsPattern(digits)}`),
  ) as SQL;
}

/** The SQL of a list's search that no request changes, each piece rendered to its text once. */
interface SearchSql {
  /** Each searched field, lower-cased: `lower(field)`. */
  fields: SQL[];
  /** The search document (searchDocument). */
  document: SQL;
  /** The grams of the row's search document, the search index's expression (documentGrams). */
  grams: SQL;
}

/**
 * A lead or customer list request's statements: its page and total. Without a search the total
 * comes from the counters; a search too short to share matches with the page counts beside it.
 */
export function recordListQueries<T extends ListedRecordTable, R extends object>(
  db: DbOrTx,
  list: RecordList<T, R>,
  companyId: string,
  request: RecordListFilter & { page: bigint; limit: number; sort?: readonly SortItem[] },
): ListQueries<R> {
  const where = recordListWhere(list, companyId, request);
  const order = request.sort?.flatMap(({ field, descending }) =>
    (list.sortKeys[field] ?? []).map((key) => ({ key, descending })),
  );
  return newestList(db, list.listing, companyId, where, { ...request, order }, () =>
    recordListTotal(db, list, companyId, request, where),
  );
}

/**
 * The request's total: kept (the list's or the tag sets' counters), or counted for a search or a
 * filter the counters do not keep.
 */
function recordListTotal<T extends ListedRecordTable, R extends object>(
  db: DbOrTx,
  list: RecordList<T, R>,
  companyId: string,
  filter: RecordListFilter,
  where: SQL,
): ListQueryTotal {
  if (filter.search || filter.conditions?.some(Boolean)) {
    return {
      counted: db
        .select({ total: sql<number>`count(*)::int` })
        .from(list.listing.table as AnyPgTable)
        .where(where),
    };
  }
  const flag = filter.archived ? undefined : false;
  const key = filter.key || undefined;
  if (filter.tags && filter.tags.length > 0) {
    return {
      kept: listTagCountTotal(db, {
        companyId,
        entity: list.counters.tags,
        flag,
        key2: key,
        tags: filter.tags,
      }),
    };
  }
  return { kept: listCountTotal(db, { companyId, entity: list.counters.list, flag, key1: key }) };
}

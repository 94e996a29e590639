import { and, eq, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, AnyPgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/lib/db/client";
import { listCountTotal, listTagCountTotal, type TagCountEntity } from "./list-counts";
import { phoneSearchDigits } from "./normalize";
import {
  containsPattern,
  newestList,
  textArray,
  type ListQueries,
  type ListQueryTotal,
} from "./record-matching";

/** The columns a lead or customer list filters on, each with an index of its own expression. */
type ListedRecordTable = AnyPgTable & {
  companyId: AnyPgColumn;
  id: AnyPgColumn;
  createdAt: AnyPgColumn;
  archived: AnyPgColumn;
  tags: AnyPgColumn;
  emailNormalized: AnyPgColumn;
  phone: AnyPgColumn;
  phoneNormalized: AnyPgColumn;
};

/** A lead or customer list: its table, the column it is split by, its counters, its name search. */
export interface RecordList<T extends ListedRecordTable> {
  table: T;
  /** The column the list and its counters are split by: a lead's stage, a customer's status. */
  key: AnyPgColumn;
  /** The counters of the list (key1 = key) and of its tag sets (key2 = key). */
  counters: { list: "leads" | "customers"; tags: TagCountEntity };
  /** The name predicates of a search, each written as its trigram index is built. */
  names: (pattern: string) => SQL[];
}

/** What a lead or customer list request filters by (`key`: its stage or status). */
export interface RecordListFilter {
  archived?: boolean;
  key?: string;
  tags?: readonly string[];
  search?: string;
}

/**
 * The list's WHERE clause. Each predicate is written with the very expression of its index
 * (lib/db/schema/leads.ts, customers.ts) so PostgreSQL can use it: `not archived` (partial
 * index), the key (`stage =`, `status =`), `tags &&` (GIN), and a search as LIKE on the names
 * (`list.names`), `email_normalized`, `lower(phone)` and, with digits in the term,
 * `phone_normalized` (trigram GIN).
 */
export function recordListWhere<T extends ListedRecordTable>(
  list: RecordList<T>,
  companyId: string,
  filter: RecordListFilter,
): SQL {
  const { table } = list;
  const conditions: (SQL | undefined)[] = [eq(table.companyId, companyId)];
  if (!filter.archived) conditions.push(sql`not ${table.archived}`);
  if (filter.key) conditions.push(eq(list.key, filter.key));
  if (filter.tags && filter.tags.length > 0) conditions.push(sql`${table.tags} && ${textArray(filter.tags)}`);
  if (filter.search) {
    const pattern = containsPattern(filter.search);
    const digits = phoneSearchDigits(filter.search);
    conditions.push(
      or(
        ...list.names(pattern),
        sql`${table.emailNormalized} like ${pattern}`,
        sql`lower(${table.phone}) like ${pattern}`,
        digits ? sql`${table.phoneNormalized} like ${containsPattern(digits)}` : undefined,
      ),
    );
  }
  return and(...conditions) as SQL;
}

/**
 * The statements of a lead or customer list request (newestList): its page, newest first, and its
 * total. Without a search the total is kept by the counters (archived and the key, or with tags
 * the tag sets'), read by the page's statement; a search too short to share its matches with the
 * page counts them beside it.
 */
export function recordListQueries<T extends ListedRecordTable>(
  db: DbOrTx,
  list: RecordList<T>,
  companyId: string,
  request: RecordListFilter & { page: number; limit: number },
): ListQueries<T["$inferSelect"]> {
  const where = recordListWhere(list, companyId, request);
  return newestList(db, list.table, companyId, where, request, () =>
    recordListTotal(db, list, companyId, request, where),
  );
}

/** The request's total: kept (the list's or the tag sets' counters), or counted for a search. */
function recordListTotal<T extends ListedRecordTable>(
  db: DbOrTx,
  list: RecordList<T>,
  companyId: string,
  filter: RecordListFilter,
  where: SQL,
): ListQueryTotal {
  if (filter.search) {
    return {
      counted: db
        .select({ total: sql<number>`count(*)::int` })
        .from(list.table as AnyPgTable)
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

import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { leads } from "@/lib/db/schema";
import { escapeLike } from "@/lib/values/normalize";

/** `%term%` for `lower(column) like …`: lower-cased, LIKE wildcards escaped (matched literally). */
export function containsPattern(term: string): string {
  return `%${escapeLike(term.toLowerCase())}%`;
}

/** `text[]` literal of the values, for the `tags && array[...]` filter. */
export function textArray(values: readonly string[]): SQL {
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
}

/**
 * The same list as one bound `text[]` parameter, where textArray binds one per value: for lists of
 * ids that can run to thousands. A text[] column's encoder writes the array on both engines.
 */
export function textArrayParam(values: readonly string[]): SQL {
  return sql`${sql.param([...values], leads.tags)}::text[]`;
}

const dialect = new PgDialect();

/**
 * Renders a parameterless fragment to text once (`sql.raw`), for the parts of list statements no
 * request changes, which would otherwise be rendered again on every request.
 */
export function renderedOnce(fragment: SQL): SQL {
  const { sql: text, params } = dialect.sqlToQuery(fragment);
  if (params.length > 0) throw new Error("renderedOnce: a fragment with parameters");
  return sql.raw(text);
}

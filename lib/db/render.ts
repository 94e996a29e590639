import {
  Column,
  getTableName,
  is,
  Name,
  Param,
  Placeholder,
  SQL,
  StringChunk,
  Subquery,
  Table,
  View,
  type SQLWrapper,
} from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

/** A statement as the driver takes it: its text, with `$1`… for its values. */
export interface RenderedStatement {
  sql: string;
  params: unknown[];
}

/**
 * A statement's text and values, exactly as Drizzle's PostgreSQL dialect renders them
 * (`dialect.sqlToQuery`), for the chunks the data layer's statements are made of: text, nested SQL,
 * tables and columns without a schema, identifiers, values and bound parameters. Undefined for
 * any other chunk (a placeholder, an alias, a subquery, inlined parameters, a schema's table…):
 * the caller then lets Drizzle render it.
 *
 * Drizzle's walk copies its configuration into a new object for every nested SQL, tells each
 * chunk's kind by its class chain and merges a result object per chunk. This walk appends to one
 * string; with queryRows sending its result to the driver, a customer list request costs 7–11% less
 * CPU in-process (bench/RESULTS.md, finding 33). render.test.ts checks it against Drizzle's on
 * every list's statements.
 *
 * The kinds are told by `instanceof`: where a process holds two copies of drizzle-orm (finding 12)
 * a chunk of the other copy is unknown here, and Drizzle renders the statement.
 */
export function renderStatement(statement: SQL): RenderedStatement | undefined {
  const rendered: RenderedStatement = { sql: "", params: [] };
  return appendChunks(rendered, statement) ? rendered : undefined;
}

function appendChunks(out: RenderedStatement, statement: SQL): boolean {
  if ((statement as unknown as { shouldInlineParams: boolean }).shouldInlineParams) return false;
  for (const chunk of statement.queryChunks as unknown[]) {
    if (chunk instanceof StringChunk) {
      out.sql += chunk.value.length === 1 ? chunk.value[0] : chunk.value.join("");
    } else if (chunk instanceof SQL) {
      if (!appendChunks(out, chunk)) return false;
    } else if (chunk instanceof Column) {
      const table = unqualifiedName(chunk.table);
      if (chunk.keyAsName || table === undefined) return false;
      out.sql += `${escapeName(table)}.${escapeName(chunk.name)}`;
    } else if (chunk instanceof Param) {
      const value: unknown = chunk.value;
      if (value !== null && typeof value === "object" && !(value instanceof Date) && !Array.isArray(value)) {
        return false; // a placeholder, or a value its encoder may turn into SQL
      }
      const mapped = value === null ? null : chunk.encoder.mapToDriverValue(value);
      if (mapped instanceof SQL) return false;
      out.params.push(mapped);
      out.sql += `$${out.params.length}`;
    } else if (chunk instanceof Name) {
      out.sql += escapeName(chunk.value);
    } else if (chunk === undefined) {
      // Drizzle renders nothing for it.
    } else if (chunk instanceof Table) {
      const table = unqualifiedName(chunk);
      if (table === undefined) return false;
      out.sql += escapeName(table);
    } else if (isPlainValue(chunk)) {
      out.params.push(chunk);
      out.sql += `$${out.params.length}`;
    } else if (isQueryBuilder(chunk)) {
      // A query builder's statement (a kept total's select), in parentheses as Drizzle puts it.
      // One of another copy of drizzle-orm (a database opened by scripts/start.ts outside the
      // server's bundle builds its selects there) gives that copy's SQL: left to Drizzle.
      const inner = chunk.getSQL();
      if (!(inner instanceof SQL)) return false;
      out.sql += "(";
      if (!appendChunks(out, inner)) return false;
      out.sql += ")";
    } else {
      return false;
    }
  }
  return true;
}

/**
 * A value Drizzle binds as a parameter as it is. An array is not: Drizzle renders it as a list,
 * `($1, $2)`, and so it is left to Drizzle.
 */
function isPlainValue(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
    case "bigint":
      return true;
    case "object":
      return value === null || value instanceof Date;
    default:
      return false;
  }
}

// Table.Symbol.Schema, which drizzle-orm's types leave out.
const TABLE_SCHEMA = Symbol.for("drizzle:Schema");

/** A table's name (its alias, for an alias), or undefined for a table in a named schema. */
function unqualifiedName(table: Table): string | undefined {
  const schema = (table as unknown as Record<symbol, string | undefined>)[TABLE_SCHEMA];
  return schema === undefined ? getTableName(table) : undefined;
}

/**
 * A chunk Drizzle renders as its `getSQL()` in parentheses: a query builder (not a placeholder,
 * an alias, a subquery or a view, which it renders otherwise; nor one that asks to go without
 * them).
 */
function isQueryBuilder(chunk: unknown): chunk is SQLWrapper {
  if (chunk === null || typeof chunk !== "object") return false;
  const wrapper = chunk as Partial<SQLWrapper> & { shouldOmitSQLParens?: unknown };
  return (
    typeof wrapper.getSQL === "function" &&
    wrapper.shouldOmitSQLParens === undefined &&
    !is(chunk, Placeholder) &&
    !is(chunk, SQL.Aliased) &&
    !is(chunk, Subquery) &&
    !is(chunk, View)
  );
}

/** Identifiers are quoted as Drizzle's PostgreSQL dialect quotes them (it keeps no state for it). */
const DIALECT = new PgDialect();
const escapeName = (name: string): string => DIALECT.escapeName(name);

import "server-only";
import { getTableColumns, type AnyColumn } from "drizzle-orm";
import type { AnyPgTable } from "drizzle-orm/pg-core";

/** The column keys of a table's Drizzle row. */
export type ColumnKey<T extends AnyPgTable> = keyof T["_"]["columns"] & keyof T["$inferSelect"] & string;

/** Columns `K` of a table as a select's fields, each under its SQL name. */
export type RecordFields<T extends AnyPgTable, K extends ColumnKey<T>> = {
  [P in K as T["_"]["columns"][P]["_"]["name"]]: T["_"]["columns"][P];
};

/** The row Drizzle reads for RecordFields: each column's value under its SQL name. */
export type RecordRow<T extends AnyPgTable, K extends ColumnKey<T> = ColumnKey<T>> = {
  [P in K as T["_"]["columns"][P]["_"]["name"]]: T["$inferSelect"][P];
};

/**
 * A resource's record columns as select fields keyed by SQL name, shared by list, get-by-id and
 * upsert so each resource has one row shape and one mapping to its API record.
 */
export function recordFields<T extends AnyPgTable, K extends ColumnKey<T>>(
  table: T,
  keys: readonly K[],
): RecordFields<T, K> {
  if (!keys.includes("id" as K)) throw new Error("recordFields: the id is one of a record's columns");
  const columns = getTableColumns(table) as Record<string, AnyColumn>;
  return Object.fromEntries(keys.map((key) => [columns[key]!.name, columns[key]!])) as RecordFields<T, K>;
}

/** `[latitude, longitude]` when both are known. */
export function toLocation(latitude: number | null, longitude: number | null): [number, number] | null {
  return latitude == null || longitude == null ? null : [latitude, longitude];
}

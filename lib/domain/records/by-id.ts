import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { AnyPgColumn, AnyPgTable, PgTable, SelectedFieldsFlat } from "drizzle-orm/pg-core";
import type { Db } from "@/lib/db/client";

type RecordTable = AnyPgTable & { companyId: AnyPgColumn; id: AnyPgColumn };

/**
 * One tenant record by id, or undefined, as a named prepared statement so PostgreSQL plans it
 * once per connection.
 */
export function recordById<R>(
  table: RecordTable,
  fields: SelectedFieldsFlat,
  name: string,
): (db: Db, companyId: string, id: string) => Promise<R | undefined> {
  const prepared = new WeakMap<Db, { execute(values: Record<string, unknown>): Promise<unknown[]> }>();
  const prepare = (db: Db) =>
    db
      .select(fields)
      .from(table as PgTable)
      .where(and(eq(table.companyId, sql.placeholder("companyId")), eq(table.id, sql.placeholder("id"))))
      .prepare(name);
  return async (db, companyId, id) => {
    let statement = prepared.get(db);
    if (!statement) {
      statement = prepare(db);
      prepared.set(db, statement);
    }
    const [row] = await statement.execute({ companyId, id });
    return row as R | undefined;
  };
}

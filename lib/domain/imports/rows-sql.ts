import "server-only";
import { getTableColumns, getTableName, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { arrayLiteral } from "@/lib/db/array-literal";

// Many rows in one statement as one array parameter per column (`unnest`): a batch of thousands
// of rows stays far from PostgreSQL's 65,535 bind parameters, whatever the number of columns.

/**
 * `select … from unnest(…) as u(c0, c1, …)`: the rows' values of these column keys, each cast to
 * its column's type (an array column travels as text and is cast per row).
 */
export function unnestRows(
  table: PgTable,
  keys: readonly string[],
  rows: readonly Record<string, unknown>[],
): SQL {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const params: SQL[] = [];
  const selected: SQL[] = [];
  keys.forEach((key, i) => {
    const type = columns[key]!.getSQLType();
    const literal = arrayLiteral(rows.map((row) => row[key]));
    if (type.endsWith("[]")) {
      params.push(sql`${literal}::text[]`);
      selected.push(sql.raw(`u.c${i}::${type}`));
    } else {
      params.push(sql`${literal}::${sql.raw(type)}[]`);
      selected.push(sql.raw(`u.c${i}`));
    }
  });
  const names = keys.map((_, i) => `c${i}`).join(", ");
  return sql`select ${sql.join(selected, sql`, `)} from unnest(${sql.join(params, sql`, `)}) as u(${sql.raw(names)})`;
}

/** `insert into table (columns) select … from unnest(…)`: one statement for all the rows. */
export function insertRowsSql(
  table: PgTable,
  keys: readonly string[],
  rows: readonly Record<string, unknown>[],
) {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const names = keys.map((key) => sql.identifier(columns[key]!.name));
  return sql`insert into ${sql.identifier(getTableName(table))} (${sql.join(names, sql`, `)})
    ${unnestRows(table, keys, rows)}`;
}

/**
 * `update table set … from (unnest) where company_id and id match`: each row's columns replaced by
 * its values (`keys` must start with the id).
 */
export function updateRowsSql(
  table: PgTable,
  companyId: string,
  keys: readonly string[],
  rows: readonly Record<string, unknown>[],
): SQL {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  if (keys[0] !== "id") throw new Error("updateRowsSql: the first key is the id");
  const tableName = sql.identifier(getTableName(table));
  const assignments = keys
    .slice(1)
    .map((key) => sql`${sql.identifier(columns[key]!.name)} = v.${sql.identifier(columns[key]!.name)}`);
  const valueNames = keys.map((key) => sql.identifier(columns[key]!.name));
  return sql`update ${tableName} as t set ${sql.join(assignments, sql`, `)}
    from (${unnestRows(table, keys, rows)}) as v(${sql.join(valueNames, sql`, `)})
    where t."company_id" = ${companyId} and t."id" = v."id"`;
}

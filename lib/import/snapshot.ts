import "server-only";
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { type DbOrTx } from "@/lib/db/client";

/** The tables an import writes, each with the columns that order its rows. */
export const IMPORTED_TABLES = [
  "companies",
  "users",
  "api_keys",
  "pin_types",
  "pins",
  "pin_visits",
  "customers",
  "leads",
  "service_plans",
  "jobs",
  "job_visits",
  "job_crew",
  "job_line_items",
  "job_payments",
] as const;

export type TableSnapshot = Record<(typeof IMPORTED_TABLES)[number], Record<string, unknown>[]>;

/**
 * Every row of the imported tables as JSON-comparable values, for the idempotency checks. `omit`
 * leaves out columns expected to differ (salted password hashes).
 */
export async function snapshotTables(
  db: DbOrTx,
  options: { companyIds?: string[]; omit?: string[] } = {},
): Promise<TableSnapshot> {
  const out = {} as TableSnapshot;
  for (const table of IMPORTED_TABLES) {
    const companyColumn = table === "companies" ? "id" : "company_id";
    const where = options.companyIds
      ? sql`where ${sql.identifier(companyColumn)} in (${sql.join(
          options.companyIds.map((id) => sql`${id}`),
          sql`, `,
        )})`
      : sql``;
    // A visit's id is drawn from a sequence: its pin and time say which visit it is.
    const visits = table === "pin_visits";
    const order = visits ? sql`t.pin_id, t.at, t.user_id, t.pin_type_id` : sql`t.id`;
    const rows = (
      await db.execute(
        sql`select row_to_json(t)::text as row from ${sql.identifier(table)} t ${where} order by ${sql.identifier(companyColumn)}, ${order}`,
      )
    ).rows;
    out[table] = rows.map((r) => {
      const row = JSON.parse(String(r.row)) as Record<string, unknown>;
      if (visits) delete row.id;
      for (const column of options.omit ?? []) delete row[column];
      return row;
    });
  }
  return out;
}

/** SHA-256 of a snapshot: equal hashes, equal contents. */
export function snapshotHash(snapshot: TableSnapshot): string {
  return createHash("sha256").update(JSON.stringify(snapshot)).digest("hex");
}

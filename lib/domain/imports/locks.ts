import "server-only";
import { sql, type SQL } from "drizzle-orm";
import pg from "pg";
import type { DbOrTx } from "@/lib/db/client";

/**
 * The company's import lock: a run holds it (exclusive, for its transaction); a create-or-update
 * of an identity a running import claimed waits for it (shared). One key for both.
 */
export function importLockKey(companyId: string): SQL {
  return sql`hashtextextended(${`import:${companyId}`}, 0)`;
}

/**
 * Whether the database is one connection (the embedded engine): a statement outside a running
 * transaction would wait for it, so the run writes nothing beside its transaction.
 */
export function sharesOneConnection(db: DbOrTx): boolean {
  const client = (db as unknown as { $client?: unknown }).$client;
  return !(client instanceof pg.Pool);
}

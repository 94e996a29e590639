import { sql } from "drizzle-orm";
import { type Db, type DbOrTx } from "@/lib/db/client";
import { importDocument, type ImportOptions, type ImportResult } from "@/lib/import";
import { buildDemoDocument } from "./build-demo-document";

export { buildDemoDocument } from "./build-demo-document";
export * from "./demo";

/**
 * Loads the demo data through the importer: the same document every time, upserted by id, so
 * seeding twice changes nothing.
 */
export function seedDemoData(db: Db, options: ImportOptions = {}): Promise<ImportResult> {
  return importDocument(db, buildDemoDocument(), options);
}

/** True when the database holds no company yet (a fresh database that `npm run dev` seeds). */
export async function isDatabaseEmpty(db: DbOrTx): Promise<boolean> {
  const rows = (await db.execute<{ found: boolean }>(sql`select exists (select 1 from companies) as found`))
    .rows;
  return !rows[0]?.found;
}

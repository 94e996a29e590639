import { sql } from "drizzle-orm";
import { type Db, type DbOrTx } from "@/lib/db/client";
import { importDocument, type ImportOptions, type ImportResult } from "@/lib/import";
import { lostReasons } from "@/lib/db/schema";
import { DEFAULT_LOST_REASONS } from "@/lib/schemas/lost-reasons";
import { buildDemoDocument } from "./build-demo-document";
import { DEMO_COMPANIES } from "./demo";

export { buildDemoDocument } from "./build-demo-document";
export * from "./demo";

/**
 * Loads the demo data through the importer: the same document every time, upserted by id, so
 * seeding twice changes nothing.
 */
export async function seedDemoData(db: Db, options: ImportOptions = {}): Promise<ImportResult> {
  const result = await importDocument(db, buildDemoDocument(), options);
  await seedLostReasons(db);
  return result;
}

/**
 * Each demo company's lost reasons (the import format has no section for them), with fixed ids so
 * a second seed adds nothing.
 */
async function seedLostReasons(db: Db): Promise<void> {
  const rows = Object.values(DEMO_COMPANIES).flatMap((company) =>
    DEFAULT_LOST_REASONS.map((label, position) => ({
      companyId: company.id,
      id: `lr_demo_${position + 1}`,
      label,
      position,
    })),
  );
  await db.insert(lostReasons).values(rows).onConflictDoNothing();
}

/** True when the database holds no company yet (a fresh database that `npm run dev` seeds). */
export async function isDatabaseEmpty(db: DbOrTx): Promise<boolean> {
  const rows = (await db.execute<{ found: boolean }>(sql`select exists (select 1 from companies) as found`))
    .rows;
  return !rows[0]?.found;
}

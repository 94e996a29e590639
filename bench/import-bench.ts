import type { Db } from "@/lib/db/client";
import { importDocument } from "@/lib/import";
import type { RawDb } from "./db";
import { ANCHOR_MS, SPAN_MS } from "./data/sql";
import { FIRST_NAMES, LAST_NAMES, LEAD_STAGES, LEAD_TAGS } from "./data/vocabulary";
import { Progress } from "./progress";
import type { ImportMeasure } from "./report";

/** A tenant of its own, removed after the measurement: the cases never see it. */
export const IMPORT_COMPANY_ID = "co_bench_import";

const at = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

/** The import document: one company, ten sales reps and `count` leads with every field the import takes. */
export function importDocumentOf(count: number): Record<string, unknown> {
  const users = Array.from({ length: 10 }, (_, i) => ({
    id: `usr_bench_import_${i}`,
    company_id: IMPORT_COMPANY_ID,
    name: `Import Rep ${i}`,
    email: `import.rep${i}@bench.example`,
    role: "sales_rep",
  }));
  const stages = LEAD_STAGES.map(([stage]) => stage);
  const step = SPAN_MS / count;
  const leads = new Array<Record<string, unknown>>(count);
  for (let i = 0; i < count; i++) {
    const first = at(FIRST_NAMES, i * 7);
    const last = at(LAST_NAMES, i * 13);
    const line = String(i % 10_000).padStart(4, "0");
    leads[i] = {
      id: `lead_imp${String(i).padStart(22, "0")}`,
      company_id: IMPORT_COMPANY_ID,
      name: `${first} ${last}`,
      email: `${first.toLowerCase()}.${last.toLowerCase()}${i}@example.com`,
      phone: `(512) ${200 + (Math.floor(i / 10_000) % 800)}-${line}`,
      property_street1: `${1 + (i % 9899)} Oak St`,
      property_city: "Austin",
      property_state: "TX",
      property_zip: "78701",
      property_country: "US",
      priority: at(["low", "medium", "high"], i),
      projected_value: 100 + (i % 5000),
      service_type: "General Pest",
      lead_source: "Website",
      stage: at(stages, i),
      tags: i % 3 === 0 ? [at(LEAD_TAGS, i)[0]] : [],
      assigned_to: at(users, i).id,
      archived: i % 20 === 0,
      created_at: new Date(ANCHOR_MS - SPAN_MS + Math.floor(i * step)).toISOString(),
      location: [30.27 + (i % 100) / 1000, -97.74 - (i % 100) / 1000],
    };
  }
  return { companies: [{ id: IMPORT_COMPANY_ID, name: "Bench import tenant" }], users, leads };
}

async function removeImportTenant(raw: RawDb): Promise<void> {
  for (const table of ["leads", "users"])
    await raw.query(`delete from ${table} where company_id = $1`, [IMPORT_COMPANY_ID]);
  await raw.query(`delete from companies where id = $1`, [IMPORT_COMPANY_ID]);
}

/**
 * Imports `count` leads into a fresh tenant through importDocument (h1's lib/import: validation,
 * checks against the database, one transaction) and times it; then removes the tenant.
 */
export async function measureImport(db: Db, raw: RawDb, count: number): Promise<ImportMeasure> {
  await removeImportTenant(raw);
  const document = importDocumentOf(count);
  const progress = new Progress("import", count + 11);
  const started = performance.now();
  let last = 0;
  await importDocument(db, document, {
    onProgress: ({ done }) => {
      progress.tick(done - last, "importDocument");
      last = done;
    },
  });
  const seconds = (performance.now() - started) / 1000;
  progress.finish("imported");
  const [row] = await raw.query<{ n: number }>(`select count(*)::int as n from leads where company_id = $1`, [
    IMPORT_COMPANY_ID,
  ]);
  await removeImportTenant(raw);
  // A million dead rows would leave leads and its indexes twice their size, so rewrite them; a plain
  // VACUUM after VACUUM FULL refills the visibility map for index-only scans.
  for (const table of ["leads", "users"]) {
    await raw.query(`vacuum (full) ${table}`);
    await raw.query(`vacuum (analyze) ${table}`);
  }
  return {
    leads: row?.n ?? 0,
    seconds: Math.round(seconds * 10) / 10,
    rowsPerSecond: count / seconds,
  };
}

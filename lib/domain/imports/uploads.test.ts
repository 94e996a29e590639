import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { importRows, imports } from "@/lib/db/schema";
import { createCompany } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { createImport, deleteImport } from "./uploads";

const database = setupTestDatabase();

const csv = (names: number) => ["Name", ...Array.from({ length: names }, (_, i) => `Lead ${i}`)].join("\n");

async function upload(companyId: string, text: string) {
  return createImport(database.db, {
    companyId,
    type: "leads",
    fileName: "leads.csv",
    source: (async function* () {
      yield new TextEncoder().encode(text);
    })(),
    createdBy: null,
  });
}

async function stagedRows(companyId: string, importId: string): Promise<number> {
  const [row] = await database.db
    .select({ n: count() })
    .from(importRows)
    .where(and(eq(importRows.companyId, companyId), eq(importRows.importId, importId)));
  return row?.n ?? 0;
}

describe(`removing an upload (${testEngine()})`, () => {
  it("removes every staged row of a file larger than one delete, and nothing of another", async () => {
    const company = await createCompany(database.db);
    const big = await upload(company.id, csv(45_001));
    const small = await upload(company.id, csv(3));
    expect(await stagedRows(company.id, big.id)).toBe(45_001);

    await deleteImport(database.db, company.id, big.id);
    expect(await stagedRows(company.id, big.id)).toBe(0);
    const left = await database.db
      .select({ id: imports.id })
      .from(imports)
      .where(eq(imports.companyId, company.id));
    expect(left.map((i) => i.id)).toEqual([small.id]);
    expect(await stagedRows(company.id, small.id)).toBe(3);
  });
});

import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { importRows, imports, leads } from "@/lib/db/schema";
import { startWebhookWorker } from "@/lib/domain/webhooks/worker";
import { createCompany, testKeyPrincipal } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { startDryRun, startImport } from "./imports";
import { pruneImportRows } from "./job";
import { createImport } from "./uploads";

const database = setupTestDatabase();

async function statusOf(companyId: string, id: string) {
  const [row] = await database.db
    .select({ status: imports.status })
    .from(imports)
    .where(and(eq(imports.companyId, companyId), eq(imports.id, id)));
  return row?.status;
}

async function waitForStatus(companyId: string, id: string, status: string) {
  const until = Date.now() + 30_000;
  while ((await statusOf(companyId, id)) !== status) {
    if (Date.now() > until)
      throw new Error(`import ${id} is ${await statusOf(companyId, id)}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe(`the import-run queue on the worker (${testEngine()})`, () => {
  it("runs a queued dry run, then the import, in the webhook worker", async () => {
    const company = await createCompany(database.db);
    const ctx = { db: database.db, companyId: company.id, principal: testKeyPrincipal(company.id) };
    const uploaded = await createImport(database.db, {
      companyId: company.id,
      type: "leads",
      fileName: "w.csv",
      source: (async function* () {
        yield new TextEncoder().encode("Name,Phone\nAnn,555-111-0001\nBob,555-111-0002\n");
      })(),
      createdBy: null,
    });
    const worker = await startWebhookWorker(database, {
      allowAddress: () => true,
      pollingIntervalSeconds: 0.5,
    });
    try {
      await startDryRun(ctx, uploaded.id, ["name", "phone"]);
      await waitForStatus(company.id, uploaded.id, "checked");
      await startImport(ctx, uploaded.id);
      await waitForStatus(company.id, uploaded.id, "done");
    } finally {
      await worker.stop();
    }
    const stored = await database.db
      .select({ name: leads.name })
      .from(leads)
      .where(eq(leads.companyId, company.id));
    expect(stored.map((l) => l.name).sort()).toEqual(["Ann", "Bob"]);
  });

  it("prunes the staged rows of imports that ended over 7 days ago, keeping their history", async () => {
    const company = await createCompany(database.db);
    const now = new Date();
    const days = (n: number) => new Date(now.getTime() - n * 86_400_000);
    for (const [id, status, updatedAt] of [
      ["imp_old_done", "done", days(8)],
      ["imp_new_done", "done", days(6)],
      ["imp_old_uploaded", "uploaded", days(30)],
    ] as const) {
      await database.db.insert(imports).values({
        companyId: company.id,
        id,
        type: "leads",
        fileName: "p.csv",
        status,
        encoding: "utf-8",
        delimiter: ",",
        headers: ["Name"],
        mapping: ["name"],
        updatedAt,
      });
      await database.db
        .insert(importRows)
        .values([2, 3].map((row) => ({ companyId: company.id, importId: id, row, values: ["x"] })));
    }
    expect(await pruneImportRows(database.db, now)).toBeGreaterThanOrEqual(2);
    const left = await database.db
      .select({ importId: importRows.importId })
      .from(importRows)
      .where(eq(importRows.companyId, company.id));
    expect([...new Set(left.map((r) => r.importId))].sort()).toEqual(["imp_new_done", "imp_old_uploaded"]);
    expect(await statusOf(company.id, "imp_old_done")).toBe("done");
  });
});

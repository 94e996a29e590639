import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { importClaims, imports, leads } from "@/lib/db/schema";
import { upsertLead } from "@/lib/domain/leads/upsert-lead";
import { ID_PREFIX, newId } from "@/lib/ids";
import { POST as upsertLeadRoute } from "@/app/api/leads/route";
import { apiRequest, call, createApiKey, createCompany, testKeyPrincipal } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { importLockKey } from "./locks";

const database = setupTestDatabase();

/** A running import's transaction holding the company's import lock until `release` ends it. */
async function holdImportLock(companyId: string): Promise<() => Promise<void>> {
  let locked!: () => void;
  const ready = new Promise<void>((resolve) => (locked = resolve));
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const run = database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${importLockKey(companyId)})`);
    locked();
    await ended;
  });
  await ready;
  return async () => {
    end();
    await run;
  };
}

/** A running import of leads that claimed this phone (its identity claims committed). */
async function importClaimingPhone(companyId: string, phone: string): Promise<string> {
  const importId = newId(ID_PREFIX.import);
  await database.db.insert(imports).values({
    companyId,
    id: importId,
    type: "leads",
    fileName: "leads.csv",
    status: "importing",
    encoding: "utf-8",
    delimiter: ",",
    headers: ["Phone"],
    mapping: ["phone"],
  });
  await database.db
    .insert(importClaims)
    .values({ companyId, recordType: "leads", kind: "phone", value: phone, importId });
  return importId;
}

describe(`identity claims of a running import (${testEngine()})`, () => {
  it("makes a create-or-update of a claimed phone wait for the import, then update its record", async () => {
    const company = await createCompany(database.db);
    const companyId = company.id;
    await importClaimingPhone(companyId, "5550001234");
    const importedId = newId(ID_PREFIX.lead);
    const ctx = { db: database.db, companyId, principal: testKeyPrincipal(companyId) };
    const call = () => upsertLead({ ctx, input: { name: "From the API", phone: "555-000-1234" } });

    let answer: Awaited<ReturnType<typeof call>>;
    if (testEngine() === "postgres") {
      // The import's transaction holds the lock and has inserted the record, not committed yet.
      let inserted!: () => void;
      const ready = new Promise<void>((resolve) => (inserted = resolve));
      let apiDone = false;
      const run = database.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${importLockKey(companyId)})`);
        await tx.insert(leads).values({
          companyId,
          id: importedId,
          name: "Imported",
          phone: "5550001234",
          phoneNormalized: "5550001234",
        });
        inserted();
        await new Promise((resolve) => setTimeout(resolve, 500));
        // The API call is still waiting for the import.
        expect(apiDone).toBe(false);
      });
      await ready;
      const api = call().then((result) => {
        apiDone = true;
        return result;
      });
      await run;
      answer = await api;
    } else {
      // One connection: a call cannot run beside the import's transaction; after it, it matches.
      await database.db.insert(leads).values({
        companyId,
        id: importedId,
        name: "Imported",
        phone: "5550001234",
        phoneNormalized: "5550001234",
      });
      answer = await call();
    }
    expect(answer.created).toBe(false);
    expect(answer.lead).toMatchObject({ id: importedId, name: "From the API", matched_on: "phone" });
    const stored = await database.db
      .select({ id: leads.id })
      .from(leads)
      .where(eq(leads.companyId, companyId));
    expect(stored).toEqual([{ id: importedId }]);
  });

  it("leaves an identity nobody claimed alone: no wait while the company's import runs", async () => {
    const company = await createCompany(database.db);
    const companyId = company.id;
    const ctx = { db: database.db, companyId, principal: testKeyPrincipal(companyId) };
    if (testEngine() === "postgres") {
      const release = await holdImportLock(companyId);
      const answer = await upsertLead({ ctx, input: { name: "Free", phone: "555-000-9999" } });
      expect(answer.created).toBe(true);
      await release();
    } else {
      const answer = await upsertLead({ ctx, input: { name: "Free", phone: "555-000-9999" } });
      expect(answer.created).toBe(true);
    }
  });
});

describe.runIf(testEngine() === "postgres")("a call that waits out its time for an import (postgres)", () => {
  it("answers 409 IMPORT_IN_PROGRESS naming the import, not 503, and writes nothing", async () => {
    const company = await createCompany(database.db);
    const companyId = company.id;
    const { key } = await createApiKey(database.db, companyId);
    const importId = await importClaimingPhone(companyId, "5550004321");
    // The import's transaction holds its lock for longer than a request may wait.
    const release = await holdImportLock(companyId);
    try {
      const res = await call<{ error_code: string; message: string }>(
        upsertLeadRoute,
        apiRequest("/leads", { key, method: "POST", body: { name: "Waits", phone: "555-000-4321" } }),
      );
      expect(res.status, res.text).toBe(409);
      expect(res.body.error_code).toBe("IMPORT_IN_PROGRESS");
      expect(res.body.message).toContain(importId);
    } finally {
      await release();
    }
    const stored = await database.db
      .select({ id: leads.id })
      .from(leads)
      .where(eq(leads.companyId, companyId));
    expect(stored).toEqual([]);
  });
});

import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { leads } from "@/lib/db/schema";
import { getLeadOrThrow } from "@/lib/domain/leads";
import { ID_PREFIX, newId } from "@/lib/ids";
import { createCompany } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

/** The lead's notes by a raw statement on `db`, with a timestamp and an array read alike on both engines. */
async function readLead(db: DbOrTx, id: string) {
  const { rows } = await db.execute<{ notes: string | null; created_at: string; tags: string[] }>(
    sql`select ${leads.notes} as notes, ${leads.createdAt} as created_at, ${leads.tags} as tags
      from ${leads} where ${leads.id} = ${id}`,
  );
  return rows[0];
}

describe(`statements through Drizzle's execute (${testEngine()})`, () => {
  it("run alike outside and inside a transaction, where they see its writes and nothing after a rollback", async () => {
    const company = await createCompany(database.db);
    const id = newId(ID_PREFIX.lead);
    const createdAt = new Date("2026-05-01T12:34:56.789Z");
    await database.db
      .insert(leads)
      .values({ companyId: company.id, id, name: "Tx", notes: "before", tags: ["a", "b"], createdAt });

    const outside = await readLead(database.db, id);
    // Rows as Drizzle's sessions read them: a timestamp as the driver's text, an array as an array.
    expect(typeof outside?.created_at).toBe("string");
    expect(new Date(outside!.created_at).toISOString()).toBe(createdAt.toISOString());
    expect(outside).toMatchObject({ notes: "before", tags: ["a", "b"] });

    const rolledBack = new Error("roll back");
    await expect(
      database.db.transaction(async (tx) => {
        await tx.update(leads).set({ notes: "inside" }).where(eq(leads.id, id));
        // The transaction's own statement sees its uncommitted write; the database outside does not.
        expect(await readLead(tx, id)).toEqual({ ...outside, notes: "inside" });
        if (database.engine === "postgres") expect((await readLead(database.db, id))?.notes).toBe("before");
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await readLead(database.db, id)).toEqual(outside);
  });

  it("serve get by id from one prepared statement per database, for its tenant only", async () => {
    const company = await createCompany(database.db);
    const id = newId(ID_PREFIX.lead);
    await database.db.insert(leads).values({ companyId: company.id, id, name: "Prepared", tags: ["x"] });
    const ctx = { db: database.db, companyId: company.id };
    const first = await getLeadOrThrow({ ctx, input: { id } });
    expect(first).toMatchObject({ id, name: "Prepared", tags: ["x"] });
    expect(await getLeadOrThrow({ ctx, input: { id } })).toEqual(first);
    await expect(getLeadOrThrow({ ctx: { ...ctx, companyId: "co_other" }, input: { id } })).rejects.toThrow(
      "Lead not found",
    );
  });
});

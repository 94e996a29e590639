import { randomInt } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as upsertCustomer } from "@/app/api/customers/route";
import { POST as upsertLead } from "@/app/api/leads/route";
import { apiRequest, call, createTenant } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

/*
 * Issue #7.3, contract section 6: 50 parallel create-or-updates of one new phone or email make one record
 * (one 201) and lose no update. Truly parallel on PostgreSQL; PGlite interleaves between statements.
 */

const database = setupTestDatabase();

const N = 50;

function phoneFormats(digits: string): string[] {
  const [a, b, c] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
  return [`(${a}) ${b}-${c}`, `${a}.${b}.${c}`, `+1 ${a} ${b} ${c}`, `1${digits}`, digits, `${a}-${b}-${c}`];
}

function mixedCase(email: string, i: number): string {
  return [...email].map((ch, j) => ((i >> (j % 6)) & 1 ? ch.toUpperCase() : ch)).join("");
}

const resources = [
  {
    name: "leads",
    handler: upsertLead,
    table: "leads",
    body: (i: number) => ({ name: `Parallel ${i}`, tags: [`t${i}`] }),
    created: "Lead created",
  },
  {
    name: "customers",
    handler: upsertCustomer,
    table: "customers",
    body: (i: number) => ({ first_name: `Parallel ${i}`, tags: [`t${i}`] }),
    created: "Customer created",
  },
] as const;

describe(`parallel create-or-update (${testEngine()})`, () => {
  for (const resource of resources) {
    it(`${N} parallel calls with one new phone in many formats make one ${resource.name} record`, async () => {
      const { companyId, key } = await createTenant(database.db);
      const digits = `3${randomInt(10 ** 8, 10 ** 9)}`;
      const formats = phoneFormats(digits);
      const results = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          call(
            resource.handler,
            apiRequest(`/${resource.name}`, {
              key,
              body: { ...resource.body(i), phone: formats[i % formats.length] },
            }),
          ),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 200)).toHaveLength(N - 1);
      const ids = new Set(results.map((r) => r.body.id));
      expect(ids.size).toBe(1);

      const rows = (
        await database.db.execute<{ id: string; tags: string[] }>(
          sql`select id, tags from ${sql.identifier(resource.table)} where company_id = ${companyId}`,
        )
      ).rows;
      expect(rows).toHaveLength(1);
      expect(rows[0]!.id).toBe([...ids][0]);
      // Every call's tag is there: no update overwrote another's.
      expect([...rows[0]!.tags].sort()).toEqual(Array.from({ length: N }, (_, i) => `t${i}`).sort());
    });

    it(`${N} parallel calls with one new email in different cases make one ${resource.name} record`, async () => {
      const { companyId, key } = await createTenant(database.db);
      const email = `parallel.${randomInt(10 ** 9)}@example.test`;
      const results = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          call(
            resource.handler,
            apiRequest(`/${resource.name}`, {
              key,
              body: {
                ...resource.body(i),
                email: i % 7 === 0 ? ` ${mixedCase(email, i)} ` : mixedCase(email, i),
              },
            }),
          ),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 200)).toHaveLength(N - 1);
      expect(results.find((r) => r.status === 201)?.body.message).toBe(resource.created);

      const rows = (
        await database.db.execute<{ email_normalized: string; tags: string[] }>(
          sql`select email_normalized, tags from ${sql.identifier(resource.table)} where company_id = ${companyId}`,
        )
      ).rows;
      expect(rows).toHaveLength(1);
      expect(rows[0]!.email_normalized).toBe(email);
      expect(rows[0]!.tags).toHaveLength(N);
    });
  }

  it("parallel calls for different new phones each make their own record", async () => {
    const { companyId, key } = await createTenant(database.db);
    const phones = Array.from({ length: 20 }, (_, i) => `4${String(randomInt(10 ** 7, 10 ** 8))}${i % 10}`);
    const results = await Promise.all(
      phones.flatMap((phone) =>
        [0, 1].map((copy) =>
          call(upsertLead, apiRequest("/leads", { key, body: { name: `P${copy}`, phone } })),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(phones.length);
    const [row] = (
      await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from leads where company_id = ${companyId}`,
      )
    ).rows;
    expect(Number(row!.n)).toBe(phones.length);
  });
});

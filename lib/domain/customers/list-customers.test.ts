import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, type Database } from "@/lib/db/client";
import { customers } from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import { getCustomersQuerySchema } from "@/lib/schemas/customers";
import { createCompany } from "@/lib/testing/factories";
import { createTestDatabase, testEngine } from "@/lib/testing/test-database";
import { customerListQueries } from "./list-customers";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/**
 * With sequential scans priced out, a plan that still holds a Seq Scan means no index fits the
 * predicate (e.g. an expression spelled differently from its index), and a Sort under the page
 * means the order does not match the created_at indexes. Either would be slow on a large tenant.
 */
describe(`customer list plans (${testEngine()})`, () => {
  it("serves every filter from its index, and the default orders without a sort", async () => {
    const company = await createCompany(database.db);
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      companyId: company.id,
      id: newId(ID_PREFIX.customer),
      firstName: `First${i}`,
      lastName: `Last${i}`,
      companyName: i % 4 === 0 ? `Firm ${i}` : null,
      email: `c${i}@example.com`,
      emailNormalized: `c${i}@example.com`,
      phone: `555-${String(i).padStart(4, "0")}`,
      phoneNormalized: `555${String(i).padStart(4, "0")}`,
      status: i % 5 === 0 ? ("inactive" as const) : ("active" as const),
      tags: i % 50 === 0 ? ["pool"] : ["lawn"],
      archived: i % 10 === 0,
      createdAt: new Date(Date.now() - i * 60_000),
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await database.db.insert(customers).values(rows.slice(i, i + 500));
    }
    // Vacuumed, as autovacuum keeps a table: its visibility map lets a deep page skip rows by index alone.
    await database.db.execute(sql`vacuum (analyze) customers`);

    const plansFor = (query: Record<string, string>) =>
      database.db.transaction(async (tx) => {
        // No sequential scans, and rows priced high so the most selective index wins on this
        // small table as it would on a large one.
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local cpu_tuple_cost = 1`);
        await tx.execute(sql`set local cpu_index_tuple_cost = 1`);
        const { page, count } = customerListQueries(
          { db: tx as unknown as Database["db"], companyId: company.id },
          getCustomersQuerySchema.parse(query),
        );
        const explain = async (q: { getSQL(): ReturnType<typeof sql> }) =>
          (await queryRows<{ "QUERY PLAN": string }>(tx, sql`explain ${q.getSQL()}`))
            .map((r) => r["QUERY PLAN"])
            .join("\n");
        return { page: await explain(page), count: await explain(count) };
      });

    const search = [
      "customers_full_name_trgm_idx",
      "customers_company_name_trgm_idx",
      "customers_email_trgm_idx",
      "customers_phone_trgm_idx",
    ];
    const cases: [
      Record<string, string>,
      { page?: string; count?: string[]; sorted?: true; deferred?: true },
    ][] = [
      // A deep page (2,000 rows skipped): the ids from the index alone, then the rows by key.
      [
        { page: "21", limit: "100" },
        {
          page: "Index Only Scan using customers_active_created_idx",
          count: ["list_counts_entity_idx"],
          deferred: true,
        },
      ],
      [{}, { page: "customers_active_created_idx", count: ["list_counts_entity_idx"] }],
      [{ archived: "true" }, { page: "customers_created_idx", count: ["list_counts_entity_idx"] }],
      [
        { status: "inactive" },
        { page: "customers_active_status_created_idx", count: ["list_counts_entity_idx"] },
      ],
      [
        { status: "inactive", archived: "true" },
        { page: "customers_status_created_idx", count: ["list_counts_entity_idx"] },
      ],
      // Tags: the total from the tag sets' counters (with a search, count(*) of the matches).
      [{ tags: "pool" }, { count: ["list_counts_entity_idx"], sorted: true }],
      [
        { tags: "pool", archived: "true" },
        { count: ["list_counts_entity_idx"], sorted: true },
      ],
      [{ search: "first2345 last" }, { count: search, sorted: true }],
      [{ search: "555-2345" }, { count: [...search, "customers_phone_digits_trgm_idx"], sorted: true }],
    ];
    for (const [query, expected] of cases) {
      const name = JSON.stringify(query);
      const plans = await plansFor(query);
      expect(plans.page, name).not.toContain("Seq Scan");
      expect(plans.count, name).not.toContain("Seq Scan");
      if (expected.page) expect(plans.page, name).toContain(expected.page);
      if (expected.deferred) {
        expect(plans.page, name).toContain("customers_company_id_id_pk");
        // The skipped rows come in index order, unsorted: the page's limit reads the scan itself
        // (the page's own rows may be sorted again, by key and for the answer: 100 rows).
        expect(plans.page, name).toMatch(
          /Limit[^\n]*\n\s*->\s+Index Only Scan using customers_active_created_idx/,
        );
      } else if (!expected.sorted) expect(plans.page, name).not.toMatch(/\bSort\b/);
      for (const index of expected.count ?? []) expect(plans.count, name).toContain(index);
    }
  });
});

import { sql } from "drizzle-orm";
import { describe, it } from "vitest";
import { customers } from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import { CUSTOMER_SORT_FIELDS, getCustomersQuerySchema } from "@/lib/schemas/customers";
import { createCompany } from "@/lib/testing/factories";
import { expectListPlans, type ListPlanExpectation } from "@/lib/testing/list-plans";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { customerListQueries } from "./list-customers";

const database = setupTestDatabase();

/** Every filter's page and count served by its index, on a test-sized table (expectListPlans). */
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

    const search = "customers_search_grams_idx";
    const cases: [Record<string, string>, ListPlanExpectation][] = [
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
      // A gram term reads page and total in one statement with one index scan; a phone's digits
      // other than the term take a second scan; digits alone are the term.
      [{ search: "first2345 last" }, { count: [search], sorted: true }],
      [{ search: "555-2345" }, { count: [search, search], sorted: true }],
      [{ search: "2345" }, { count: [search], sorted: true }],
      // A term under a gram: no index holds it; the page walks the created_at index until it is
      // full, and a count(*) runs beside it.
      [{ search: "23" }, { page: "customers_active_created_idx" }],
      // Each sort order (extensions.md E2) from its own index, unsorted, deep pages too (the name's
      // expressions without their columns in the index: its deep page reads the rows it skips).
      ...CUSTOMER_SORT_FIELDS.flatMap((field) =>
        [field, `-${field}`].flatMap((sort): [Record<string, string>, ListPlanExpectation][] => {
          const index =
            sort === "-created_at"
              ? "customers_active_created_idx"
              : `customers_active_${field}_${sort === field ? "asc" : "desc"}_idx`;
          const deep = { sort, page: "21", limit: "100" };
          return [
            [{ sort }, { page: index, count: ["list_counts_entity_idx"] }],
            field === "name"
              ? [deep, { page: `Index Scan using ${index}`, count: ["list_counts_entity_idx"], sorted: true }]
              : [deep, { page: index, count: ["list_counts_entity_idx"], deferred: index }],
          ];
        }),
      ),
    ];
    await expectListPlans(
      database.db,
      "customers",
      (tx, query) =>
        customerListQueries({ db: tx, companyId: company.id }, getCustomersQuerySchema.parse(query)),
      cases,
    );
  });
});

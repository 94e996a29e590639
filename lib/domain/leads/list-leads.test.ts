import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { leads } from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import { getLeadsQuerySchema, LEAD_SORT_FIELDS } from "@/lib/schemas/leads";
import { createCompany } from "@/lib/testing/factories";
import { expectListPlans, type ListPlanExpectation } from "@/lib/testing/list-plans";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { DEFERRED_PAGE_OFFSET, listRows } from "@/lib/domain/lists/newest-list";
import { leadListQueries } from "./list-leads";

const database = setupTestDatabase();

/** 3,000 leads of a company, the i-th created i minutes ago (so newest first is i ascending); every tenth archived. */
async function insertLeads(companyId: string) {
  const rows = Array.from({ length: 3000 }, (_, i) => ({
    companyId,
    id: newId(ID_PREFIX.lead),
    name: `Lead Person ${i}`,
    email: `person${i}@example.com`,
    emailNormalized: `person${i}@example.com`,
    phone: `(555) ${String(i).padStart(3, "0").slice(-3)}-${String(i).padStart(4, "0")}`,
    phoneNormalized: `555${String(i).padStart(3, "0").slice(-3)}${String(i).padStart(4, "0")}`,
    stage: ["New", "Contacted", "Qualified", "Proposal", "Won", "Lost"][i % 6],
    tags: i % 50 === 0 ? ["roof"] : ["lawn"],
    archived: i % 10 === 0,
    createdAt: new Date(Date.now() - i * 60_000),
  }));
  for (let i = 0; i < rows.length; i += 500) await database.db.insert(leads).values(rows.slice(i, i + 500));
  return rows;
}

/** Every filter's page and count served by its index, on a test-sized table (expectListPlans). */
describe(`lead list plans (${testEngine()})`, () => {
  it("serves every filter from its index, and the default orders without a sort", async () => {
    const company = await createCompany(database.db);
    await insertLeads(company.id);
    // Vacuumed, as autovacuum keeps a table: its visibility map lets a deep page skip rows by index alone.
    await database.db.execute(sql`vacuum (analyze) leads`);

    const search = "leads_search_grams_idx";
    const cases: [Record<string, string>, ListPlanExpectation][] = [
      // A deep page (2,000 rows skipped): the ids from the index alone, then the rows by key.
      [
        { page: "21", limit: "100" },
        {
          page: "Index Only Scan using leads_active_created_idx",
          count: ["list_counts_entity_idx"],
          deferred: true,
        },
      ],
      [{}, { page: "leads_active_created_idx", count: ["list_counts_entity_idx"] }],
      [{ archived: "true" }, { page: "leads_created_idx", count: ["list_counts_entity_idx"] }],
      [{ stage: "Won" }, { page: "leads_active_stage_created_idx", count: ["list_counts_entity_idx"] }],
      [
        { stage: "Won", archived: "true" },
        { page: "leads_stage_created_idx", count: ["list_counts_entity_idx"] },
      ],
      // Tags: the total from the tag sets' counters (with a search, count(*) of the matches).
      [{ tags: "roof" }, { count: ["list_counts_entity_idx"], sorted: true }],
      [
        { tags: "roof", archived: "true" },
        { count: ["list_counts_entity_idx"], sorted: true },
      ],
      // A gram term reads page and total in one statement with one index scan; a phone's digits
      // other than the term take a second scan; digits alone are the term.
      [{ search: "person 2345" }, { count: [search], sorted: true }],
      [{ search: "555-0123" }, { count: [search, search], sorted: true }],
      [{ search: "0123" }, { count: [search], sorted: true }],
      // A term under a gram: no index holds it; the page walks the created_at index until it is
      // full, and a count(*) runs beside it.
      [{ search: "01" }, { page: "leads_active_created_idx" }],
      // Each sort order (extensions.md E2) from its own index, unsorted, deep pages too; a
      // follow-up range from the follow_up_date index, counted beside the page.
      ...LEAD_SORT_FIELDS.flatMap((field) =>
        [field, `-${field}`].flatMap((sort): [Record<string, string>, ListPlanExpectation][] => {
          const index =
            sort === "-created_at"
              ? "leads_active_created_idx"
              : `leads_active_${field}_${sort === field ? "asc" : "desc"}_idx`;
          return [
            [{ sort }, { page: index, count: ["list_counts_entity_idx"] }],
            [
              { sort, page: "21", limit: "100" },
              { page: index, count: ["list_counts_entity_idx"], deferred: index },
            ],
          ];
        }),
      ),
      [
        { follow_up_from: "2026-01-01", follow_up_to: "2026-01-31", sort: "follow_up_date" },
        { page: "leads_active_follow_up_date_asc_idx", count: ["leads_active_follow_up_date"] },
      ],
    ];
    await expectListPlans(
      database.db,
      "leads",
      (tx, query) => leadListQueries({ db: tx, companyId: company.id }, getLeadsQuerySchema.parse(query)),
      cases,
    );
  });

  it("reads deep pages in two steps with the same rows in the same order as one scan", async () => {
    const company = await createCompany(database.db);
    const rows = await insertLeads(company.id);
    await database.db.execute(sql`vacuum (analyze) leads`);
    const ctx = { db: database.db, companyId: company.id };
    // Pages of 100 (the 28th is empty): offsets below DEFERRED_PAGE_OFFSET in one scan, from it on
    // in two steps.
    const listed: string[] = [];
    for (let page = 1; page <= 28; page++) {
      const input = getLeadsQuerySchema.parse({ page: String(page), limit: "100" });
      listed.push(...(await listRows(leadListQueries(ctx, input))).rows.map((lead) => lead.id));
    }
    expect((27 - 1) * 100).toBeGreaterThan(DEFERRED_PAGE_OFFSET);
    expect(listed).toEqual(rows.filter((row) => !row.archived).map((row) => row.id));
  });
});

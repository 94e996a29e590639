import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows, type Database } from "@/lib/db/client";
import { SEARCH_GRAM_LENGTH, searchGrams } from "@/lib/db/schema/columns";
import { createTestDatabase, testEngine } from "@/lib/testing/test-database";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** The grams of `text` in the tenant `tenant`, as the search index holds them. */
async function grams(tenant: string, text: string): Promise<string[]> {
  const [row] = await queryRows<{ grams: string[] }>(
    database.db,
    sql`select ${searchGrams(tenant, text)}::text[] as grams`,
  );
  return row?.grams ?? [];
}

describe(`search_grams (migration 0011) on ${testEngine()}`, () => {
  it("holds one gram per run of SEARCH_GRAM_LENGTH characters, none for a shorter text", async () => {
    expect(await grams("co_a", "a".repeat(SEARCH_GRAM_LENGTH - 1))).toEqual([]);
    expect(await grams("co_a", "")).toEqual([]);
    expect(await grams("co_a", "b".repeat(SEARCH_GRAM_LENGTH))).toHaveLength(1);
    // Characters, not bytes or UTF-16 units: four characters, two runs of three.
    expect(await grams("co_a", "😀éab")).toHaveLength(2);
    const abcd = await grams("co_a", "abcd");
    expect(abcd).toHaveLength(2);
    expect(new Set(abcd).size).toBe(2);
  });

  it("gives a text every gram of the texts it contains, and none of another tenant's", async () => {
    const document = await grams("co_a", "ada lovelace\u0001ada@example.com");
    for (const term of ["love", "ada@ex", "e\u0001a"]) {
      const termGrams = await grams("co_a", term);
      expect(
        termGrams.every((g) => document.includes(g)),
        term,
      ).toBe(true);
    }
    expect((await grams("co_a", "lovx")).every((g) => document.includes(g))).toBe(false);
    // The same text in another tenant: no key in common, so a search never reads another
    // tenant's postings.
    const elsewhere = await grams("co_b", "ada lovelace\u0001ada@example.com");
    expect(elsewhere).toHaveLength(document.length);
    expect(elsewhere.some((g) => document.includes(g))).toBe(false);
  });
});

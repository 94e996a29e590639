import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SEARCH_GRAM_LENGTH, searchGrams } from "@/lib/db/schema/columns";
import { textArray } from "@/lib/domain/lists/sql-fragments";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

/** The grams of `text` in the tenant `tenant`, as the search index holds them. */
async function grams(tenant: string, text: string): Promise<string[]> {
  const [row] = (
    await database.db.execute<{ grams: string[] }>(sql`select ${searchGrams(tenant, text)}::text[] as grams`)
  ).rows;
  return row?.grams ?? [];
}

/** A string generator with a fixed seed (mulberry32), so a failure names a text that reproduces. */
function seededTexts(count: number): string[] {
  let state = 0x5eed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // ASCII, the document's separator, accents, a CJK character, a character outside the BMP,
  // quotes and backslashes: what a document can hold.
  const alphabet = [..."abcxyz019 @.-()'\\%_\u0001éßĲ字😀"];
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * 40);
    return Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
  });
}

describe(`search_grams (migrations 0011, 0012) on ${testEngine()}`, () => {
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

  it("gives exactly 0011's grams since 0012 replaced its body, so the indexes built by 0011 stay valid", async () => {
    // 0012 replaced an IMMUTABLE function two indexes use without rebuilding them: sound only if
    // every text yields the same array as 0011's set-returning body (written out here).
    const texts = ["", "a", "ab", "abc", "abcd", "😀", "😀é", "😀éa", ...seededTexts(300)];
    const rows = (
      await database.db.execute<{ same: boolean; text: string }>(sql`select t.text,
            ${searchGrams("co_a", sql`t.text`)} = array(
              select hashtextextended(substr(t.text, i, 3), hashtextextended('co_a', 0))
              from generate_series(1, length(t.text) - 2) as i
            ) as same
          from unnest(${textArray(texts)}) as t(text)`)
    ).rows;
    expect(rows).toHaveLength(texts.length);
    expect(rows.filter((row) => !row.same).map((row) => row.text)).toEqual([]);
  });
});

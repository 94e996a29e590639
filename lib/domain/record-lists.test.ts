import { and, eq, sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { customers, leads } from "@/lib/db/schema";
import { customerSearchFields } from "@/lib/db/schema/customers";
import { leadSearchFields } from "@/lib/db/schema/leads";
import { hasSearchGrams, SEARCH_FIELD_SEPARATOR, searchDocument } from "@/lib/db/schema/columns";
import { ID_PREFIX, newId } from "@/lib/ids";
import { Random } from "@/lib/seed/random";
import { createCompany } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { customerFilter } from "./customers/list-customers";
import { leadFilter } from "./leads/list-leads";
import { phoneSearchDigits } from "@/lib/values/normalize";
import { containsPattern } from "./lists/sql-fragments";

const database = setupTestDatabase();

/**
 * Characters whose lower case differs between JavaScript and PostgreSQL or is not ASCII, LIKE's
 * wildcards and escape, and letter runs so terms hit more than one record.
 */
const ALPHABET = [..."martMART son SON ΣσςΟΔ İıßẞéÉĲ字😀@.-'%_\\5"];

function text(random: Random, min: number, max: number): string | null {
  if (random.chance(0.1)) return null;
  return Array.from({ length: random.int(min, max) }, () => random.pick(ALPHABET)).join("");
}

/**
 * Search terms: runs of a record's field, as stored or upper-cased, and random runs. Phone-like
 * terms (checked elsewhere) and terms holding the field separator are left out.
 */
function terms(random: Random, fieldTexts: (string | null)[][]): string[] {
  const found: string[] = [];
  while (found.length < 150) {
    let term: string;
    if (random.chance(0.8)) {
      const field = random.pick(random.pick(fieldTexts)) ?? "";
      const chars = [...field];
      const length = random.int(1, 6);
      const at = random.int(0, Math.max(0, chars.length - length));
      term = chars.slice(at, at + length).join("");
      if (random.chance(0.3)) term = term.toUpperCase();
    } else {
      term = text(random, 3, 5) ?? "";
    }
    if (term.trim() === "" || term.includes(SEARCH_FIELD_SEPARATOR)) continue;
    const digits = phoneSearchDigits(term);
    if (digits && digits !== term) continue;
    found.push(term);
  }
  return found;
}

describe(`a search's candidates checked field by field (${testEngine()})`, () => {
  it("finds in leads and customers exactly what LIKE on the search document finds", async () => {
    const random = new Random(0x5ea2c4);
    const company = await createCompany(database.db);
    const leadRows = Array.from({ length: 300 }, () => {
      const phone = text(random, 0, 8);
      return {
        companyId: company.id,
        id: newId(ID_PREFIX.lead),
        name: text(random, 0, 14),
        email: null,
        emailNormalized: text(random, 0, 10),
        phone,
        phoneNormalized: random.chance(0.5) ? phone : text(random, 0, 8),
        archived: random.chance(0.1),
      };
    });
    const customerRows = Array.from({ length: 300 }, () => ({
      companyId: company.id,
      id: newId(ID_PREFIX.customer),
      firstName: text(random, 0, 8),
      lastName: text(random, 0, 8),
      companyName: text(random, 0, 12),
      emailNormalized: text(random, 0, 10),
      phone: text(random, 0, 8),
      phoneNormalized: text(random, 0, 8),
      archived: random.chance(0.1),
    }));
    await database.db.insert(leads).values(leadRows);
    await database.db.insert(customers).values(customerRows);

    const lists = [
      {
        table: "leads",
        select: (where: SQL) => sql`select id from leads where ${where} order by id`,
        filter: (search: string) => leadFilter(company.id, { archived: false, search }),
        document: searchDocument(leadSearchFields(leads)),
        scope: and(eq(leads.companyId, company.id), sql`not ${leads.archived}`) as SQL,
        fieldTexts: leadRows.map((r) => [r.name, r.emailNormalized, r.phone, r.phoneNormalized]),
      },
      {
        table: "customers",
        select: (where: SQL) => sql`select id from customers where ${where} order by id`,
        filter: (search: string) => customerFilter(company.id, { archived: false, search }),
        document: searchDocument(customerSearchFields(customers)),
        scope: and(eq(customers.companyId, company.id), sql`not ${customers.archived}`) as SQL,
        fieldTexts: customerRows.map((r) => [
          r.firstName,
          r.lastName,
          r.companyName,
          r.emailNormalized,
          r.phone,
          r.phoneNormalized,
        ]),
      },
    ];
    for (const list of lists) {
      const ids = async (where: SQL) =>
        (await database.db.execute<{ id: string }>(list.select(where))).rows.map((r) => r.id);
      let gramTerms = 0;
      let found = 0;
      for (const term of terms(random, list.fieldTexts)) {
        const expected = await ids(
          and(list.scope, sql`${list.document} like ${containsPattern(term)}`) as SQL,
        );
        expect(await ids(list.filter(term)), `${list.table}: ${JSON.stringify(term)}`).toEqual(expected);
        if (hasSearchGrams(term)) gramTerms++;
        if (expected.length > 0) found++;
      }
      // Most terms take the grams' path, and more than half find something.
      expect(gramTerms, list.table).toBeGreaterThan(80);
      expect(found, list.table).toBeGreaterThan(75);
    }
  });
});

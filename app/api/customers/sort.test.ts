import { describe, expect, it } from "vitest";
import { GET as listCustomersRoute } from "@/app/api/customers/route";
import { customers, SORTED_NAME_LENGTH } from "@/lib/db/schema";
import { DEFERRED_PAGE_OFFSET } from "@/lib/domain/lists/newest-list";
import { ID_PREFIX, newId } from "@/lib/ids";
import { CUSTOMER_SORT_FIELDS, type CustomerSortField } from "@/lib/schemas/customers";
import { apiRequest, call, createTenant } from "@/lib/testing/factories";
import { bySortKeys, type SortValue } from "@/lib/testing/sort-order";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

type Row = typeof customers.$inferInsert;
type ListBody = { data: { id: string }[]; pagination: { total: number } };
type ErrorBody = { error_code?: string; details?: { field: string }[] };

const list = (key: string, query: string) =>
  call<ListBody>(listCustomersRoute, apiRequest(`/customers?${query}`, { key }));
const ids = (res: { body: ListBody }) => res.body.data.map((customer) => customer.id);

async function insert(companyId: string, rows: Partial<Row>[]): Promise<Row[]> {
  const values = rows.map((row) => ({ ...row, companyId, id: row.id ?? newId(ID_PREFIX.customer) }));
  for (let i = 0; i < values.length; i += 500) {
    await database.db.insert(customers).values(values.slice(i, i + 500));
  }
  return values;
}

/** A customer's values for a sort field, as the list compares them (customerSortKeys). */
function customerKey(row: Row, field: CustomerSortField): SortValue | SortValue[] {
  const lower = (text: string | null | undefined) =>
    text == null ? null : [...text].slice(0, SORTED_NAME_LENGTH).join("").toLowerCase();
  switch (field) {
    case "created_at":
      return row.createdAt ?? null;
    case "updated_at":
      return row.updatedAt ?? null;
    case "name":
      return [lower(row.lastName), lower(row.firstName), lower(row.companyName)];
    case "status":
      return row.status ?? "active";
  }
}

const sorted = (rows: Row[], sort: string) => bySortKeys(rows, sort, customerKey);

describe(`GET /api/customers?sort (${testEngine()})`, () => {
  it("sorts by every field both ways: a name by last, first, then company name, nulls last", async () => {
    const { key, companyId } = await createTenant(database.db);
    const people: [string | null, string | null, string | null][] = [
      ["Ada", "Lovelace", null],
      ["ada", "lovelace", "Engines Ltd"],
      ["Charles", "Babbage", null],
      [null, "Babbage", "Difference Co"],
      ["Grace", "Hopper", null],
      [null, null, "Acme"],
      [null, null, null],
      ["Alan", null, null],
      ["Grace", "Hopper", "Navy"],
    ];
    const rows = await insert(
      companyId,
      people.map(([firstName, lastName, companyName], i) => ({
        firstName,
        lastName,
        companyName,
        status: i % 3 === 0 ? ("inactive" as const) : ("active" as const),
        createdAt: new Date(Date.UTC(2026, 0, (i % 4) + 1)),
        updatedAt: new Date(Date.UTC(2026, 1, (i % 3) + 1)),
      })),
    );
    for (const field of CUSTOMER_SORT_FIELDS) {
      for (const sort of [field, `-${field}`]) {
        expect(ids(await list(key, `sort=${sort}`)), sort).toEqual(sorted(rows, sort));
      }
    }
    const byName = ids(await list(key, "sort=name"));
    const id = (first: string | null, last: string | null, company: string | null) =>
      rows.find((r) => r.firstName === first && r.lastName === last && r.companyName === company)?.id;
    // Babbage (Charles, then no first name), then Hopper (Navy, then no company): each key nulls last.
    expect(byName.slice(0, 4)).toEqual([
      id("Charles", "Babbage", null),
      id(null, "Babbage", "Difference Co"),
      id("Grace", "Hopper", "Navy"),
      id("Grace", "Hopper", null),
    ]);
    // No last name last, no name at all at the very end, in both directions.
    expect(byName.at(-1)).toBe(id(null, null, null));
    expect(ids(await list(key, "sort=-name")).at(-1)).toBe(id(null, null, null));
    expect(ids(await list(key, "sort=status,-name"))).toEqual(sorted(rows, "status,-name"));
  });

  it("sorts a search, a status and deep pages", async () => {
    const { key, companyId } = await createTenant(database.db);
    const rows = await insert(
      companyId,
      Array.from({ length: DEFERRED_PAGE_OFFSET + 300 }, (_, i) => ({
        firstName: `First ${i % 13}`,
        lastName: i % 9 === 0 ? null : `Last ${i % 17}`,
        status: i % 4 === 0 ? ("inactive" as const) : ("active" as const),
        archived: i % 10 === 0,
        createdAt: new Date(Date.UTC(2026, 0, 1) + (i % 40) * 60_000),
      })),
    );
    const active = rows.filter((row) => !row.archived);
    const deep = await list(key, "sort=-name&limit=100&page=22");
    expect(ids(deep)).toEqual(sorted(active, "-name").slice(2100, 2200));
    expect(deep.body.pagination.total).toBe(active.length);
    const inactive = active.filter((row) => row.status === "inactive");
    expect(ids(await list(key, "sort=name&status=inactive&limit=1000"))).toEqual(sorted(inactive, "name"));
    const last1 = active.filter((row) => row.lastName?.toLowerCase().includes("last 1"));
    const found = await list(key, "search=last%201&sort=created_at,name&limit=100&page=2");
    expect(ids(found)).toEqual(sorted(last1, "created_at,name").slice(100, 200));
    expect(found.body.pagination.total).toBe(last1.length);
  });

  it("stores and sorts the longest names of the widest characters (the index entry stays small)", async () => {
    const { key, companyId } = await createTenant(database.db);
    const wide = (tail: string) => "𝔄".repeat(254) + tail;
    const rows = await insert(companyId, [
      { lastName: wide("b"), firstName: wide("a"), companyName: wide("c") },
      { lastName: wide("a"), firstName: wide("b"), companyName: wide("c") },
      { lastName: "𝔄".repeat(99) + "b", firstName: "x" },
    ]);
    expect(ids(await list(key, "sort=name"))).toEqual(sorted(rows, "name"));
    // Equal in their first SORTED_NAME_LENGTH characters: a tie, broken by id.
    const tied = [rows[0]?.id, rows[1]?.id].sort().reverse();
    expect(sorted(rows, "name")).toEqual([rows[2]?.id, ...tied]);
  });

  it.each(["priority", "name,name", "status,", "first_name"])(
    "answers 400 VALIDATION_ERROR naming sort for sort=%s",
    async (sort) => {
      const { key } = await createTenant(database.db);
      const res = await call<ErrorBody>(listCustomersRoute, apiRequest(`/customers?sort=${sort}`, { key }));
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_ERROR");
      expect((res.body.details ?? []).map((d) => d.field)).toEqual(["sort"]);
    },
  );
});

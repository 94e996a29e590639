import { describe, expect, it } from "vitest";
import { GET as listLeadsRoute } from "@/app/api/leads/route";
import { GET as stageTotalsRoute } from "@/app/api/leads/stage-totals/route";
import { POST as bulkRoute } from "@/app/api/leads/bulk/route";
import { leads, pipelineStages } from "@/lib/db/schema";
import { DEFERRED_PAGE_OFFSET } from "@/lib/domain/lists/newest-list";
import { ID_PREFIX, newId } from "@/lib/ids";
import { LEAD_SORT_FIELDS, type LeadSortField } from "@/lib/schemas/leads";
import { apiRequest, call, createTenant } from "@/lib/testing/factories";
import { bySortKeys, type SortValue } from "@/lib/testing/sort-order";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

type Row = typeof leads.$inferInsert;
type ListBody = { data: { id: string }[]; pagination: { total: number; has_more: boolean } };
type ErrorBody = { error_code?: string; message: string; details?: { field: string }[] };

const list = (key: string, query: string) =>
  call<ListBody>(listLeadsRoute, apiRequest(`/leads?${query}`, { key }));
const ids = (res: { body: ListBody }) => res.body.data.map((lead) => lead.id);

async function insert(companyId: string, rows: Partial<Row>[]): Promise<Row[]> {
  const values = rows.map((row) => ({
    name: "Lead",
    ...row,
    companyId,
    id: row.id ?? newId(ID_PREFIX.lead),
  }));
  for (let i = 0; i < values.length; i += 500)
    await database.db.insert(leads).values(values.slice(i, i + 500));
  return values;
}

const RANK = { low: 1, medium: 2, high: 3 } as const;

/** A lead's value for a sort field, as the list compares it (lib/db/schema/leads.ts, leadSortKeys). */
function leadKey(row: Row, field: LeadSortField): SortValue {
  switch (field) {
    case "created_at":
      return row.createdAt ?? null;
    case "updated_at":
      return row.updatedAt ?? null;
    case "name":
      return row.name?.toLowerCase() ?? null;
    case "stage":
      return row.stage ?? null;
    case "priority":
      return row.priority ? RANK[row.priority] : null;
    case "projected_value":
      return row.projectedValue ?? null;
    case "follow_up_date":
      return row.followUpDate ?? null;
  }
}

/** The ids of the rows in the order of `sort` (nulls last, then id descending). */
const sorted = (rows: Row[], sort: string) => bySortKeys(rows, sort, leadKey);

const at = (iso: string) => new Date(iso);

/** Leads with every sort field varied, ties and empty values among them. */
function variedLeads(): Partial<Row>[] {
  const stages = ["new", "won", null, "contacted", "new"];
  const priorities = ["low", "high", null, "medium", "high", "low"] as const;
  const names = ["alice", "Bob", null, "carol", "ALICE", "dave", "eve"];
  return Array.from({ length: 14 }, (_, i) => ({
    id: `lead_sort_${String(i).padStart(2, "0")}`,
    name: names[i % names.length],
    stage: stages[i % stages.length],
    priority: priorities[i % priorities.length],
    projectedValue: i % 4 === 0 ? null : (i % 3) * 100,
    followUpDate: i % 3 === 0 ? null : at(`2026-03-0${(i % 5) + 1}T12:00:00Z`),
    createdAt: at(`2026-01-${String((i % 6) + 1).padStart(2, "0")}T00:00:00Z`),
    updatedAt: at(`2026-02-${String((i % 4) + 1).padStart(2, "0")}T00:00:00Z`),
  }));
}

describe(`GET /api/leads?sort (${testEngine()})`, () => {
  it("sorts by every field both ways, nulls last, ties by id descending", async () => {
    const { key, companyId } = await createTenant(database.db);
    const rows = await insert(companyId, variedLeads());
    for (const field of LEAD_SORT_FIELDS) {
      for (const sort of [field, `-${field}`]) {
        const expected = sorted(rows, sort);
        expect(ids(await list(key, `sort=${sort}`)), sort).toEqual(expected);
      }
    }
    // Nulls last in both directions, and ties broken by id descending.
    const nameDown = ids(await list(key, "sort=-name"));
    const unnamed = rows.filter((row) => row.name === null).map((row) => row.id);
    expect(nameDown.slice(-unnamed.length).sort()).toEqual(unnamed.sort());
    expect(ids(await list(key, "sort=name")).slice(-unnamed.length)).toEqual([...unnamed].reverse());
  });

  it("sorts by several fields, and without sort newest first", async () => {
    const { key, companyId } = await createTenant(database.db);
    const rows = await insert(companyId, variedLeads());
    for (const sort of ["stage,-projected_value", "-priority,name", "follow_up_date,-updated_at,stage"]) {
      expect(ids(await list(key, `sort=${sort}`)), sort).toEqual(sorted(rows, sort));
    }
    expect(ids(await list(key, ""))).toEqual(sorted(rows, "-created_at"));
    expect(ids(await list(key, `sort=${encodeURIComponent(" stage , -name ")}`))).toEqual(
      sorted(rows, "stage,-name"),
    );
  });

  it.each(["bogus", "name,name", "name,-name", "name,", ",name", "", "-", "email", "id", "Name"])(
    "answers 400 VALIDATION_ERROR naming sort for sort=%s",
    async (sort) => {
      const { key } = await createTenant(database.db);
      const res = await call<ErrorBody>(listLeadsRoute, apiRequest(`/leads?sort=${sort}`, { key }));
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_ERROR");
      expect((res.body.details ?? []).map((d) => d.field)).toEqual(["sort"]);
    },
  );

  it("sorts a search, the filters and deep pages in the same order", async () => {
    const { key, companyId } = await createTenant(database.db);
    const rows = await insert(
      companyId,
      Array.from({ length: DEFERRED_PAGE_OFFSET + 400 }, (_, i) => ({
        name: `Person ${i % 37}`,
        stage: ["new", "won", null][i % 3],
        priority: (["low", "high", null, "medium"] as const)[i % 4],
        projectedValue: i % 5 === 0 ? null : i % 11,
        tags: i % 7 === 0 ? ["roof"] : [],
        archived: i % 10 === 0,
        createdAt: new Date(Date.UTC(2026, 0, 1) + (i % 50) * 60_000),
      })),
    );
    const active = rows.filter((row) => !row.archived);
    const sort = "priority,-projected_value";
    // Pages of 100 in one scan, then (DEFERRED_PAGE_OFFSET) in two steps.
    const limit = 100;
    const deepPage = Math.floor(DEFERRED_PAGE_OFFSET / limit) + 2;
    const expected = sorted(active, sort);
    const deep = await list(key, `sort=${sort}&limit=${limit}&page=${deepPage}`);
    expect(ids(deep)).toEqual(expected.slice((deepPage - 1) * limit, deepPage * limit));
    expect(deep.body.pagination.total).toBe(active.length);
    expect(ids(await list(key, `sort=${sort}&limit=${limit}&page=2`))).toEqual(
      expected.slice(limit, 2 * limit),
    );
    // With archived leads, a stage, tags.
    expect(ids(await list(key, `sort=-name&archived=true&limit=1000&page=3`))).toEqual(
      sorted(rows, "-name").slice(2000, 3000),
    );
    const won = active.filter((row) => row.stage === "won");
    expect(ids(await list(key, `sort=name,priority&stage=won&limit=1000`))).toEqual(
      sorted(won, "name,priority"),
    );
    const roof = active.filter((row) => row.tags?.includes("roof"));
    expect(ids(await list(key, `sort=-projected_value&tags=roof&limit=1000`))).toEqual(
      sorted(roof, "-projected_value"),
    );
    // A search of grams (page and total in one statement) and one under a gram, deep pages too.
    const person1 = active.filter((row) => row.name?.toLowerCase().includes("person 1"));
    const found = await list(key, `search=person%201&sort=-priority,name&limit=50&page=3`);
    expect(ids(found)).toEqual(sorted(person1, "-priority,name").slice(100, 150));
    expect(found.body.pagination.total).toBe(person1.length);
    const ones = active.filter((row) => row.name?.includes("1"));
    expect(ids(await list(key, `search=1&sort=stage&limit=1000`))).toEqual(sorted(ones, "stage"));
  });
});

describe(`GET /api/leads?follow_up_from&follow_up_to (${testEngine()})`, () => {
  async function followUps() {
    const tenant = await createTenant(database.db);
    const made = await insert(tenant.companyId, [
      { followUpDate: at("2026-02-28T23:59:59.999Z"), stage: "new", projectedValue: 1 },
      { followUpDate: at("2026-03-01T00:00:00.000Z"), stage: "new", projectedValue: 2 },
      { followUpDate: at("2026-03-15T12:00:00.000Z"), stage: "won", projectedValue: 4 },
      { followUpDate: at("2026-03-31T23:59:59.999Z"), stage: "won", projectedValue: 8 },
      { followUpDate: at("2026-04-01T00:00:00.000Z"), stage: "new", projectedValue: 16 },
      { followUpDate: null, stage: "new", projectedValue: 32 },
      { followUpDate: at("2026-03-10T00:00:00.000Z"), stage: "new", projectedValue: 64, archived: true },
    ]);
    return { ...tenant, ids: made.map((row) => row.id) };
  }

  it("keeps the leads followed up within the range, both bounds inclusive, a date its whole UTC day", async () => {
    const {
      key,
      ids: [feb28, mar1, mar15, mar31, apr1],
    } = await followUps();
    const march = await list(key, "follow_up_from=2026-03-01&follow_up_to=2026-03-31&sort=follow_up_date");
    expect(ids(march)).toEqual([mar1, mar15, mar31]);
    expect(march.body.pagination).toMatchObject({ total: 3, has_more: false });
    expect(ids(await list(key, "follow_up_to=2026-03-01&sort=follow_up_date"))).toEqual([feb28, mar1]);
    expect(ids(await list(key, "follow_up_from=2026-03-31&sort=follow_up_date"))).toEqual([mar31, apr1]);
    expect(
      ids(
        await list(
          key,
          "follow_up_from=2026-03-01T00:00:00Z&follow_up_to=2026-03-15T12:00:00Z&sort=-follow_up_date",
        ),
      ),
    ).toEqual([mar15, mar1]);
    expect(ids(await list(key, "follow_up_to=2026-03-01T00:59:59.999%2B01:00&sort=follow_up_date"))).toEqual([
      feb28,
    ]);
  });

  it("answers a reversed range with an empty page, and 400 for a date that is not one", async () => {
    const { key } = await followUps();
    const reversed = await list(key, "follow_up_from=2026-04-01&follow_up_to=2026-03-01");
    expect(reversed.status).toBe(200);
    expect(reversed.body.data).toEqual([]);
    expect(reversed.body.pagination.total).toBe(0);
    for (const [query, field] of [
      ["follow_up_from=tomorrow", "follow_up_from"],
      ["follow_up_to=2026-02-30", "follow_up_to"],
    ]) {
      const res = await call<ErrorBody>(listLeadsRoute, apiRequest(`/leads?${query}`, { key }));
      expect(res.status).toBe(400);
      expect((res.body.details ?? []).map((d) => d.field)).toEqual([field]);
    }
  });

  it("counts the range's leads in GET /leads/stage-totals", async () => {
    const { key } = await followUps();
    const res = await call(
      stageTotalsRoute,
      apiRequest("/leads/stage-totals?follow_up_from=2026-03-01&follow_up_to=2026-03-31", { key }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "success",
      data: [
        { stage: "new", count: 1, projected_value: 2 },
        { stage: "won", count: 2, projected_value: 12 },
      ],
      totals: { count: 3, projected_value: 14 },
    });
    const archived = await call(
      stageTotalsRoute,
      apiRequest("/leads/stage-totals?follow_up_to=2026-03-10&archived=true&sort=bogus", { key }),
    );
    expect(archived.body).toMatchObject({ totals: { count: 3, projected_value: 67 } });
    const reversed = await call(
      stageTotalsRoute,
      apiRequest("/leads/stage-totals?follow_up_from=2026-03-31&follow_up_to=2026-03-01", { key }),
    );
    expect(reversed.body).toMatchObject({ data: [], totals: { count: 0, projected_value: 0 } });
  });
});

describe(`GET /api/leads?open (${testEngine()})`, () => {
  /** Overdue leads in every kind of stage: open, won, lost, none, and one outside the pipeline. */
  async function overdue(companyId: string) {
    const due = at("2026-03-01T12:00:00Z");
    const stages = ["new", "won", "lost", null, "Cancelled", " LOST ", "quoted"];
    const made = await insert(
      companyId,
      stages.map((stage, i) => ({ stage, followUpDate: due, projectedValue: 2 ** i })),
    );
    return Object.fromEntries(made.map((row, i) => [String(stages[i]), row.id!]));
  }

  it("leaves out the leads in a won or lost stage, with the follow-up range and the totals", async () => {
    const { key, companyId } = await createTenant(database.db);
    const id = await overdue(companyId);
    const open = [id.new!, id.null!, id.Cancelled!, id.quoted!].sort();
    const listed = await list(key, "follow_up_to=2026-03-02&open=true");
    expect(ids(listed).sort()).toEqual(open);
    expect(listed.body.pagination.total).toBe(4);
    expect(ids(await list(key, "follow_up_to=2026-03-02&open=false"))).toHaveLength(7);
    expect(ids(await list(key, "follow_up_to=2026-03-02"))).toHaveLength(7);
    const totals = await call(
      stageTotalsRoute,
      apiRequest("/leads/stage-totals?follow_up_to=2026-03-02&open=TRUE", { key }),
    );
    expect(totals.body).toMatchObject({ totals: { count: 4, projected_value: 1 + 8 + 16 + 64 } });
    const bad = await call<ErrorBody>(listLeadsRoute, apiRequest("/leads?open=yes", { key }));
    expect(bad.status).toBe(400);
    expect((bad.body.details ?? []).map((d) => d.field)).toEqual(["open"]);
  });

  it("reads the company's own pipeline: its closed stages by key or label, none of the default's", async () => {
    const { key, companyId } = await createTenant(database.db);
    const id = await overdue(companyId);
    await database.db.insert(pipelineStages).values([
      { companyId, key: "new", label: "New", color: "#2563eb", kind: "open", position: 0 },
      { companyId, key: "won", label: "Won", color: "#15803d", kind: "won", position: 1 },
      { companyId, key: "cancelled", label: "Cancelled", color: "#b91c1c", kind: "lost", position: 2 },
    ]);
    // "lost" and "quoted" are no stage of this pipeline: nothing says they are closed.
    const open = [id.new!, id.null!, id.lost!, id[" LOST "]!, id.quoted!].sort();
    expect(ids(await list(key, "open=true")).sort()).toEqual(open);
  });

  it("selects the same leads in a bulk change by filter", async () => {
    const { key, companyId } = await createTenant(database.db);
    const id = await overdue(companyId);
    const res = await call<{ matched: number }>(
      bulkRoute,
      apiRequest("/leads/bulk", {
        key,
        body: {
          filter: { follow_up_to: "2026-03-02", open: true },
          action: { type: "add_tags", tags: ["due"] },
        },
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.matched).toBe(4);
    expect(ids(await list(key, "tags=due")).sort()).toEqual(
      [id.new!, id.null!, id.Cancelled!, id.quoted!].sort(),
    );
  });
});

import { describe, expect, it } from "vitest";
import {
  currentMonthRange,
  funnelCash,
  funnelSteps,
  outcomeColumns,
  sortRows,
  type FieldActivityTotals,
} from "./field-activity-numbers";

const totals = (numbers: Partial<FieldActivityTotals>): FieldActivityTotals => ({
  knocks: 0,
  knocks_by_pin_type: {},
  leads: 0,
  won: 0,
  customers: 0,
  sale_value: 0,
  collected: 0,
  ...numbers,
});

describe("currentMonthRange", () => {
  it("is the UTC calendar month, whatever the day and the month's length", () => {
    expect(currentMonthRange(new Date("2026-12-04T09:00:00Z"))).toEqual({
      from: "2026-12-01",
      to: "2026-12-31",
    });
    expect(currentMonthRange(new Date("2028-02-29T23:59:59Z"))).toEqual({
      from: "2028-02-01",
      to: "2028-02-29",
    });
    // Still November in UTC, though it is December in UTC+1.
    expect(currentMonthRange(new Date("2026-11-30T23:30:00Z"))).toEqual({
      from: "2026-11-01",
      to: "2026-11-30",
    });
  });
});

const noConversion = { leads: null, won: null, customers: null, collected: null };

describe("funnelSteps", () => {
  it("goes knocks, leads, won, customers with the API's conversions, bars against the largest", () => {
    const conversion = { leads: 0.25, won: 0.2, customers: 0.8, collected: null };
    const steps = funnelSteps(totals({ knocks: 200, leads: 50, won: 10, customers: 8 }), conversion);
    expect(steps.map((s) => [s.key, s.value, s.share, s.conversion])).toEqual([
      ["knocks", 200, 1, null],
      ["leads", 50, 0.25, 0.25],
      ["won", 10, 0.05, 0.2],
      ["customers", 8, 0.04, 0.8],
    ]);
  });

  it("has no bars when everything is zero, and keeps bars within the track", () => {
    const steps = funnelSteps(totals({}), noConversion);
    expect(steps.map((s) => s.conversion)).toEqual([null, null, null, null]);
    expect(steps.map((s) => s.share)).toEqual([0, 0, 0, 0]);
    // Leads assigned without a knock: the largest step is a later one.
    const assigned = funnelSteps(totals({ knocks: 0, leads: 4, won: 2 }), { ...noConversion, won: 0.5 });
    expect(assigned[1]).toMatchObject({ share: 1, conversion: null });
    expect(assigned[2]).toMatchObject({ share: 0.5, conversion: 0.5 });
  });
});

describe("funnelCash", () => {
  it("shows the money collected against the sale value, at the API's rate", () => {
    expect(
      funnelCash(totals({ sale_value: 400, collected: 100 }), { ...noConversion, collected: 0.25 }),
    ).toEqual({ collected: 100, saleValue: 400, rate: 0.25 });
    expect(funnelCash(totals({ collected: 50 }), noConversion).rate).toBeNull();
  });
});

describe("outcomeColumns", () => {
  const types = [
    { id: "pt_b", label: "Not home", color: "#999999" },
    { id: "pt_a", label: "Sold", color: "#1565c0" },
    { id: "pt_c", label: "Interested", color: "#2e7d32" },
  ];

  it("keeps the company's order, leaves out outcomes nobody knocked, keeps unknown ids last", () => {
    expect(outcomeColumns(types, { pt_a: 3, pt_zz: 1, pt_b: 5, pt_c: 0 })).toEqual([
      { pinTypeId: "pt_b", label: "Not home", color: "#999999" },
      { pinTypeId: "pt_a", label: "Sold", color: "#1565c0" },
      { pinTypeId: "pt_zz", label: "pt_zz", color: "#94a3b8" },
    ]);
  });
});

describe("sortRows", () => {
  const rows = [
    { name: "bea", collected: 10 },
    { name: "Al", collected: 30 },
    { name: "cy", collected: 10 },
  ];
  const valueOf = (row: (typeof rows)[number], id: string) => (id === "name" ? row.name : row.collected);

  it("sorts numbers and names either way, ties and no sort in the given order", () => {
    expect(sortRows(rows, [], valueOf)).toEqual(rows);
    expect(sortRows(rows, [{ id: "collected", desc: false }], valueOf).map((r) => r.name)).toEqual([
      "bea",
      "cy",
      "Al",
    ]);
    expect(sortRows(rows, [{ id: "collected", desc: true }], valueOf).map((r) => r.name)).toEqual([
      "Al",
      "bea",
      "cy",
    ]);
    expect(sortRows(rows, [{ id: "name", desc: false }], valueOf).map((r) => r.name)).toEqual([
      "Al",
      "bea",
      "cy",
    ]);
  });
});

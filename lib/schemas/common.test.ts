import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  DATE_RANGE_MESSAGE,
  MAX_PAGE,
  MAX_PAGE_SIZE,
  booleanQuery,
  isoDateQuery,
  pageOffset,
  paginationOf,
  paginationQuerySchema,
  parseIsoDate,
  rangeInOrder,
} from "./common";

describe("paginationQuerySchema", () => {
  it("defaults to page 1, limit 50", () => {
    expect(paginationQuerySchema.parse({})).toEqual({ page: 1n, limit: 50 });
  });
  it("accepts the edges", () => {
    expect(paginationQuerySchema.parse({ page: "1", limit: "1" })).toEqual({ page: 1n, limit: 1 });
    expect(paginationQuerySchema.parse({ limit: "1000" }).limit).toBe(1000);
  });
  it.each([
    [{ page: "0" }, "page"],
    [{ page: "-1" }, "page"],
    [{ page: "1.5" }, "page"],
    [{ page: "abc" }, "page"],
    [{ page: "" }, "page"],
    [{ limit: "0" }, "limit"],
    [{ limit: "1001" }, "limit"],
    [{ limit: "1e3" }, "limit"],
  ])("rejects %j naming %s", (input, field) => {
    const result = paginationQuerySchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([field]);
  });
  it("takes every page the database's bigint OFFSET can count to, exactly, and refuses the next", () => {
    expect(MAX_PAGE).toBe(2n ** 63n - 1n);
    // Past 2^53: as JS numbers these would round to one value.
    for (const page of ["9007199254740992", "9007199254740993", String(MAX_PAGE)]) {
      expect(paginationQuerySchema.parse({ page }).page).toBe(BigInt(page));
    }
    for (const page of ["9223372036854775808", "1".repeat(40)]) {
      const result = paginationQuerySchema.safeParse({ page });
      expect(
        result.error?.issues.map((i) => [i.path, i.message]),
        page,
      ).toEqual([[["page"], `page must be at most ${MAX_PAGE}`]]);
    }
  });
  it("computes the offset exactly, clamped to the largest exact JS number", () => {
    expect(pageOffset({ page: 1n, limit: 50 })).toBe(0);
    expect(pageOffset({ page: 3n, limit: 50 })).toBe(100);
    expect(pageOffset({ page: 9_007_199_254_740_992n, limit: 1 })).toBe(Number.MAX_SAFE_INTEGER);
    expect(pageOffset({ page: 9_007_199_254_740_993n, limit: 1 })).toBe(Number.MAX_SAFE_INTEGER);
    expect(pageOffset({ page: MAX_PAGE, limit: MAX_PAGE_SIZE })).toBe(Number.MAX_SAFE_INTEGER);
    expect(paginationOf({ page: MAX_PAGE, limit: MAX_PAGE_SIZE }, 10).has_more).toBe(false);
  });
  it("computes has_more as page * limit < total", () => {
    expect(paginationOf({ page: 2n, limit: 10 }, 21).has_more).toBe(true);
    expect(paginationOf({ page: 2n, limit: 10 }, 20).has_more).toBe(false);
    expect(paginationOf({ page: 9n, limit: 10 }, 20)).toEqual({
      has_more: false,
      limit: 10,
      page: 9n,
      total: 20,
    });
  });
});

describe("booleanQuery", () => {
  const schema = booleanQuery("x");
  it("takes true/false in any case", () => {
    expect(schema.parse("TRUE")).toBe(true);
    expect(schema.parse("False")).toBe(false);
  });
  it("rejects anything else", () => {
    for (const v of ["1", "yes", "", "truee"]) expect(schema.safeParse(v).success).toBe(false);
  });
});

describe("ISO dates", () => {
  it("a bare end date covers its whole UTC day", () => {
    expect(isoDateQuery("end", "").parse("2026-03-31").toISOString()).toBe("2026-03-31T23:59:59.999Z");
    expect(isoDateQuery("start", "").parse("2026-03-31").toISOString()).toBe("2026-03-31T00:00:00.000Z");
  });
  it("takes date-times with a zone", () => {
    expect(parseIsoDate("2026-03-31T10:00:00+02:00")?.toISOString()).toBe("2026-03-31T08:00:00.000Z");
    expect(parseIsoDate("2026-03-31T10:00Z")?.toISOString()).toBe("2026-03-31T10:00:00.000Z");
  });
  it("rejects non-dates and impossible dates", () => {
    for (const v of [
      "2026-02-30",
      "yesterday",
      "2026-13-01",
      "03/31/2026",
      "2026-03-31T25:00:00Z",
      "1700000000",
    ]) {
      expect(parseIsoDate(v), v).toBeNull();
    }
  });
  it("takes years 1 to 9999 in UTC only, naming the range", () => {
    expect(parseIsoDate("9999-12-31T23:59:59.999Z")?.toISOString()).toBe("9999-12-31T23:59:59.999Z");
    expect(parseIsoDate("0001-01-01")?.toISOString()).toBe("0001-01-01T00:00:00.000Z");
    // Two-digit years are years, not 1900 + n.
    expect(parseIsoDate("0050-06-01")?.toISOString()).toBe("0050-06-01T00:00:00.000Z");
    for (const v of ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+00:01", "0000-01-01"]) {
      expect(parseIsoDate(v), v).toBeNull();
      const result = isoDateQuery("start", "").safeParse(v);
      expect(result.error?.issues[0]?.message, v).toBe(DATE_RANGE_MESSAGE);
    }
    expect(isoDateQuery("start", "").safeParse("2026-02-30").error?.issues[0]?.message).toMatch(/ISO 8601/);
  });
});

describe("rangeInOrder", () => {
  const schema = z
    .object({ from: isoDateQuery("start", "").optional(), to: isoDateQuery("end", "").optional() })
    .superRefine(rangeInOrder("from", "to"));
  it("names the end of a range that runs backwards", () => {
    expect(schema.safeParse({ from: "2026-03-02", to: "2026-03-01" }).error?.issues).toMatchObject([
      { path: ["to"], message: "must not be before from" },
    ]);
  });
  it("takes an open range and a single day", () => {
    for (const value of [
      {},
      { from: "2026-03-02" },
      { to: "2026-03-01" },
      { from: "2026-03-01", to: "2026-03-01" },
    ]) {
      expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(true);
    }
  });
});

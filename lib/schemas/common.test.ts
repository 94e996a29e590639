import { describe, expect, it } from "vitest";
import { booleanQuery, isoDateQuery, paginationOf, paginationQuerySchema, parseIsoDate } from "./common";

describe("paginationQuerySchema", () => {
  it("defaults to page 1, limit 50", () => {
    expect(paginationQuerySchema.parse({})).toEqual({ page: 1, limit: 50 });
  });
  it("accepts the edges", () => {
    expect(paginationQuerySchema.parse({ page: "1", limit: "1" })).toEqual({ page: 1, limit: 1 });
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
  it("computes has_more as page * limit < total", () => {
    expect(paginationOf({ page: 2, limit: 10 }, 21).has_more).toBe(true);
    expect(paginationOf({ page: 2, limit: 10 }, 20).has_more).toBe(false);
    expect(paginationOf({ page: 9, limit: 10 }, 20)).toEqual({
      has_more: false,
      limit: 10,
      page: 9,
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
});

import { describe, expect, it } from "vitest";
import { formatSort, parseSort } from "./api-sort";

describe("the API's sort as a table's sorting", () => {
  const fields = ["name", "stage", "created_at"];

  it("reads directions in order, leaving out unknown and repeated fields", () => {
    expect(parseSort(" stage ,-created_at,bogus,-stage,", fields)).toEqual([
      { id: "stage", desc: false },
      { id: "created_at", desc: true },
    ]);
    expect(parseSort("", fields)).toEqual([]);
  });

  it("writes it back as the API reads it", () => {
    expect(
      formatSort([
        { id: "stage", desc: true },
        { id: "name", desc: false },
      ]),
    ).toBe("-stage,name");
    expect(formatSort(parseSort("-created_at,name", fields))).toBe("-created_at,name");
    expect(formatSort([])).toBe("");
  });
});

import { describe, expect, it } from "vitest";
import {
  formatBytes,
  mappingErrors,
  matchedOnText,
  progressPercent,
  rowsText,
  sameMapping,
  sampleValues,
  stepOf,
} from "./import-steps";

describe("stepOf", () => {
  it("places each status on the page's steps", () => {
    expect(stepOf(null)).toBe("upload");
    expect(stepOf({ status: "uploaded" })).toBe("map");
    expect(stepOf({ status: "failed" })).toBe("map");
    expect(stepOf({ status: "cancelled" })).toBe("map");
    expect(stepOf({ status: "checking" })).toBe("check");
    expect(stepOf({ status: "checked" })).toBe("check");
    expect(stepOf({ status: "importing" })).toBe("import");
    expect(stepOf({ status: "done" })).toBe("import");
  });
});

describe("sampleValues", () => {
  it("takes the first non-empty values of a column, trimmed, skipping short records", () => {
    const sample = [["a", " "], ["b"], ["c", " x "], ["d", "y"], ["e", "z"], ["f", "w"]];
    expect(sampleValues(sample, 0)).toEqual(["a", "b", "c"]);
    expect(sampleValues(sample, 1)).toEqual(["x", "y", "z"]);
    expect(sampleValues(sample, 2)).toEqual([]);
  });
});

describe("mappingErrors", () => {
  const label = (field: string) => field.toUpperCase();
  it("flags a field chosen again, naming the column that has it first", () => {
    const errors = mappingErrors(
      ["email", null, "phone", "email", null],
      ["E-mail", "x", "Tel", "Mail", "y"],
      label,
    );
    expect(errors).toEqual([
      undefined,
      undefined,
      undefined,
      "EMAIL is already mapped from “E-mail”: pick another field or Ignore",
      undefined,
    ]);
  });
  it("accepts any number of ignored columns", () => {
    expect(mappingErrors([null, null], ["a", "b"], label)).toEqual([undefined, undefined]);
  });
});

describe("sameMapping", () => {
  it("compares column by column", () => {
    expect(sameMapping(["a", null], ["a", null])).toBe(true);
    expect(sameMapping(["a", null], ["a", "b"])).toBe(false);
    expect(sameMapping(["a"], ["a", null])).toBe(false);
  });
});

describe("progressPercent", () => {
  it("is a whole percentage, 0 without a total, never past 100", () => {
    expect(progressPercent({ done: 0, total: 0 })).toBe(0);
    expect(progressPercent({ done: 1, total: 3 })).toBe(33);
    expect(progressPercent({ done: 5, total: 3 })).toBe(100);
  });
});

describe("matchedOnText and rowsText", () => {
  it("names the non-zero matches, phone first", () => {
    expect(matchedOnText({ id: 1, phone: 2, email: 0 })).toBe("by phone 2, id 1");
    expect(matchedOnText({ id: 0, phone: 0, email: 0 })).toBe("");
  });
  it("counts rows", () => {
    expect(rowsText(1)).toBe("1 row");
    expect(rowsText(2)).toBe("2 rows");
  });
});

describe("formatBytes", () => {
  it("counts bytes, then KB, MB, GB in powers of 1024", () => {
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(812)).toBe("812 bytes");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(20 * 1024 ** 2)).toBe("20 MB");
    expect(formatBytes(1024 ** 3)).toBe("1 GB");
  });
});

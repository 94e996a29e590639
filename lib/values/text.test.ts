import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { charLength } from "./text";

describe("charLength", () => {
  it("counts code points: an emoji is one, a lone surrogate is one", () => {
    expect(charLength("")).toBe(0);
    expect(charLength("café")).toBe(4);
    expect(charLength("a😀b")).toBe(3);
    expect(charLength("\ud83d")).toBe(1);
    expect(charLength("\ude00\ud83d")).toBe(2);
  });

  it("counts as the string iterator does (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary" }),
          // Surrogate halves in any order, paired or not.
          fc.string({ unit: fc.constantFrom("\ud83d", "\ude00", "a", "😀") }),
        ),
        (value) => {
          expect(charLength(value)).toBe(Array.from(value).length);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

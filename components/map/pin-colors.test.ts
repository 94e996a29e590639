import { describe, expect, it } from "vitest";
import { closeColorPairs, colorDistance, parseHex, textColorOn } from "./pin-colors";

describe("pin colors", () => {
  it("reads #rgb and #rrggbb, and nothing else", () => {
    expect(parseHex("#fff")).toEqual([255, 255, 255]);
    expect(parseHex("#0e7490")).toEqual([14, 116, 144]);
    expect(parseHex("red")).toBeNull();
    expect(parseHex("#12345")).toBeNull();
  });

  it("puts dark text on light colors and white text on dark ones", () => {
    expect(textColorOn("#facc15")).toBe("#000000");
    expect(textColorOn("#ffffff")).toBe("#000000");
    expect(textColorOn("#1e3a8a")).toBe("#ffffff");
    expect(textColorOn("#b91c1c")).toBe("#ffffff");
  });

  it("tells colors apart by their Lab distance", () => {
    expect(colorDistance("#000000", "#ffffff")).toBeCloseTo(100, 0);
    expect(colorDistance("#ef4444", "#ee4545")).toBeLessThan(2);
    expect(colorDistance("#ef4444", "nope")).toBeNull();
    expect(closeColorPairs(["#ef4444", "#22c55e", "#f04848", "#3b82f6"])).toEqual([[0, 2]]);
  });
});

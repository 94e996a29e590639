import { describe, expect, it } from "vitest";
import {
  escapeLike,
  normalizeEmail,
  normalizePhone,
  parseTagList,
  phoneSearchDigits,
  uniqueTags,
} from "./normalize";

describe("normalizePhone", () => {
  it.each([
    ["(555) 123-4567", "5551234567"],
    ["+1 555 123 4567", "5551234567"],
    ["1-555-123-4567", "5551234567"],
    ["555.123.4567", "5551234567"],
    ["+44 20 7946 0958", "442079460958"],
    ["21234567890", "21234567890"],
  ])("%s -> %s", (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
  });
  it("is null without digits", () => {
    expect(normalizePhone("n/a")).toBeNull();
    expect(normalizePhone("")).toBeNull();
    expect(normalizePhone(null)).toBeNull();
  });
});

describe("normalizeEmail", () => {
  it("trims and lower-cases", () => {
    expect(normalizeEmail("  Jane.Doe@Example.COM ")).toBe("jane.doe@example.com");
    expect(normalizeEmail("   ")).toBeNull();
    expect(normalizeEmail(undefined)).toBeNull();
  });
});

describe("phoneSearchDigits", () => {
  it("takes digits only from phone-like terms", () => {
    expect(phoneSearchDigits("5551234")).toBe("5551234");
    expect(phoneSearchDigits("(555) 123-4")).toBe("5551234");
    expect(phoneSearchDigits("1 555 123 4567")).toBe("5551234567");
    expect(phoneSearchDigits("john 555")).toBeNull();
    expect(phoneSearchDigits("---")).toBeNull();
  });
});

describe("uniqueTags", () => {
  it("keeps each tag once, in its first place", () => {
    expect(uniqueTags(["b", "c", "b", "d", "c"])).toEqual(["b", "c", "d"]);
    expect(uniqueTags([])).toEqual([]);
  });
});

describe("parseTagList / escapeLike", () => {
  it("splits, trims and drops empties", () => {
    expect(parseTagList(" vip, ,hot ,vip,")).toEqual(["vip", "hot"]);
  });
  it("escapes LIKE wildcards", () => {
    expect(escapeLike("50%_off\\")).toBe("50\\%\\_off\\\\");
  });
});

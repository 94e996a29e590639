import { describe, expect, it } from "vitest";
import { telHref } from "./format";

describe("telHref", () => {
  it.each([
    ["(555) 123-4567", "tel:5551234567"],
    ["+1 555.123.4567", "tel:+15551234567"],
    ["555-123-4567 x12", "tel:5551234567;ext=12"],
    ["555 123 4567 ext. 9", "tel:5551234567;ext=9"],
    ["+44 (0)20 7946 0018", "tel:+4402079460018"],
    ["call me", null],
  ])("%s → %s", (phone, href) => {
    expect(telHref(phone)).toBe(href);
  });
});

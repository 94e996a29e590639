import { describe, expect, it } from "vitest";
import { escapeHtml, formatRelativeTime, telHref } from "./format";

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

describe("formatRelativeTime", () => {
  const now = new Date("2026-11-16T15:00:00Z");
  it.each([
    ["2026-11-16T14:59:30Z", "just now"],
    ["2026-11-16T15:00:10Z", "just now"],
    ["2026-11-16T14:55:00Z", "5 min ago"],
    ["2026-11-16T12:30:00Z", "2 h ago"],
    ["2026-11-13T15:00:00Z", "3 d ago"],
  ])("%s → %s", (at, text) => {
    expect(formatRelativeTime(at, now)).toBe(text);
  });
  it("gives the date from a week back", () => {
    expect(formatRelativeTime("2026-10-01T12:00:00Z", now)).not.toMatch(/ago/);
  });
});

describe("escapeHtml", () => {
  it("escapes the characters that end text or an attribute", () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;",
    );
    expect(escapeHtml("plain")).toBe("plain");
  });
});

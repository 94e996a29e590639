import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeNextPath } from "./next-path";

const ORIGIN = "https://crm.example";

/**
 * Where a browser goes for a Location of `target` on ORIGIN: it drops tabs and newlines, trims
 * spaces and controls at the ends, and reads `\` as `/` before resolving the address.
 */
function browserDestination(target: string): URL {
  const cleaned = target
    .replace(/[\t\n\r]/g, "")
    .replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "")
    .replace(/\\/g, "/");
  return new URL(cleaned, ORIGIN);
}

describe("safeNextPath", () => {
  it("keeps a path of this site with its query and fragment", () => {
    expect(safeNextPath("/leads")).toBe("/leads");
    expect(safeNextPath("/leads?search=ann&page=2#top")).toBe("/leads?search=ann&page=2#top");
    // A path that merely contains a scheme's name is a path of this site.
    expect(safeNextPath("/javascript:alert(1)")).toBe("/javascript:alert(1)");
    expect(safeNextPath("/reports/jobs?service_date_range_start=2026-01-01")).toBe(
      "/reports/jobs?service_date_range_start=2026-01-01",
    );
  });

  it.each([
    // The probe's finding: browsers drop the tab, so `/\t/host` is `//host`.
    "/\t/other.example/x",
    "/\n/other.example",
    "/\r\n/other.example",
    "/ /other.example",
    "//other.example",
    "///other.example",
    "/\\other.example",
    "/\\/other.example",
    "\\\\other.example",
    "/.//other.example",
    "/./\\other.example",
    "/%2e//other.example",
    "/\u0000/other.example",
    "/\u007f/other.example",
    "https://other.example/",
    "http:other.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "other.example",
    "",
    "/sign-in",
    "/sign-in?next=/leads",
    "/api/leads",
    "/api",
  ])("sends %j to the start page", (next) => {
    expect(safeNextPath(next)).toBe("/");
  });

  it("takes no value, or a repeated one, as the start page", () => {
    expect(safeNextPath(undefined)).toBe("/");
    expect(safeNextPath(null)).toBe("/");
  });

  it("answers a path that stays on this origin, whatever it is given", () => {
    // Strings of the characters that matter to URL parsing, and any strings at all.
    const urlish = fc
      .array(
        fc.constantFrom(
          "/",
          "\\",
          "\t",
          "\n",
          "\r",
          " ",
          ".",
          ":",
          "@",
          "%",
          "2f",
          "5c",
          "09",
          "?",
          "#",
          "other.example",
          "javascript:",
          "\u0000",
          "\u3000",
          "\uff0f",
        ),
        { maxLength: 12 },
      )
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(
        fc.oneof(
          urlish,
          urlish.map((s) => `/${s}`),
          fc.string({ unit: "binary" }),
        ),
        (next) => {
          const target = safeNextPath(next);
          expect(target.startsWith("/")).toBe(true);
          expect(target.startsWith("//")).toBe(false);
          expect(browserDestination(target).origin).toBe(ORIGIN);
          expect(new URL(target, ORIGIN).origin).toBe(ORIGIN);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

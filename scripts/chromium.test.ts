import { afterEach, describe, expect, it, vi } from "vitest";
import { SYSTEM_CHROMIUM_PATHS, chooseChromium, chromiumOfThisMachine } from "./chromium";

const PLAYWRIGHT = "/home/dev/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome";
const existing =
  (...files: string[]) =>
  (file: string) =>
    files.includes(file);

describe("chooseChromium", () => {
  it("takes CHROMIUM_PATH first, over Playwright's and the system's", () => {
    const exists = existing("/opt/my-chrome", PLAYWRIGHT, "/usr/bin/chromium");
    expect(chooseChromium({ chromiumPath: "/opt/my-chrome", playwrightPath: PLAYWRIGHT, exists })).toEqual({
      path: "/opt/my-chrome",
      source: "CHROMIUM_PATH",
    });
  });

  it("reports a CHROMIUM_PATH that does not exist instead of stepping over it", () => {
    const choice = chooseChromium({
      chromiumPath: "/opt/typo",
      playwrightPath: PLAYWRIGHT,
      exists: existing(PLAYWRIGHT, "/usr/bin/chromium"),
    });
    expect(choice.path).toBeUndefined();
    expect(choice).toMatchObject({ problem: expect.stringContaining("/opt/typo") });
  });

  it("takes Playwright's installed Chromium next", () => {
    expect(
      chooseChromium({ playwrightPath: PLAYWRIGHT, exists: existing(PLAYWRIGHT, "/usr/bin/chromium") }),
    ).toEqual({ path: PLAYWRIGHT, source: "Playwright" });
  });

  it("falls back to the system's, in order, when Playwright's is not installed", () => {
    expect(chooseChromium({ playwrightPath: PLAYWRIGHT, exists: existing("/usr/bin/chromium") })).toEqual({
      path: "/usr/bin/chromium",
      source: "system",
    });
    expect(
      chooseChromium({ exists: existing("/usr/bin/google-chrome", "/usr/bin/chromium-browser") }),
    ).toEqual({ path: "/usr/bin/chromium-browser", source: "system" });
    for (const file of SYSTEM_CHROMIUM_PATHS) {
      expect(chooseChromium({ exists: existing(file) }).path).toBe(file);
    }
  });

  it("says what to do when there is none", () => {
    const choice = chooseChromium({ playwrightPath: PLAYWRIGHT, exists: () => false });
    expect(choice.path).toBeUndefined();
    expect(choice).toMatchObject({
      problem: expect.stringMatching(
        /CHROMIUM_PATH.*npx playwright install chromium.*apt-get install chromium/,
      ),
    });
  });
});

describe("chromiumOfThisMachine", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("reads CHROMIUM_PATH, and survives a Playwright without a browser for this platform", () => {
    vi.stubEnv("CHROMIUM_PATH", "/definitely/not/here");
    const choice = chromiumOfThisMachine({
      executablePath: () => {
        throw new Error("unsupported platform");
      },
    });
    expect(choice).toMatchObject({
      path: undefined,
      problem: expect.stringContaining("/definitely/not/here"),
    });
  });
});

import fs from "node:fs";

/*
 * The browser of the end-to-end tests, chosen once for the runner (scripts/e2e.ts) and
 * Playwright's config: the one a developer names, else Playwright's own, else the system's.
 */

/** Where systems install Chromium or Chrome, in the order they are tried. */
export const SYSTEM_CHROMIUM_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe",
] as const;

export type ChromiumChoice =
  { path: string; source: "CHROMIUM_PATH" | "Playwright" | "system" } | { path: undefined; problem: string };

export interface ChromiumLookup {
  /** CHROMIUM_PATH, when set. */
  chromiumPath?: string;
  /** Where Playwright's own Chromium is (chromium.executablePath()), installed or not. */
  playwrightPath?: string;
  exists?: (file: string) => boolean;
}

/**
 * The browser to run: CHROMIUM_PATH when set (and then only it: a wrong path is a mistake to
 * report, not to step over), else Playwright's installed Chromium, else the system's.
 */
export function chooseChromium({
  chromiumPath,
  playwrightPath,
  exists = fs.existsSync,
}: ChromiumLookup): ChromiumChoice {
  if (chromiumPath) {
    return exists(chromiumPath)
      ? { path: chromiumPath, source: "CHROMIUM_PATH" }
      : { path: undefined, problem: `CHROMIUM_PATH is ${chromiumPath}, which does not exist.` };
  }
  if (playwrightPath && exists(playwrightPath)) return { path: playwrightPath, source: "Playwright" };
  const system = SYSTEM_CHROMIUM_PATHS.find((file) => exists(file));
  if (system) return { path: system, source: "system" };
  return {
    path: undefined,
    problem:
      "No Chromium found: set CHROMIUM_PATH to a Chromium or Chrome, install Playwright's " +
      "(npx playwright install chromium), or the system's (e.g. apt-get install chromium).",
  };
}

/**
 * The browser of this machine: chooseChromium over CHROMIUM_PATH, Playwright's Chromium (the
 * caller's `chromium` from @playwright/test) and the system's.
 */
export function chromiumOfThisMachine(playwright: { executablePath(): string }): ChromiumChoice {
  let playwrightPath: string | undefined;
  try {
    playwrightPath = playwright.executablePath();
  } catch {
    // No build of Playwright's browser for this platform: the system's may still do.
  }
  return chooseChromium({ chromiumPath: process.env.CHROMIUM_PATH, playwrightPath });
}

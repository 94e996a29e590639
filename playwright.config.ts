import { chromium, defineConfig } from "@playwright/test";
import { chromiumOfThisMachine } from "./scripts/chromium";

// Run through `npm run test:e2e` (scripts/e2e.ts), which builds and starts the app on a fresh
// database with the demo data and passes its address in E2E_BASE_URL.
const baseURL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:3000";
// The runner passes its choice in CHROMIUM_PATH; without a browser Playwright names what is missing.
const browser = chromiumOfThisMachine(chromium);

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results/artifacts",
  // One worker: the server, the browser and the tests share two cores, and the embedded
  // database answers one query at a time; tests of a file run in order.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: process.env.CI === "true",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The list reporter ends with Playwright's "N passed" line, which CI sums up.
  reporter: [["list"]],
  use: {
    baseURL,
    viewport: { width: 1440, height: 900 },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: browser.path,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
});

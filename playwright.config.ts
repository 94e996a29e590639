import { defineConfig } from "@playwright/test";

// Run through `npm run test:e2e` (scripts/e2e.ts), which builds and starts the app on a fresh
// database with the demo data and passes its address in E2E_BASE_URL.
const baseURL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:3000";

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results/artifacts",
  // Two cores are shared with the server: two workers at most, spec files in parallel, tests
  // of one file in order (they build on each other's sign-ins).
  workers: 2,
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
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
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

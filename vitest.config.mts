import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      // `server-only` throws outside React's react-server condition; tests run server modules
      // directly, so it is the package's empty module here (as Next's Jest guide maps it).
      "server-only": path.join(root, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    environment: "node",
    include: ["**/*.test.ts"],
    // system/: real server processes on a production build, run by npm run test:system.
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**", "system/**"],
    // Each test file gets its own database (lib/testing/test-database.ts), a copy of one that this
    // setup migrates once per run; two cores, two workers.
    globalSetup: ["lib/testing/global-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    env: { LOG_LEVEL: "silent" },
  },
});

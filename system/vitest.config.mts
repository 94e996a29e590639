import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// System tests (npm run test:system): real production server processes on a production build,
// one file at a time (they start servers; the machine has two cores).
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export default defineConfig({
  root,
  resolve: {
    // `server-only` as in vitest.config.mts: the harness imports server modules directly.
    alias: { "@": root, "server-only": path.join(root, "node_modules/server-only/empty.js") },
  },
  test: {
    environment: "node",
    include: ["system/**/*.test.ts"],
    globalSetup: ["system/global-setup.ts"],
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 600_000,
    env: { LOG_LEVEL: "silent" },
  },
});

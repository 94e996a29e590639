import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * The system tests run the production build in NEXT_DIST_DIR (default .next): `npm test` has just
 * built it for the end-to-end tests. When there is none, build it first.
 */
export default function setup(): void {
  const root = path.resolve(__dirname, "..");
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (fs.existsSync(path.join(root, distDir, "BUILD_ID"))) {
    console.log(`[system] using the build in ${distDir}`);
    return;
  }
  console.log(`[system] no build in ${distDir}: running next build`);
  const result = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error(`next build failed (exit status ${result.status})`);
}

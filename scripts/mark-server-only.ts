// npm run mark:server-only            puts `import "server-only";` first in every server module
// npm run check:server-only           lists the server modules without it; exits 1 if any
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Client code reaches none of these folders (eslint.config.mjs), so the marker only turns a mistake into
 * a build error.
 */
export const SERVER_FOLDERS = ["lib/db", "lib/domain", "lib/auth", "lib/api", "lib/import", "lib/openapi"];

/** Modules under those folders that other runtimes load, each with the reason. */
export const NOT_SERVER_ONLY: Record<string, string> = {
  // drizzle-kit loads the table definitions without the react-server condition.
  "lib/db/schema": "read by drizzle-kit (npm run db:generate)",
  // Pure: the pages ask it in the browser (useCan in lib/query, the nav items).
  "lib/auth/permissions.ts": "the permission table: the UI's hook and the nav items import it",
};

export const MARKER = 'import "server-only";';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const isExcluded = (file: string) =>
  Object.keys(NOT_SERVER_ONLY).some((entry) => file === entry || file.startsWith(`${entry}/`));

/** The server modules (paths relative to the project, `/`-separated), tests and exclusions left out. */
export function serverModules(projectRoot = root): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(projectRoot, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !isExcluded(file))
        found.push(file);
    }
  };
  for (const folder of SERVER_FOLDERS) if (fs.existsSync(path.join(projectRoot, folder))) walk(folder);
  return found.sort();
}

/** Whether the module's first statement is the marker (comments and blank lines before it are fine). */
export function hasMarker(source: string): boolean {
  const code = source.replace(/^(\s*(\/\/[^\n]*|\/\*[\s\S]*?\*\/))*\s*/, "");
  return code.startsWith(MARKER) || code.startsWith("import 'server-only';");
}

/** The module with the marker as its first line; unchanged when it has it already. */
export function withMarker(source: string): string {
  return hasMarker(source) ? source : `${MARKER}\n${source}`;
}

function main() {
  const check = process.argv.includes("--check");
  const missing = serverModules().filter(
    (file) => !hasMarker(fs.readFileSync(path.join(root, file), "utf8")),
  );
  if (check) {
    for (const file of missing) console.error(`${file}: does not start with ${MARKER}`);
    if (missing.length > 0) process.exit(1);
    console.log("Every server module starts with server-only.");
    return;
  }
  for (const file of missing) {
    const full = path.join(root, file);
    fs.writeFileSync(full, withMarker(fs.readFileSync(full, "utf8")));
  }
  console.log(`Marked ${missing.length} module(s).`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

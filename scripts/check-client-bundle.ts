// npm run check:bundle   after `next build`: no browser chunk contains drizzle-orm, pg or PGlite
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Minification-proof strings only these packages contain: the check first proves each is still in its file,
 * so an upgrade that drops one fails here instead of passing silently.
 */
export const SERVER_MARKERS = [
  { pkg: "drizzle-orm", file: "drizzle-orm/table.utils.js", marker: "drizzle:Name" },
  { pkg: "drizzle-orm", file: "drizzle-orm/table.js", marker: "drizzle:Columns" },
  {
    pkg: "pg",
    file: "pg/lib/client.js",
    marker: "Client has already been connected. You cannot reuse a client.",
  },
  { pkg: "pg-pool", file: "pg-pool/index.js", marker: "Cannot use a pool after calling end on the pool" },
  { pkg: "@electric-sql/pglite", file: "@electric-sql/pglite/dist/index.cjs", marker: "PGlite is closed" },
] as const;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function jsFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const full = path.join(entry.parentPath, entry.name);
    return entry.isFile() && entry.name.endsWith(".js") ? [full] : [];
  });
}

/** The browser chunks that contain a server package's marker, with the package named. */
export function findServerCode(staticDir: string): { chunk: string; pkg: string; marker: string }[] {
  const found: { chunk: string; pkg: string; marker: string }[] = [];
  for (const chunk of jsFiles(staticDir)) {
    const text = fs.readFileSync(chunk, "utf8");
    for (const { pkg, marker } of SERVER_MARKERS)
      if (text.includes(marker)) found.push({ chunk, pkg, marker });
  }
  return found;
}

function main() {
  const distDir = path.join(root, process.env.NEXT_DIST_DIR || ".next");
  const staticDir = path.join(distDir, "static");
  for (const { file, marker } of SERVER_MARKERS) {
    const source = fs.readFileSync(path.join(root, "node_modules", file), "utf8");
    if (!source.includes(marker)) {
      console.error(`check:bundle: "${marker}" is no longer in node_modules/${file}; pick a new marker.`);
      process.exit(2);
    }
  }
  const chunks = jsFiles(staticDir);
  if (chunks.length === 0) {
    console.error(
      `check:bundle: no chunks in ${path.relative(root, staticDir)}; run \`npm run build\` first.`,
    );
    process.exit(2);
  }
  const found = findServerCode(staticDir);
  for (const { chunk, pkg, marker } of found) {
    console.error(`${path.relative(root, chunk)}: contains ${pkg} ("${marker}")`);
  }
  if (found.length > 0) process.exit(1);
  console.log(`check:bundle: ${chunks.length} client chunks, none with drizzle-orm, pg or PGlite.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import type { Database } from "@/lib/db/client";

/*
 * For migrations' own tests: the committed migrations before a given one, on an empty database
 * (createEmptyTestDatabase), so a test can write rows under the old schema and check what it makes of them.
 */

/** Applies the committed migrations before `tag` (a copy of drizzle/ whose journal stops there). */
export async function migrateUpTo(target: Database, tag: string) {
  const source = path.join(process.cwd(), "drizzle");
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "fcrm-migrations-"));
  try {
    fs.cpSync(source, folder, { recursive: true });
    const journalFile = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as {
      entries: { idx: number; tag: string }[];
    };
    const stop = journal.entries.findIndex((e) => e.tag === tag);
    expect(stop).toBeGreaterThan(0);
    fs.writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, stop) }));
    if (target.engine === "pglite") {
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      await migrate(target.db as never, { migrationsFolder: folder });
    } else {
      const { migrate } = await import("drizzle-orm/node-postgres/migrator");
      await migrate(target.db as never, { migrationsFolder: folder });
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

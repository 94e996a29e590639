import { execFileSync } from "node:child_process";
import os from "node:os";
import type { RawDb } from "./db";

/** `uptime`'s load averages (the machine is shared: its load is part of every number). */
export function uptime(): string {
  try {
    return execFileSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return `load average: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}`;
  }
}

/**
 * "PostgreSQL 15.20 (shared_buffers 4GB)" or "PGlite (PostgreSQL 17.x)": a server's buffer cache
 * is part of the result (bench/README.md, on shared_buffers).
 */
export async function databaseVersion(db: RawDb): Promise<string> {
  const [row] = await db.query<{ v: string; buffers: string }>(
    "select version() as v, current_setting('shared_buffers') as buffers",
  );
  const version = (row?.v ?? "?").replace(/ on .*$/, "").replace(/,.*$/, "");
  return db.engine === "pglite"
    ? `PGlite (${version})`
    : `${version} (shared_buffers ${row?.buffers ?? "?"})`;
}

/** A table for the terminal: the first `leftColumns` columns left-aligned, the rest right-aligned. */
export function printTable(rows: (string | number)[][], leftColumns = 1): void {
  const cells = rows.map((row) =>
    row.map((cell) => (typeof cell === "number" ? cell.toLocaleString("en-US") : cell)),
  );
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  for (const row of cells)
    console.log(
      row
        .map((cell, i) => (i < leftColumns ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join("  "),
    );
}

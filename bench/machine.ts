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

/** "PostgreSQL 15.20 (Debian …)" or "PGlite (PostgreSQL 17.x)". */
export async function databaseVersion(db: RawDb): Promise<string> {
  const [row] = await db.query<{ v: string }>("select version() as v");
  const version = (row?.v ?? "?").replace(/ on .*$/, "").replace(/,.*$/, "");
  return db.engine === "pglite" ? `PGlite (${version})` : version;
}

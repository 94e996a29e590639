import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { openDatabase, type Database } from "@/lib/db/client";
import { createTestDatabase } from "@/lib/testing/test-database";

/** Test helpers for the CLI scripts: they run as child processes, as a user would run them. */

const TSX = path.join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");

export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `scripts/<name>.ts` with the given arguments and DATABASE_URL. */
export function runScript(name: string, args: string[], databaseUrl: string): Promise<ScriptResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [TSX, "--conditions=react-server", path.join("scripts", `${name}.ts`), ...args],
      {
        cwd: process.cwd(),
        env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", NO_COLOR: "1" },
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/**
 * A migrated database a child process can open: a fresh PostgreSQL database, or an embedded one
 * in a temp directory, which serves one process at a time (`withDatabase` opens and closes it).
 */
export async function createCliDatabase(): Promise<{
  url: string;
  withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}> {
  if (process.env.TEST_DATABASE_URL) {
    const database = await createTestDatabase();
    if (database.target.kind !== "postgres") throw new Error("expected a PostgreSQL test database");
    return {
      url: database.target.url,
      withDatabase: (work) => work(database),
      close: () => database.close(),
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fcrm-cli-"));
  const withDatabase = async <T>(work: (database: Database) => Promise<T>) => {
    const database = await openDatabase({ kind: "pglite-file", dir });
    try {
      return await work(database);
    } finally {
      await database.close();
    }
  };
  // The run's migrated snapshot (lib/testing/global-setup.ts), so no test migrates from zero.
  const snapshot = inject("testDatabaseSnapshot");
  if (snapshot) {
    const loaded = await openDatabase(
      { kind: "pglite-file", dir },
      { loadDataDir: new Blob([fs.readFileSync(snapshot)]) },
    );
    await loaded.close();
  } else {
    await withDatabase((database) => database.migrate());
  }
  return {
    url: `file:${dir}`,
    withDatabase,
    close: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

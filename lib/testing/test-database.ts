import { randomBytes } from "node:crypto";
import { openDatabase, type Database } from "@/lib/db/client";

/**
 * A fresh, migrated database for one test file: PGlite in memory by default; with
 * TEST_DATABASE_URL (a PostgreSQL server URL), a new database on that server, dropped on close.
 * Each test then makes its own tenant (lib/testing/factories.ts), so tests never see each other.
 */
export async function createTestDatabase(): Promise<Database> {
  // Read directly: tests choose their engine per run, independent of the app's cached env.
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({ kind: "pglite-memory" });
    await database.migrate();
    return database;
  }
  const { default: pg } = await import("pg");
  const name = `fcrm_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString() }, { poolSize: 10 });
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** The URL of a fresh database for a child process (servers started by a test); see createTestDatabase. */
export function testEngine(): "pglite" | "postgres" {
  return process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
}

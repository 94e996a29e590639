import { randomBytes } from "node:crypto";
import { openDatabase, type Database } from "@/lib/db/client";

/**
 * A fresh, migrated database for one test file: PGlite in memory by default; with
 * TEST_DATABASE_URL (a PostgreSQL server URL), a new database on that server, dropped on close.
 * Each test then makes its own tenant (lib/testing/factories.ts), so tests never see each other.
 */
export async function createTestDatabase(): Promise<Database> {
  const database = await createEmptyTestDatabase();
  await database.migrate();
  return database;
}

/**
 * The same without any migration applied: for the migrations' own tests, which write rows under
 * the schema before a migration (lib/testing/migrations.ts migrateUpTo) and then apply it.
 */
export async function createEmptyTestDatabase(): Promise<Database> {
  // Read directly: tests choose their engine per run, independent of the app's cached env.
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return openDatabase({ kind: "pglite-memory" });
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

/**
 * A client of its own on a PostgreSQL test database, for tests of concurrent transactions. It
 * waits at most a second for a lock, then fails its statement: writers must never wait on the
 * kept counters and sums, and such a test fails instead of hanging if one does.
 */
export async function connectWithLockTimeout(database: Database) {
  if (database.target.kind !== "postgres") throw new Error("expected PostgreSQL");
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: database.target.url });
  await client.connect();
  await client.query("set lock_timeout = '1s'");
  return client;
}

/** The engine the tests run on: PostgreSQL with TEST_DATABASE_URL, else PGlite. */
export function testEngine(): "pglite" | "postgres" {
  return process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
}

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, useDatabaseForTests, type Database } from "@/lib/db/client";
import { runOnServer } from "./server-database";

declare module "vitest" {
  // What lib/testing/global-setup.ts migrated once for the whole run (absent outside that config).
  export interface ProvidedContext {
    /** PostgreSQL: the migrated template database that each test database copies. */
    testDatabaseTemplate?: string;
    /** PGlite: the file holding a migrated data directory (dumpDataDir) to load. */
    testDatabaseSnapshot?: string;
  }
}

/**
 * The test file's database, opened before its first test and closed after its last; the route
 * handlers use it too. Call it at the top of the file; read it inside tests and hooks.
 */
export function setupTestDatabase(): Database {
  let current: Database | undefined;
  const open = () => {
    if (!current) throw new Error("the test database opens in beforeAll: use it inside a test");
    return current;
  };
  beforeAll(async () => {
    current = await createTestDatabase();
    useDatabaseForTests(current);
  });
  afterAll(async () => {
    useDatabaseForTests(undefined);
    const closing = current;
    current = undefined;
    await closing?.close();
  });
  return {
    get db() {
      return open().db;
    },
    get engine() {
      return open().engine;
    },
    get target() {
      return open().target;
    },
    migrate: () => open().migrate(),
    // Idempotent: a wrapper the file closes itself (bench/db.ts rawDbOf) is not closed twice.
    async close() {
      const closing = open();
      current = undefined;
      await closing.close();
    },
  };
}

/**
 * PGlite in memory, or with TEST_DATABASE_URL a new database on that server, dropped on close. Tests stay
 * apart by each making its own tenant (lib/testing/factories.ts).
 */
export async function createTestDatabase(): Promise<Database> {
  // Copies of the run's migrated database: migrating each file's from zero costs seconds apiece.
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const snapshot = inject("testDatabaseSnapshot");
    if (snapshot) {
      return openDatabase({ kind: "pglite-memory" }, { loadDataDir: new Blob([fs.readFileSync(snapshot)]) });
    }
  } else {
    const template = inject("testDatabaseTemplate");
    if (template) return createServerDatabase(serverUrl, template);
  }
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
  return createServerDatabase(serverUrl);
}

/** A new database on the test server (a copy of `template` if given), dropped on close. */
async function createServerDatabase(serverUrl: string, template?: string): Promise<Database> {
  const name = `fcrm_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await runOnServer(serverUrl, `create database "${name}"${template ? ` template "${template}"` : ""}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString() }, { poolSize: 10 });
  return {
    ...database,
    async close() {
      await database.close();
      await runOnServer(serverUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

/**
 * A one-second lock timeout: writers must never wait on the kept counters and sums, so a concurrency test
 * fails instead of hanging if one does.
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

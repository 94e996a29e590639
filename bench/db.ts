import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase, type Database, type Engine } from "@/lib/db/client";
import type { DatabaseTarget } from "@/lib/env";
import type { ScaleName } from "./scales";

export const DEFAULT_SERVER_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** Where one engine's bench data lives, and how to get rid of it when it was only for this run. */
export interface BenchTarget {
  engine: Engine;
  target: DatabaseTarget;
  /** The DATABASE_URL the server under test gets. */
  databaseUrl: string;
  /** What the report says about it (never a password). */
  label: string;
  /** Drops the database / removes the directory when it was made for this run only. */
  dispose(): Promise<void>;
}

export interface TargetOptions {
  scale: ScaleName;
  engine: Engine;
  /** BENCH_DATABASE_URL: this database is the bench database (re-used across runs). */
  benchUrl?: string;
  /** TEST_DATABASE_URL: a server on which a throw-away database is made (tiny scale). */
  testServerUrl?: string;
}

function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}

async function adminQuery(serverUrl: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** A new empty database on a PostgreSQL server (named after the process), and its removal. */
export async function freshDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  await adminQuery(serverUrl, `create database "${name}"`);
  return {
    url: withDatabase(serverUrl, name),
    drop: async () => {
      await adminQuery(serverUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

/**
 * Picks a run's database: BENCH_DATABASE_URL; at tiny scale with TEST_DATABASE_URL a fresh one;
 * else a kept `fcrm_bench_<scale>`. PGlite: a temp directory, kept except for tiny.
 */
export async function prepareTarget(options: TargetOptions): Promise<BenchTarget> {
  const nothing = async () => {};
  if (options.engine === "pglite") {
    if (options.scale === "tiny") {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fcrm-bench-tiny-"));
      return {
        engine: "pglite",
        target: { kind: "pglite-file", dir },
        databaseUrl: `file:${dir}`,
        label: `PGlite (${dir}, fresh)`,
        dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
      };
    }
    const dir = path.join(os.tmpdir(), "fcrm-bench", `${options.scale}-pglite`);
    fs.mkdirSync(dir, { recursive: true });
    return {
      engine: "pglite",
      target: { kind: "pglite-file", dir },
      databaseUrl: `file:${dir}`,
      label: `PGlite (${dir})`,
      dispose: nothing,
    };
  }
  if (options.benchUrl) {
    return {
      engine: "postgres",
      target: { kind: "postgres", url: options.benchUrl },
      databaseUrl: options.benchUrl,
      label: `PostgreSQL (${redact(options.benchUrl)})`,
      dispose: nothing,
    };
  }
  if (options.scale === "tiny" && options.testServerUrl) {
    const { url, drop } = await freshDatabase(options.testServerUrl, "fcrm_bench_tiny");
    return {
      engine: "postgres",
      target: { kind: "postgres", url },
      databaseUrl: url,
      label: `PostgreSQL (${redact(url)}, fresh)`,
      dispose: drop,
    };
  }
  const server =
    options.testServerUrl && options.scale === "tiny" ? options.testServerUrl : DEFAULT_SERVER_URL;
  const name = `fcrm_bench_${options.scale}`;
  const exists = await adminQuery(server, `select 1 from pg_database where datname = '${name}'`);
  if (exists.rowCount === 0) await adminQuery(server, `create database "${name}"`);
  const url = withDatabase(server, name);
  return {
    engine: "postgres",
    target: { kind: "postgres", url },
    databaseUrl: url,
    label: `PostgreSQL (${redact(url)})`,
    dispose: nothing,
  };
}

/** One session on the bench database, without the ORM: the generator, EXPLAIN and fixtures use it. */
export interface RawDb {
  engine: Engine;
  query<T extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    params?: unknown[],
  ): Promise<T[]>;
  /** The migrated Database (drizzle) over the same connection pool, for calls into lib/. */
  database: Database;
  close(): Promise<void>;
}

/**
 * Opens the bench database, applies the migrations and checks out one session (the generator's
 * session settings must stick). Statements may run for a long time here: index builds at 1M rows.
 */
export async function openRawDb(target: DatabaseTarget): Promise<RawDb> {
  const database = await openDatabase(target, { poolSize: 4, statementTimeoutMs: 6 * 3600_000 });
  try {
    await database.migrate();
    return await rawDbOf(database);
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** A RawDb over an open, migrated Database (tests pass theirs); closing it closes the Database. */
export async function rawDbOf(database: Database): Promise<RawDb> {
  const client = (database.db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (database.engine === "pglite") {
    const lite = client as PGlite;
    return {
      engine: "pglite",
      database,
      async query<T>(text: string, params?: unknown[]) {
        return (await lite.query<T>(text, params)).rows;
      },
      close: () => database.close(),
    };
  }
  const session = await (client as pg.Pool).connect();
  return {
    engine: "postgres",
    database,
    async query<T extends Record<string, unknown>>(text: string, params?: unknown[]) {
      return (await session.query<T>(text, params)).rows;
    },
    async close() {
      session.release();
      await database.close();
    },
  };
}

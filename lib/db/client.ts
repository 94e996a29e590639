import "server-only";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { migrate as migratePostgres } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { env, parseDatabaseUrl, type DatabaseTarget } from "@/lib/env";
import * as schema from "./schema";
import { acquireDirectoryLock, type DirectoryLock } from "./directory-lock";

export type Schema = typeof schema;
/**
 * What both drivers' results of `db.execute` have in common: node-postgres's QueryResult and
 * PGlite's Results both carry the rows as `rows`.
 */
export interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsResult<this["row"]>;
}
interface RowsResult<Row> {
  rows: Row[];
}
/** The one database type the data layer sees, whichever engine is behind it. */
export type Db = PgDatabase<RowsResultHKT, Schema>;
/** A transaction handle; it has the same query API as Db. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

export type Engine = "pglite" | "postgres";

export interface Database {
  db: Db;
  engine: Engine;
  target: DatabaseTarget;
  /** Applies the committed migrations in drizzle/ (idempotent). */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");

export interface OpenOptions {
  /** Statement timeout for PostgreSQL, in ms. */
  statementTimeoutMs?: number;
  poolSize?: number;
  /** Skip the one-process lock of an on-disk PGlite directory (only for tests of the lock itself). */
  skipLock?: boolean;
  /** Embedded engine only: start from a copy of this data directory (PGlite's dumpDataDir). */
  loadDataDir?: Blob;
}

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  if (target.kind === "postgres") return openPostgres(target, options);
  return openPglite(target, options);
}

async function openPglite(
  target: Extract<DatabaseTarget, { kind: "pglite-file" | "pglite-memory" }>,
  options: OpenOptions,
): Promise<Database> {
  // The engine itself (WASM) loads only when the embedded database is used.
  const [{ PGlite }, { pg_trgm }, { btree_gin }, { btree_gist }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite/contrib/btree_gin"),
    import("@electric-sql/pglite/contrib/btree_gist"),
  ]);
  let lock: DirectoryLock | undefined;
  let dataDir: string | undefined;
  if (target.kind === "pglite-file") {
    dataDir = path.resolve(target.dir);
    fs.mkdirSync(dataDir, { recursive: true });
    if (!options.skipLock) lock = acquireDirectoryLock(dataDir);
  }
  let client: InstanceType<typeof PGlite>;
  try {
    client = await PGlite.create({
      dataDir,
      loadDataDir: options.loadDataDir,
      extensions: { pg_trgm, btree_gin, btree_gist },
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    engine: "pglite",
    target,
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/**
 * Startup options of every API session: JIT off, since compiling large report plans at every
 * request costs more than it saves. A startup option costs no round trip.
 */
export const POSTGRES_SESSION_OPTIONS = "-c jit=off";

/**
 * node-postgres lets a URL's own `options` replace the pool's, so ours go first inside the URL:
 * both apply, and the operator's later `-c` settings win.
 */
export function postgresConnection(url: string): { connectionString: string; options: string } {
  if (!/[?&]options=/.test(url)) return { connectionString: url, options: POSTGRES_SESSION_OPTIONS };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not the URL's text: URL's own error carries it, and with it the password.
    throw new Error("DATABASE_URL is not a valid postgres:// URL");
  }
  const own = parsed.searchParams.get("options")?.trim();
  if (!own) return { connectionString: url, options: POSTGRES_SESSION_OPTIONS };
  const options = `${POSTGRES_SESSION_OPTIONS} ${own}`;
  parsed.searchParams.set("options", options);
  return { connectionString: parsed.href, options };
}

async function openPostgres(
  target: Extract<DatabaseTarget, { kind: "postgres" }>,
  options: OpenOptions,
): Promise<Database> {
  const statementTimeout = options.statementTimeoutMs ?? 4000;
  const pool = new pg.Pool({
    ...postgresConnection(target.url),
    max: options.poolSize ?? 10,
    // Fail fast when the server is down or saturated: the API answers 503 within 5 s.
    connectionTimeoutMillis: 2000,
    idleTimeoutMillis: 30_000,
    statement_timeout: statementTimeout,
    query_timeout: statementTimeout + 500,
    application_name: "fieldcrm",
  });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on("error", () => {});
  const db = drizzlePostgres({ client: pool, schema }) as unknown as Db;
  return {
    db,
    engine: "postgres",
    target,
    async migrate() {
      // Own connection without the API's timeouts: an index build on a large tenant outlasts them.
      // The advisory lock, held by this connection, serializes processes migrating at once.
      const client = new pg.Client({ connectionString: target.url, application_name: "fieldcrm-migrate" });
      await client.connect();
      try {
        await client.query("select pg_advisory_lock(727274001)");
        await migratePostgres(drizzlePostgres({ client, schema }) as never, {
          migrationsFolder: MIGRATIONS_FOLDER,
        });
      } finally {
        await client.end();
      }
    },
    close: () => pool.end(),
  };
}

// One database per server process. Kept on globalThis so that dev-mode module reloads reuse it.
const globalForDb = globalThis as unknown as { __fieldcrmDb?: Promise<Database> };

/**
 * The process's database, opened on first use (never at import time, never during `next build`).
 * On the embedded engine it also applies pending migrations, so a fresh checkout just works.
 */
export function getDatabase(): Promise<Database> {
  if (!globalForDb.__fieldcrmDb) {
    const e = env();
    const target = parseDatabaseUrl(e.DATABASE_URL);
    const opening = (async () => {
      const database = await openDatabase(target, {
        statementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
        poolSize: e.DB_POOL_SIZE,
      });
      if (database.engine === "pglite") {
        await database.migrate();
        await vacuumListCounts(database);
      }
      return database;
    })();
    // A failed open is not cached: the next request tries again (the server may come back).
    opening.catch(() => {
      if (globalForDb.__fieldcrmDb === opening) globalForDb.__fieldcrmDb = undefined;
    });
    globalForDb.__fieldcrmDb = opening;
  }
  return globalForDb.__fieldcrmDb;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Closes the process's database (graceful shutdown). */
export async function closeDatabase(): Promise<void> {
  const current = globalForDb.__fieldcrmDb;
  globalForDb.__fieldcrmDb = undefined;
  if (current) await (await current.catch(() => undefined))?.close();
}

/**
 * The embedded engine has no autovacuum, and folding list counts leaves dead rows, so the server
 * vacuums that small table when it opens the database.
 */
async function vacuumListCounts(database: Database): Promise<void> {
  await database.db.execute(sql`vacuum (analyze) list_counts`);
}

/** Tests point the process's database at their own (route handlers then use it). */
export function useDatabaseForTests(database: Database | undefined): void {
  globalForDb.__fieldcrmDb = database ? Promise.resolve(database) : undefined;
}

import fs from "node:fs";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { migrate as migratePostgres } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { env, parseDatabaseUrl, type DatabaseTarget } from "@/lib/env";
import * as schema from "./schema";
import { acquireDirectoryLock, type DirectoryLock } from "./directory-lock";
import { renderStatement } from "./render";

export type Schema = typeof schema;
/** The one database type the data layer sees, whichever engine is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
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
  const [{ PGlite }, { pg_trgm }, { btree_gin }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite/contrib/btree_gin"),
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
    client = await PGlite.create({ dataDir, extensions: { pg_trgm, btree_gin } });
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
 * The startup options every PostgreSQL session of the API begins with. No JIT compilation: the
 * server compiles, at every request, each plan whose cost passes `jit_above_cost` (100,000), as a
 * report over a larger tenant's plans or over a year of its days would. Compiled, the plan report
 * over the bench's 100,000 plans took 263-380 ms against 180-238 ms (bench/RESULTS.md, finding
 * 42). A startup option, as the statement timeout is: no round trip.
 */
export const POSTGRES_SESSION_OPTIONS = "-c jit=off";

/**
 * A pool's connection string and startup options for a PostgreSQL URL. node-postgres lets a URL's
 * own `options` parameter replace the pool's whole, so a URL that carries one gets ours put before
 * its own in the URL itself: both apply, and the URL's wins where it sets the same parameter (the
 * server applies a startup's `-c` settings in order), an operator's explicit choice.
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
      // On a connection of its own, without the pool's statement and query timeouts: those are
      // the API's (answer 503 within 5 s), and a migration's index build or backfill on a large
      // tenant takes longer. The advisory lock serializes concurrent migrators (several processes
      // starting at once); it goes with the connection.
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
 * The embedded engine runs no autovacuum, and the list counters (drizzle/0006) leave a dead row
 * for every delta they fold: without a vacuum now and then their table only grows. The server
 * vacuums it when it opens the database (a small table: milliseconds). PostgreSQL's autovacuum
 * does this by itself.
 */
async function vacuumListCounts(database: Database): Promise<void> {
  await database.db.execute(sql`vacuum (analyze) list_counts`);
}

/**
 * Runs raw SQL and returns its rows, read as Drizzle's sessions read them (timestamps as text).
 * The statement is rendered by renderStatement and sent to the driver (runStatement), as Drizzle's
 * `execute` would send it, without Drizzle's generic rendering and layers per call (bench/RESULTS.md,
 * findings 33 and 40): outside a transaction to the Db's own client, inside one to the client the
 * transaction holds. For a chunk renderStatement does not know, Drizzle runs it. Both drivers
 * answer with `{ rows }`; the common Db type cannot say so, hence the casts here.
 */
export async function queryRows<T extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const client = driverClientOf(db);
  if (client) {
    const rendered = renderStatement(query);
    if (rendered) return (await runStatement(client, rendered.sql, rendered.params)).rows as T[];
  }
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Where a statement on `db` goes: a root Db's `$client` (a pg Pool or a PGlite instance), or a
 * Drizzle transaction's session's client (the pooled pg client it holds, or PGlite's transaction),
 * so that the statement runs inside that transaction. `session` is Drizzle's own field, not its
 * documented API: without it the statement goes through Drizzle's `execute`, and render.test.ts
 * fails if a transaction's statement goes anywhere but its own client.
 */
function driverClientOf(db: DbOrTx): DriverClient | undefined {
  return (
    (db as { $client?: DriverClient }).$client ??
    (db as unknown as { session?: { client?: DriverClient } }).session?.client
  );
}

/**
 * A fixed statement sent as a named prepared statement: each connection parses and plans it once
 * and then only binds values. For the statements every request runs (the API key check, get by
 * id), where planning cost more than executing (bench/RESULTS.md, finding 4). `name` must be
 * unique per text.
 */
export interface PreparedStatement {
  name: string;
  text: string;
}

/**
 * The types whose text Drizzle's sessions keep as it comes, for its columns' mappers to read
 * (timestamps, dates, intervals, and arrays of those and of numeric): queryPrepared reads them the
 * same way, so its rows are the rows queryRows gives, whichever engine.
 */
const KEPT_AS_TEXT = new Set([1082, 1114, 1184, 1186, 1182, 1115, 1185, 1187, 1231]);
const asText = (value: string) => value;
const PG_TYPES = {
  getTypeParser: (oid: number, format?: "text" | "binary") =>
    KEPT_AS_TEXT.has(oid) ? asText : pg.types.getTypeParser(oid, format),
};
const PGLITE_PARSERS = Object.fromEntries([...KEPT_AS_TEXT].map((oid) => [oid, asText]));

/**
 * Runs a prepared statement (not inside a transaction); its rows are those queryRows would give
 * for the same text. On PostgreSQL it is a named statement of node-postgres, which each pooled
 * connection prepares on first use. PGlite has no named statements and runs in-process, with no
 * round trip to save: there it is a plain query.
 */
export async function queryPrepared<T extends Record<string, unknown>>(
  db: Db,
  statement: PreparedStatement,
  values: unknown[],
): Promise<T[]> {
  return (await runStatement(driverClientOf(db)!, statement.text, values, statement.name)).rows as T[];
}

/** PGlite's query, on its instance or in one of its transactions. */
interface PgliteClient {
  query(
    text: string,
    values: unknown[],
    options: { parsers: Record<number, (value: string) => unknown> },
  ): Promise<{ rows: unknown[] }>;
}

/** A driver client: a pg Pool or pooled client, or PGlite (its instance or a transaction). */
type DriverClient = pg.Pool | pg.Client | PgliteClient;

/**
 * A statement sent to the driver, its rows read as Drizzle's sessions read them (KEPT_AS_TEXT);
 * with a name, a named prepared statement on PostgreSQL (PGlite has none: a plain query there).
 */
function runStatement(
  client: DriverClient,
  text: string,
  values: unknown[],
  name?: string,
): Promise<{ rows: unknown[] }> {
  return client instanceof pg.Pool || client instanceof pg.Client
    ? client.query({ name, text, values, types: PG_TYPES })
    : client.query(text, values, { parsers: PGLITE_PARSERS });
}

/** Tests point the process's database at their own (route handlers then use it). */
export function useDatabaseForTests(database: Database | undefined): void {
  globalForDb.__fieldcrmDb = database ? Promise.resolve(database) : undefined;
}

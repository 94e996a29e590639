import pg from "pg";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { postgresConnection, type Database, type Db } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import type { DatabaseTarget } from "@/lib/env";

/**
 * A statement our data layer sent, as the driver got it. Statements overlapping in time share a
 * `group`, so the baseline replays them in parallel as we do.
 */
export interface CapturedStatement {
  text: string;
  params: unknown[];
  group: number;
  /** The name of a prepared statement (node-postgres `{ name, text }`), so a replay prepares it too. */
  name?: string;
}

export class StatementRecorder {
  private statements: CapturedStatement[] | null = null;
  private inFlight = 0;
  private group = 0;

  /** Runs fn and answers what it returned and the statements it sent. */
  async record<T>(fn: () => Promise<T>): Promise<{ result: T; statements: CapturedStatement[] }> {
    this.statements = [];
    this.inFlight = 0;
    this.group = 0;
    try {
      const result = await fn();
      return { result, statements: this.statements };
    } finally {
      this.statements = null;
    }
  }

  /** Called when a statement is sent; the returned function when its answer came back. */
  begin(text: string, params: unknown[] | undefined, name?: string): () => void {
    if (!this.statements) return () => {};
    if (this.inFlight === 0) this.group++;
    this.inFlight++;
    this.statements.push({
      text,
      params: (params ?? []).map(plainParam),
      group: this.group,
      ...(name ? { name } : {}),
    });
    let ended = false;
    return () => {
      if (!ended) {
        ended = true;
        this.inFlight--;
      }
    };
  }
}

/** Parameters as the driver would send them, in a JSON-safe form (Dates as ISO text). */
function plainParam(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  // As the driver sends it (a page's offset is a bigint); JSON has no bigint.
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(plainParam);
  return value;
}

type QueryFn = (...args: unknown[]) => unknown;

function textOf(first: unknown): string {
  return typeof first === "string" ? first : String((first as { text?: string }).text ?? "");
}

/** Wraps a pg client's query so that every call is recorded (promise and callback forms). */
function wrapPgClient(client: pg.PoolClient, recorder: StatementRecorder): void {
  const original = client.query.bind(client) as unknown as QueryFn;
  const wrapped: QueryFn = (...args) => {
    const [first, second] = args;
    const params = Array.isArray(second) ? second : (first as { values?: unknown[] }).values;
    const name = typeof first === "object" ? (first as { name?: string }).name : undefined;
    const end = recorder.begin(textOf(first), params, name);
    const last = args[args.length - 1];
    if (typeof last === "function") {
      args[args.length - 1] = (...cbArgs: unknown[]) => {
        end();
        (last as QueryFn)(...cbArgs);
      };
      return original(...args);
    }
    const result = original(...args) as Promise<unknown>;
    return result.finally(end);
  };
  (client as unknown as { query: QueryFn }).query = wrapped;
}

/**
 * A Database like lib/db/client's, whose statements the recorder sees. PostgreSQL: its own pool
 * (of the API's default size). PGlite: the already open instance (one process per directory).
 */
export async function capturingDatabase(
  target: DatabaseTarget,
  recorder: StatementRecorder,
  pglite?: PGlite,
): Promise<Database> {
  if (target.kind === "postgres") {
    // Sessions set up as the API's, so a statement runs as it does there.
    const pool = new pg.Pool({
      ...postgresConnection(target.url),
      max: 10,
      application_name: "fieldcrm-bench",
    });
    pool.on("connect", (client) => wrapPgClient(client, recorder));
    pool.on("error", () => {});
    // Connected sessions waiting, as in a running server: statements sent together then start
    // together, and the recorder sees them as one group (a cold pool would serialize them).
    const warm = await Promise.all(Array.from({ length: 10 }, () => pool.connect()));
    for (const client of warm) client.release();
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return { db, engine: "postgres", target, migrate: async () => {}, close: () => pool.end() };
  }
  if (!pglite) throw new Error("capturingDatabase: the open PGlite instance is needed");
  const lite = pglite as unknown as {
    query: QueryFn;
    transaction: (fn: (tx: { query: QueryFn }) => Promise<unknown>) => Promise<unknown>;
  };
  const proxy = Object.create(pglite) as typeof lite;
  proxy.query = (...args) => {
    const end = recorder.begin(textOf(args[0]), args[1] as unknown[] | undefined);
    return (lite.query(...args) as Promise<unknown>).finally(end);
  };
  proxy.transaction = (fn) => {
    const endBegin = recorder.begin("begin", []);
    endBegin();
    return lite
      .transaction((tx) => {
        const txProxy = Object.create(tx) as { query: QueryFn };
        txProxy.query = (...args) => {
          const end = recorder.begin(textOf(args[0]), args[1] as unknown[] | undefined);
          return (tx.query(...args) as Promise<unknown>).finally(end);
        };
        return fn(txProxy);
      })
      .finally(() => recorder.begin("commit", [])());
  };
  const db = drizzlePglite(proxy as unknown as PGlite, { schema }) as unknown as Db;
  return { db, engine: "pglite", target, migrate: async () => {}, close: async () => {} };
}

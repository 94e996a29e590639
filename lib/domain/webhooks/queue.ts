import "server-only";
import { sql, type SQL } from "drizzle-orm";
import PgBoss from "pg-boss";
import type { Database, DbOrTx } from "@/lib/db/client";
import { env } from "@/lib/env";

/**
 * The delivery queue is pg-boss 10: it runs on PostgreSQL with its own pool, and on the embedded
 * PGlite through pg-boss's `db` adapter (one connection, in this process). Its schema and queues
 * are created by our migrations, so a change's transaction can always add a job.
 */
export const DELIVER_QUEUE = "webhook-deliver";
export const PRUNE_QUEUE = "webhook-prune";
export const PGBOSS_SCHEMA = "pgboss";

export interface DeliverJob {
  companyId: string;
  deliveryId: string;
}

type Executor = PgBoss.Db;

/** pg-boss's `$1`-style SQL text with each `$n` bound as a Drizzle parameter. */
function boundSql(text: string, values: unknown[]): SQL {
  const chunks = text
    .split(/\$(\d+)/)
    .map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`));
  return sql.join(chunks, sql.raw(""));
}

/**
 * pg-boss speaks `$1`-style SQL; Drizzle's execute binds its own parameters, so each `$n` becomes
 * a bound parameter: the job is then added in the caller's transaction on either engine.
 */
export function drizzleExecutor(tx: DbOrTx): Executor {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const result = await tx.execute(boundSql(text, values));
      return { rows: result.rows as never[] } as never;
    },
  };
}

// Only builds SQL: never started, never connects (its `db` refuses to be used).
let sender: PgBoss | undefined;
function jobSender(): PgBoss {
  sender ??= new PgBoss({
    schema: PGBOSS_SCHEMA,
    db: {
      executeSql: () => Promise.reject(new Error("the job sender has no connection of its own")),
    },
  });
  return sender;
}

/** Adds jobs of any queue in the caller's transaction: they exist once it commits. */
export async function addJobs(tx: DbOrTx, jobs: PgBoss.JobInsert[]): Promise<void> {
  if (jobs.length === 0) return;
  await jobSender().insert(jobs, { db: drizzleExecutor(tx) });
}

/** The delivery jobs of these deliveries, to start at `startAfter` (or now). */
export const deliverJobs = (jobs: readonly DeliverJob[], startAfter?: Date): PgBoss.JobInsert[] =>
  jobs.map((data) => ({ name: DELIVER_QUEUE, data, ...(startAfter ? { startAfter } : {}) }));

/** Adds one delivery job per id in the caller's transaction, to start at `startAfter` (or now). */
export async function addDeliverJobs(
  tx: DbOrTx,
  companyId: string,
  deliveryIds: string[],
  startAfter?: Date,
): Promise<void> {
  const jobs = deliveryIds.map((deliveryId) => ({ companyId, deliveryId }));
  await addJobs(tx, deliverJobs(jobs, startAfter));
}

/** The connection pg-boss itself uses to fetch, complete and maintain jobs. */
export function bossFor(database: Database): PgBoss {
  const common = {
    schema: PGBOSS_SCHEMA,
    // Our migrations own the schema.
    migrate: false,
    supervise: true,
    schedule: true,
    // Maintenance fails and retries expired jobs (a worker died mid-send): every 120 s, pg-boss's
    // default, or every two leases when WEBHOOKS_LEASE_SECONDS is shorter (tests).
    maintenanceIntervalSeconds: Math.min(120, 2 * env().WEBHOOKS_LEASE_SECONDS),
  };
  if (database.target.kind === "postgres") {
    return new PgBoss({
      ...common,
      connectionString: database.target.url,
      max: 4,
      application_name: "fieldcrm-webhooks",
    });
  }
  // PGlite: its own client, one statement at a time (pg-boss's DDL comes as one multi-statement text).
  const client = (database.db as unknown as { $client: PgliteClient }).$client;
  return new PgBoss({
    ...common,
    db: {
      async executeSql(text: string, values?: unknown[]) {
        if (values && values.length > 0) return (await client.query(text, values)) as never;
        const results = await client.exec(text);
        return (results[results.length - 1] ?? { rows: [] }) as never;
      },
    },
  });
}

interface PgliteClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<{ rows: unknown[] }[]>;
}

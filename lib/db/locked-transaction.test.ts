import { sql } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testEngine } from "@/lib/testing/test-database";
import { advisoryLockKey } from "./advisory-locks";
import { lockedTransaction, queryRows, type Database, type DbOrTx } from "./client";

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`create table locked_tx_probe (n int not null)`);
});
afterAll(async () => {
  await database?.close();
});

/** The advisory locks the caller's session holds now. */
async function heldLocks(tx: DbOrTx): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid() and granted`,
  );
  return row!.n;
}

async function probeRows(): Promise<number[]> {
  const rows = await queryRows<{ n: number }>(database.db, sql`select n from locked_tx_probe order by n`);
  return rows.map((r) => r.n);
}

// Two names whose keys have opposite signs: both ends of the bigint range are sent as written.
const names = ["leads:phone:co_x:5125550100", "leads:email:co_x:b@example.com"];
const keys = names.map(advisoryLockKey);

describe(`lockedTransaction (${testEngine()})`, () => {
  it("derives a fixed 64-bit key from a name", () => {
    expect(advisoryLockKey(names[0]!)).toBe(keys[0]);
    expect(keys[0]! < 0n && keys[1]! > 0n).toBe(true);
    for (const key of keys) expect(BigInt.asIntN(64, key)).toBe(key);
  });

  it("holds its locks while the work runs, commits the work and then releases them", async () => {
    const held = await lockedTransaction(database.db, keys, async (tx) => {
      await tx.execute(sql`insert into locked_tx_probe values (1)`);
      return heldLocks(tx);
    });
    expect(held).toBe(2);
    expect(await probeRows()).toEqual([1]);
    expect(await heldLocks(database.db)).toBe(0);
  });

  it("rolls the work back when it throws, and leaves the connection usable", async () => {
    const failure = new Error("work failed");
    await expect(
      lockedTransaction(database.db, keys, async (tx) => {
        await tx.execute(sql`insert into locked_tx_probe values (2)`);
        throw failure;
      }),
    ).rejects.toBe(failure);
    // A statement error inside the work aborts the transaction; the rollback still ends it.
    await expect(
      lockedTransaction(database.db, keys, async (tx) => {
        await tx.execute(sql`insert into locked_tx_probe values (3)`);
        await tx.execute(sql`select 1 / 0`);
      }),
    ).rejects.toThrow(/Failed query: select 1 \/ 0/);
    expect(await probeRows()).toEqual([1]);
    // More transactions than the pool has connections: every connection came back clean.
    for (let n = 10; n < 25; n++) {
      await lockedTransaction(database.db, keys.slice(0, 1), async (tx) => {
        await tx.execute(sql`insert into locked_tx_probe values (${n})`);
      });
    }
    expect((await probeRows()).length).toBe(16);
    expect(await heldLocks(database.db)).toBe(0);
  });
});

if (testEngine() === "postgres") {
  describe("lockedTransaction on PostgreSQL", () => {
    it("makes a second transaction on the same key wait for the first to commit", async () => {
      const order: string[] = [];
      let releaseFirst!: () => void;
      const firstHolds = new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      let firstLocked!: () => void;
      const locked = new Promise<void>((resolve) => {
        firstLocked = resolve;
      });
      const first = lockedTransaction(database.db, keys.slice(0, 1), async () => {
        firstLocked();
        await firstHolds;
        order.push("first done");
      });
      await locked;
      const second = lockedTransaction(database.db, keys.slice(0, 1), async () => {
        order.push("second ran");
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(order).toEqual([]);
      releaseFirst();
      await Promise.all([first, second]);
      expect(order).toEqual(["first done", "second ran"]);
    });

    it("sends BEGIN and the locks as one message", async () => {
      const pool = (database.db as unknown as { $client: pg.Pool }).$client;
      const sent: string[] = [];
      const recorded: pg.PoolClient[] = [];
      const record = (client: pg.PoolClient) => {
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
          const first = args[0];
          sent.push(typeof first === "string" ? first : String((first as { text: string }).text));
          return query(...args);
        };
        recorded.push(client);
      };
      pool.on("acquire", record);
      try {
        await lockedTransaction(database.db, keys, async (tx) => {
          await tx.execute(sql`select 1`);
        });
      } finally {
        pool.off("acquire", record);
        // The prototype's query again.
        for (const client of recorded) delete (client as unknown as { query?: unknown }).query;
      }
      expect(sent).toEqual([
        `begin; select pg_advisory_xact_lock(${keys[0]}), pg_advisory_xact_lock(${keys[1]})`,
        "select 1",
        "commit",
      ]);
    });
  });
}

import fs from "node:fs";
import net from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_START_UP_DEATHS } from "@/scripts/cluster";
import {
  engine,
  freePort,
  freshDatabaseWithKey,
  sendRequest,
  inFlightRequests,
  startServer,
  stopServer,
  VERSION,
  waitForOutput,
  type FreshDatabase,
  type ServerProcess,
} from "./harness";

// `npm start` with WEB_CONCURRENCY on the production build: workers share the load, are replaced,
// and stop gracefully; the embedded engine and invalid values are refused.

let db: FreshDatabase;
let key = "";
let server: ServerProcess | undefined;

beforeAll(async () => {
  ({ db, key } = await freshDatabaseWithKey());
});
afterAll(async () => {
  await stopServer(server);
  await db?.drop();
});

const headers = () => ({ ...VERSION, "x-api-key": key, "content-type": "application/json" });

/** A request on a connection of its own: the primary hands each new connection to the next worker. */
const request = (
  url: string,
  method = "GET",
  body?: string,
  pieces = 1,
  delayMs = 0,
  onAccepted?: () => void,
) => sendRequest(url, { method, headers: headers(), body, pieces, delayMs, onAccepted });

const leadBody = (n: number) =>
  JSON.stringify({ name: `Cluster lead ${n}`, email: `cluster.${n}@example.test`, notes: "x".repeat(2000) });

/** The worker processes: the primary's children that run scripts/start.ts (not tsx's esbuild). */
function workerPids(primary: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return ppid === primary && fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("start.ts");
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number)
    .sort((a, b) => a - b);
}

/** utime + stime of a process, in clock ticks. */
function cpuTicks(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** Sends a burst of reads, each on its own connection, and returns each worker's share of the CPU it cost. */
async function burst(url: string, pids: number[], requests = 240, parallel = 4): Promise<number[]> {
  const before = pids.map(cpuTicks);
  let sent = 0;
  const statuses: number[] = [];
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (sent < requests) {
        sent++;
        statuses.push((await request(url)).status);
      }
    }),
  );
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  const used = pids.map((pid, i) => cpuTicks(pid) - before[i]!);
  const total = used.reduce((a, b) => a + b, 0);
  expect(total).toBeGreaterThan(0);
  return used.map((u) => u / total);
}

describe(`WEB_CONCURRENCY (${engine})`, () => {
  it.each(["0", "-1", "abc", "1.5"])("refuses WEB_CONCURRENCY=%s with a clear message", async (value) => {
    const refused = await startServer({
      databaseUrl: db.url,
      env: { WEB_CONCURRENCY: value },
      waitUntilUp: false,
    });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain(
      `Error: Invalid environment: WEB_CONCURRENCY: must be a positive whole number or "auto", not "${value}"`,
    );
    expect(refused.output()).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  if (engine === "pglite") {
    it("refuses two workers on the embedded database, with a clear message and exit 1", async () => {
      const refused = await startServer({
        databaseUrl: db.url,
        env: { WEB_CONCURRENCY: "2" },
        waitUntilUp: false,
      });
      expect(await refused.exited).toBe(1);
      expect(refused.output()).toContain(
        "Error: WEB_CONCURRENCY=2 asks for 2 server processes, but the embedded database (PGlite) can " +
          "only be opened by one process. Unset WEB_CONCURRENCY (or set it to 1), or set DATABASE_URL " +
          "to a PostgreSQL server.",
      );
      expect(refused.output()).not.toMatch(/\n\s+at /);
      expect(refused.output()).not.toContain("FieldCRM:");
    });
  } else {
    it("answers from two workers, replaces one that dies, and on SIGTERM finishes the requests in flight and exits 0", async () => {
      server = await startServer({ databaseUrl: db.url, env: { WEB_CONCURRENCY: "2" } });
      await waitForOutput(server, /FieldCRM: http:\/\/\S+ with 2 workers\n/);
      const primary = server.child.pid!;
      const created = await request(`${server.url}/api/leads`, "POST", leadBody(1));
      expect(created.status).toBe(201);
      const leadUrl = `${server.url}/api/leads/${String(created.body.id)}`;

      const pids = workerPids(primary);
      expect(pids).toHaveLength(2);
      for (const share of await burst(leadUrl, pids)) expect(share).toBeGreaterThan(0.25);

      // A worker dies: another one takes its place, and the survivor answers meanwhile.
      const [killed, survivor] = pids as [number, number];
      process.kill(killed, "SIGKILL");
      await waitForOutput(server, new RegExp(`\\(pid ${killed}\\) was killed by SIGKILL; starting another`));
      for (let i = 0; i < 10; i++) expect((await request(leadUrl)).status).toBe(200);
      await waitForOutput(server, /worker \d+ \(pid \d+\) ready\n/, 60_000);
      const replaced = workerPids(primary);
      expect(replaced).toHaveLength(2);
      expect(replaced).toContain(survivor);
      expect(replaced).not.toContain(killed);
      // The new worker's first requests load its code, which costs more CPU than the requests
      // themselves: one burst to warm it, then the shares of the next are compared.
      await burst(leadUrl, replaced);
      for (const share of await burst(leadUrl, replaced)) expect(share).toBeGreaterThan(0.25);

      // SIGTERM with slow writes in flight on both workers: they all finish, then the exit is 0.
      const inFlight = inFlightRequests(4, (i, onAccepted) =>
        request(`${server!.url}/api/leads`, "POST", leadBody(2 + i), 6, 250, onAccepted),
      );
      await inFlight.accepted; // every request is on a worker; their bodies are still arriving
      server.child.kill("SIGTERM");
      const results = await inFlight.results;
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
      expect(await server.exited).toBe(0);
      const output = server.output();
      expect(output).toContain("SIGTERM: stopping 2 worker(s)");
      // Each worker had requests in flight, let them finish and closed its database.
      const stopping = [...output.matchAll(/worker (\d+): SIGTERM: stopping; (\d+) request\(s\) in flight/g)];
      expect(stopping).toHaveLength(2);
      for (const match of stopping) expect(Number(match[2])).toBeGreaterThan(0);
      expect(output.match(/worker \d+: database closed; stopped/g)).toHaveLength(2);
      expect(output).toMatch(/all workers stopped\n$/);
      expect(workerPids(primary)).toEqual([]);

      // The writes are stored.
      const database = await db.open();
      try {
        const rows = (
          await database.db.execute<{ n: number }>(
            sql`select count(*)::int as n from leads where name like 'Cluster lead %'`,
          )
        ).rows;
        expect(rows[0]?.n).toBe(5);
      } finally {
        await database.close();
      }
    });

    it("gives up, with back-off and exit 1, when the workers keep dying at start-up", async () => {
      // Another program holds the port: every worker fails to listen.
      const port = await freePort();
      const blocker = net.createServer();
      await new Promise<void>((resolve) => blocker.listen(port, "0.0.0.0", resolve));
      try {
        const failing = await startServer({
          databaseUrl: db.url,
          port,
          env: { WEB_CONCURRENCY: "2" },
          waitUntilUp: false,
        });
        const timer = setTimeout(() => failing.child.kill("SIGKILL"), 150_000);
        const status = await failing.exited;
        clearTimeout(timer);
        const output = failing.output();
        expect(status).toBe(1);
        expect(output).toContain("EADDRINUSE");
        expect(output).toMatch(/starting another in 0\.5 s\n[\s\S]*starting another in 1 s\n/);
        expect(output).toContain(`${MAX_START_UP_DEATHS} workers in a row died at start-up: giving up`);
        // No more workers than the limit (and the one starting when it gave up) were ever started.
        const failures = output.match(/worker \d+: could not start/g) ?? [];
        expect(failures.length).toBeGreaterThanOrEqual(MAX_START_UP_DEATHS);
        expect(failures.length).toBeLessThanOrEqual(MAX_START_UP_DEATHS + 1);
        expect(output).not.toContain("FieldCRM:");
      } finally {
        await new Promise((resolve) => blocker.close(resolve));
      }
    });
  }
});

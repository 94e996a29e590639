// Issue #55's webhook targets, each on a scratch database of its own (dropped after): the write
// cost of one subscribed endpoint, one worker's delivery rate to a local receiver, and the
// worker's memory while a large backlog drains. Not part of `npm run bench`.
//
//   npx tsx --conditions=react-server bench/webhooks.ts [--engine postgres|pglite] [--events 5000]
//     [--backlogs 10000,100000] [--rounds 8] [--calls 100] [--parts write,throughput,backlog]
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase, type Database, type Db, type Engine } from "@/lib/db/client";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "@/lib/db/schema";
import { upsertLead } from "@/lib/domain/leads";
import { newWebhookSecret } from "@/lib/domain/webhooks/endpoints";
import { emitRecordEvents } from "@/lib/domain/webhooks/emit";
import type { DatabaseTarget } from "@/lib/env";
import { ID_PREFIX, newId } from "@/lib/ids";
import { upsertLeadBodySchema } from "@/lib/schemas/leads";
import { createCompany, testKeyPrincipal } from "@/lib/testing/factories";
import { StatementRecorder, capturingDatabase } from "./capture";
import { DEFAULT_SERVER_URL, freshDatabase } from "./db";
import { median } from "./load";
import { uptime } from "./machine";

const ROOT = path.resolve(__dirname, "..");
const PARTS = ["write", "throughput", "backlog"] as const;
type Part = (typeof PARTS)[number];

/** Issue #55's targets. */
export const TARGETS = { writeOverhead: 0.1, eventsPerSecond: 200 } as const;

export interface Options {
  engine: Engine;
  events: number;
  backlogs: number[];
  rounds: number;
  calls: number;
  parts: Part[];
}

const positive = (name: string, text: string): number => {
  const n = Number(text.replace(/_/g, ""));
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`--${name} must be a positive whole number, not "${text}"`);
  return n;
};

/** The command line; a bad value is an error that names its flag. */
export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      engine: { type: "string", default: "postgres" },
      events: { type: "string", default: "5000" },
      backlogs: { type: "string", default: "10000,100000" },
      rounds: { type: "string", default: "8" },
      calls: { type: "string", default: "100" },
      parts: { type: "string", default: PARTS.join(",") },
    },
    strict: true,
  });
  if (values.engine !== "postgres" && values.engine !== "pglite")
    throw new Error(`--engine must be postgres or pglite, not "${values.engine}"`);
  const parts = values.parts.split(",").map((p) => p.trim());
  const unknown = parts.find((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown !== undefined) throw new Error(`--parts takes ${PARTS.join(", ")}, not "${unknown}"`);
  return {
    engine: values.engine,
    events: positive("events", values.events),
    backlogs: values.backlogs.split(",").map((b) => positive("backlogs", b.trim())),
    rounds: positive("rounds", values.rounds),
    calls: positive("calls", values.calls),
    parts: parts as Part[],
  };
}

/**
 * Rounds of the same work without and with the endpoint, each round's ratio with/without: their
 * median (a busy moment slows both halves of a round, so it cancels out of that round's ratio).
 */
export function pairedRatio(pairs: readonly { without: number; with: number }[]): {
  median: number;
  min: number;
  max: number;
} {
  if (pairs.length === 0) throw new Error("no rounds");
  const ratios = pairs.map((p) => p.with / p.without);
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

/** The resident set size in /proc/<pid>/status, in MB; undefined once the process is gone. */
export function rssMbOf(status: string): number | undefined {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  return match ? Number(match[1]) / 1024 : undefined;
}

export interface RssSample {
  /** ms since the worker started. */
  atMs: number;
  mb: number;
  /** Deliveries received so far. */
  delivered: number;
}

/**
 * Start (the first sample once the worker delivers), peak, end (the last sample) and the peak in
 * each half of the drain: a peak that grows with the backlog shows as a later half above the first.
 */
export function summarizeRss(samples: readonly RssSample[], total: number) {
  const working = samples.filter((s) => s.delivered > 0);
  const list = working.length > 0 ? working : samples;
  if (list.length === 0) throw new Error("no samples");
  const peakOf = (xs: readonly RssSample[]) => (xs.length === 0 ? NaN : Math.max(...xs.map((s) => s.mb)));
  return {
    startMb: list[0]!.mb,
    peakMb: peakOf(list),
    endMb: list[list.length - 1]!.mb,
    firstHalfPeakMb: peakOf(list.filter((s) => s.delivered <= total / 2)),
    secondHalfPeakMb: peakOf(list.filter((s) => s.delivered > total / 2)),
    samples: samples.length,
  };
}

// ---------------------------------------------------------------------------------------------

const log = (message: string) => console.error(`[webhooks-bench] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

function gitHead(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: ROOT,
      encoding: "utf8",
    }).trim();
    const changed = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: ROOT,
      encoding: "utf8",
    }).trim();
    return changed ? `${head} (with uncommitted changes)` : head;
  } catch {
    return "?";
  }
}

/** A migrated database made for one part and removed after it. */
interface Scratch {
  target: DatabaseTarget;
  url: string;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

let scratchCount = 0;
async function scratchDatabase(engine: Engine): Promise<Scratch> {
  scratchCount++;
  if (engine === "pglite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fcrm-hookbench-"));
    const target: DatabaseTarget = { kind: "pglite-file", dir };
    const scratch: Scratch = {
      target,
      url: `file:${dir}`,
      open: () => openDatabase(target),
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
    const database = await scratch.open();
    await database.migrate();
    await database.close();
    return scratch;
  }
  const { url, drop } = await freshDatabase(
    process.env.TEST_DATABASE_URL || DEFAULT_SERVER_URL,
    `fcrm_hookbench_${scratchCount}`,
  );
  const target: DatabaseTarget = { kind: "postgres", url };
  const scratch: Scratch = {
    target,
    url,
    open: () => openDatabase(target, { poolSize: 4, statementTimeoutMs: 600_000 }),
    drop,
  };
  const database = await scratch.open();
  await database.migrate();
  await database.close();
  return scratch;
}

/** A local receiver answering 200 at once; it counts each webhook-id it is sent. */
async function startReceiver() {
  const seen = new Map<string, number>();
  let requests = 0;
  let firstAt = 0;
  let lastAt = 0;
  const server = http.createServer((req, res) => {
    requests++;
    const now = performance.now();
    if (firstAt === 0) firstAt = now;
    lastAt = now;
    const id = String(req.headers["webhook-id"] ?? "");
    seen.set(id, (seen.get(id) ?? 0) + 1);
    req.resume();
    res.statusCode = 200;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    get distinct() {
      return seen.size;
    },
    get requests() {
      return requests;
    },
    get firstAt() {
      return firstAt;
    },
    get lastAt() {
      return lastAt;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function addEndpoint(db: Db, companyId: string, url: string): Promise<string> {
  const id = newId(ID_PREFIX.webhookEndpoint);
  await db.insert(webhookEndpoints).values({
    companyId,
    id,
    url,
    events: ["lead.created", "lead.updated"],
    secret: newWebhookSecret(),
  });
  return id;
}

function leadBody(tag: string, i: number) {
  const digits = `7${String(i).padStart(9, "0")}`;
  return upsertLeadBodySchema.parse({
    name: `Hook Lead ${tag} ${i}`,
    phone: `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`,
    email: `hook.${tag}.${i}@bench.example`,
    source: "Website",
    stage: "new",
    service_type: "General Pest",
    tags: ["bench"],
    address_city: "Austin",
    address_state: "TX",
  });
}

const createLead = async (db: Db, companyId: string, tag: string, i: number) =>
  (
    await upsertLead({
      ctx: { db, companyId, principal: testKeyPrincipal(companyId) },
      input: leadBody(tag, i),
    })
  ).lead.id;

const updateLead = (db: Db, companyId: string, id: string, i: number) =>
  upsertLead({
    ctx: { db, companyId, principal: testKeyPrincipal(companyId) },
    input: upsertLeadBodySchema.parse({ id, stage: i % 2 ? "contacted" : "new", notes: `n${i}` }),
  });

/** Runs `work(i)` for i < n, `concurrency` at a time. */
async function pool(n: number, concurrency: number, work: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

/** PostgreSQL: CPU ms of this database's server processes (our pool's), from /proc. */
async function backendCpuMs(database: Database): Promise<number | undefined> {
  if (database.target.kind !== "postgres") return undefined;
  const { rows } = await database.db.execute<{ pid: number }>(
    sql`select pid from pg_stat_activity where datname = current_database()`,
  );
  let sum = 0;
  for (const { pid } of rows) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      sum += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // Ended meanwhile, or not on this machine.
    }
  }
  return sum;
}

// --- 1. The write cost of one subscribed endpoint -----------------------------------------------

async function writeCost(opts: Options) {
  const scratch = await scratchDatabase(opts.engine);
  const database = await scratch.open();
  const loadBefore = uptime();
  try {
    const { db } = database;
    // Two tenants on one database: "without" has no endpoint, "with" one subscribed to lead events.
    // No worker runs, so the events wait for the relay: only the write is measured.
    const without = (await createCompany(db)).id;
    const withHook = (await createCompany(db)).id;
    await addEndpoint(db, withHook, "http://127.0.0.1:9/hook");
    const made: Record<string, string[]> = { [without]: [], [withHook]: [] };
    let serial = 0;
    const batch = async (companyId: string, kind: "create" | "update", n: number) => {
      const ids = made[companyId]!;
      const dbBefore = await backendCpuMs(database);
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < n; i++) {
        serial++;
        if (kind === "create") ids.push(await createLead(db, companyId, "w", serial));
        else await updateLead(db, companyId, ids[(serial * 7919) % ids.length]!, serial);
      }
      const wall = (performance.now() - started) / n;
      const used = process.cpuUsage(cpu);
      const dbAfter = await backendCpuMs(database);
      const dbMs = dbBefore === undefined || dbAfter === undefined ? undefined : (dbAfter - dbBefore) / n;
      return { wall, cpu: (used.user + used.system) / 1000 / n, dbMs };
    };
    log(`write cost: warm-up`);
    for (const companyId of [without, withHook]) await batch(companyId, "create", Math.max(50, opts.calls));
    const results = {
      create: [] as { without: Awaited<ReturnType<typeof batch>>; with: Awaited<ReturnType<typeof batch>> }[],
      update: [] as { without: Awaited<ReturnType<typeof batch>>; with: Awaited<ReturnType<typeof batch>> }[],
    };
    for (let round = 0; round < opts.rounds; round++) {
      for (const kind of ["create", "update"] as const) {
        // Alternating order: neither side always runs first (or on a warmer cache).
        const order =
          (round + (kind === "update" ? 1 : 0)) % 2 === 0 ? [without, withHook] : [withHook, without];
        const got = new Map<string, Awaited<ReturnType<typeof batch>>>();
        for (const companyId of order) got.set(companyId, await batch(companyId, kind, opts.calls));
        results[kind].push({ without: got.get(without)!, with: got.get(withHook)! });
      }
      log(`write cost: round ${round + 1}/${opts.rounds} (${uptime().replace(/^.*load/, "load")})`);
    }
    const [written] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookEvents)
      .where(eq(webhookEvents.companyId, withHook));
    // The statements of one call of each kind on each side, untimed, through a recording driver.
    const recorder = new StatementRecorder();
    const capturing = await capturingDatabase(
      database.target,
      recorder,
      database.engine === "pglite" ? (db as unknown as { $client: PGlite }).$client : undefined,
    );
    const statements: Record<string, string[]> = {};
    try {
      for (const [side, companyId] of [
        ["without", without],
        ["with", withHook],
      ] as const) {
        serial++;
        const created = await recorder.record(() => createLead(capturing.db, companyId, "s", serial));
        const updated = await recorder.record(() =>
          updateLead(capturing.db, companyId, created.result, serial),
        );
        const words = (list: { text: string }[]) =>
          list.map((st) => st.text.trim().split(/\s+/)[0]!.toLowerCase());
        statements[`create ${side}`] = words(created.statements);
        statements[`update ${side}`] = words(updated.statements);
      }
    } finally {
      await capturing.close();
    }
    const summarize = (kind: "create" | "update") => {
      const rounds = results[kind];
      const side = (k: "without" | "with") => ({
        wallMs: median(rounds.map((r) => r[k].wall)),
        cpuMs: median(rounds.map((r) => r[k].cpu)),
        dbMs: rounds[0]![k].dbMs === undefined ? undefined : median(rounds.map((r) => r[k].dbMs!)),
      });
      const total = (s: { cpu: number; dbMs?: number }) => s.cpu + (s.dbMs ?? 0);
      return {
        without: side("without"),
        with: side("with"),
        wallRatio: pairedRatio(rounds.map((r) => ({ without: r.without.wall, with: r.with.wall }))),
        cpuRatio: pairedRatio(rounds.map((r) => ({ without: total(r.without), with: total(r.with) }))),
      };
    };
    return {
      callsPerSide: opts.rounds * opts.calls,
      eventsWritten: written?.n ?? 0,
      loadBefore,
      loadAfter: uptime(),
      create: summarize("create"),
      update: summarize("update"),
      statements,
    };
  } finally {
    await database.close();
    await scratch.drop();
  }
}

// --- 2. and 3.: the worker, as its own process ---------------------------------------------------

/**
 * `npm run worker`'s entry (scripts/worker.ts) as one node process (tsx as a loader, not its CLI,
 * whose parent process would add its own memory), answering at once on the receiver.
 */
function startWorker(databaseUrl: string): { child: ChildProcess; ready: Promise<number> } {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--conditions=react-server", "scripts/worker.ts"],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        WEBHOOKS_ALLOW_PRIVATE: "true",
        NODE_ENV: "production",
        LOG_LEVEL: "error",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const ready = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("delivery worker started")) resolve(performance.now() - started);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      process.stderr.write(`[worker] ${chunk.toString("utf8")}`);
    });
    child.once("exit", (code) =>
      reject(new Error(`the worker exited (${code}) before it started:\n${output}`)),
    );
  });
  return { child, ready };
}

async function stopWorker(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

/**
 * Starts the worker on a database holding `total` events for the receiver, samples its
 * RSS every 500 ms, and waits until the receiver has seen every event (or nothing new for 60 s).
 */
async function drain(scratch: Scratch, receiver: Receiver, total: number) {
  const before = receiver.distinct;
  const { child, ready } = startWorker(scratch.url);
  const started = performance.now();
  const samples: RssSample[] = [];
  const sample = () => {
    try {
      const mb = rssMbOf(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (mb !== undefined)
        samples.push({ atMs: performance.now() - started, mb, delivered: receiver.distinct - before });
    } catch {
      // The process is gone.
    }
  };
  const timer = setInterval(sample, 500);
  let exitCode: number | null = null;
  try {
    const readyMs = await ready;
    let last = receiver.distinct;
    let lastChange = performance.now();
    let lastReport = performance.now();
    while (receiver.distinct - before < total) {
      await sleep(100);
      if (receiver.distinct !== last) {
        last = receiver.distinct;
        lastChange = performance.now();
      } else if (performance.now() - lastChange > 60_000) {
        throw new Error(`no delivery for 60 s: ${receiver.distinct - before} of ${total} delivered`);
      }
      if (performance.now() - lastReport > 15_000) {
        lastReport = performance.now();
        const rss = samples.at(-1)?.mb ?? 0;
        log(`  ${fmt(receiver.distinct - before)} of ${fmt(total)} delivered, worker RSS ${fmt(rss, 1)} MB`);
      }
    }
    const doneAt = performance.now();
    sample();
    // Any duplicate would come within a poll or two.
    await sleep(2000);
    return {
      readyMs,
      totalMs: doneAt - started,
      steadyMs: receiver.lastAt - receiver.firstAt,
      samples,
      exitCode: await (async () => {
        clearInterval(timer);
        exitCode = await stopWorker(child);
        return exitCode;
      })(),
    };
  } finally {
    clearInterval(timer);
    if (exitCode === null) await stopWorker(child);
  }
}

/** Delivery rows by status and the receiver's count of events sent more than once. */
async function deliveryStatus(scratch: Scratch) {
  const database = await scratch.open();
  try {
    const rows = await database.db
      .select({ status: webhookDeliveries.status, n: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .groupBy(webhookDeliveries.status);
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  } finally {
    await database.close();
  }
}

async function throughput(opts: Options) {
  const scratch = await scratchDatabase(opts.engine);
  const receiver = await startReceiver();
  try {
    const loadBefore = uptime();
    const database = await scratch.open();
    const writeStarted = performance.now();
    try {
      const companyId = (await createCompany(database.db)).id;
      await addEndpoint(database.db, companyId, receiver.url);
      log(`throughput: ${fmt(opts.events)} lead creates (the worker is stopped)`);
      await pool(opts.events, 4, (i) => createLead(database.db, companyId, "t", i));
    } finally {
      await database.close();
    }
    const writeMs = performance.now() - writeStarted;
    log(`throughput: the worker drains them`);
    const run = await drain(scratch, receiver, opts.events);
    const statuses = await deliveryStatus(scratch);
    return {
      events: opts.events,
      writeMs,
      workerReadyMs: run.readyMs,
      totalMs: run.totalMs,
      steadyMs: run.steadyMs,
      eventsPerSecond: opts.events / (run.totalMs / 1000),
      steadyEventsPerSecond: (opts.events - 1) / (run.steadyMs / 1000),
      requests: receiver.requests,
      distinct: receiver.distinct,
      statuses,
      workerExit: run.exitCode,
      loadBefore,
      loadAfter: uptime(),
    };
  } finally {
    await receiver.close();
    await scratch.drop();
  }
}

/** Writes `total` lead.created events through the outbox's own insert, in batches of 1,000. */
async function queueBacklog(database: Database, companyId: string, total: number) {
  const { db } = database;
  const leadId = await createLead(db, companyId, "b", 0);
  // The payload a real create sends: the lead as GET answers it (the create wrote its own event).
  const { rows } = await db.execute<{ payload: { data: Record<string, unknown> } }>(
    sql`select payload from webhook_events where company_id = ${companyId} and record_id = ${leadId}`,
  );
  const data = rows[0]!.payload.data;
  const BATCH = 1000;
  let queued = 1;
  while (queued < total) {
    const n = Math.min(BATCH, total - queued);
    const ids = Array.from({ length: n }, (_, i) => `lead_backlog_${String(queued + i).padStart(7, "0")}`);
    const records = new Map(ids.map((id) => [id, { ...data, id }]));
    await db.transaction((tx) => emitRecordEvents(tx, companyId, "lead", { created: ids, records }));
    queued += n;
  }
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.companyId, companyId), isNull(webhookEvents.relayedAt)));
  return count?.n ?? 0;
}

async function backlog(opts: Options, total: number) {
  const scratch = await scratchDatabase(opts.engine);
  const receiver = await startReceiver();
  try {
    const loadBefore = uptime();
    const database = await scratch.open();
    let pending = 0;
    const queueStarted = performance.now();
    try {
      const companyId = (await createCompany(database.db)).id;
      await addEndpoint(database.db, companyId, receiver.url);
      log(`backlog ${fmt(total)}: queueing (the worker is stopped)`);
      pending = await queueBacklog(database, companyId, total);
    } finally {
      await database.close();
    }
    const queueMs = performance.now() - queueStarted;
    if (pending !== total) throw new Error(`wrote ${pending} waiting events, not ${total}`);
    log(`backlog ${fmt(total)}: the worker drains it (RSS every 500 ms)`);
    const run = await drain(scratch, receiver, total);
    const statuses = await deliveryStatus(scratch);
    return {
      pending: total,
      queueMs,
      workerReadyMs: run.readyMs,
      totalMs: run.totalMs,
      eventsPerSecond: total / (run.totalMs / 1000),
      rss: summarizeRss(run.samples, total),
      requests: receiver.requests,
      distinct: receiver.distinct,
      statuses,
      workerExit: run.exitCode,
      loadBefore,
      loadAfter: uptime(),
    };
  } finally {
    await receiver.close();
    await scratch.drop();
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  process.env.LOG_LEVEL ??= "error";
  const opts = parseOptions(process.argv.slice(2));
  const commit = gitHead();
  const date = new Date().toISOString();
  const out: Record<string, unknown> = {
    date,
    commit,
    engine: opts.engine,
    command: process.argv.slice(2).join(" "),
  };
  const lines: string[] = [`webhooks bench, ${date}, commit ${commit}, ${opts.engine}`];
  const file = path.join(
    ROOT,
    "bench",
    ".cache",
    "results",
    `${date.slice(0, 19).replace(/:/g, "")}-webhooks-${opts.engine}.json`,
  );
  // Each part's numbers as soon as it ends: a later part that fails loses only its own.
  const flush = () => {
    console.log(lines.splice(0).join("\n"));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  };
  const mark = (ok: boolean) => (ok ? "met" : "MISSED");
  // A run whose events were not each delivered once is wrong, not slow: it exits 1.
  const problems: string[] = [];
  const checkDelivered = (
    name: string,
    r: { requests: number; distinct: number; statuses: object },
    n: number,
  ) => {
    if (
      r.requests !== n ||
      r.distinct !== n ||
      JSON.stringify(r.statuses) !== JSON.stringify({ succeeded: n })
    )
      problems.push(
        `${name}: ${n} events, ${r.requests} requests, ${r.distinct} distinct, deliveries ${JSON.stringify(r.statuses)}`,
      );
  };
  const pct = (ratio: number) => `${ratio >= 1 ? "+" : ""}${fmt((ratio - 1) * 100, 1)}%`;

  if (opts.parts.includes("write")) {
    const w = await writeCost(opts);
    out.write = w;
    lines.push(
      "",
      `1. Write cost, one endpoint subscribed to lead events (${opts.rounds} rounds × ${opts.calls} calls per side, alternating; ${w.eventsWritten} events written)`,
      "| upsertLead | without ms/call | with ms/call | wall, median of round ratios (min–max) | CPU ours+DB, median ratio | target |",
      "| --- | ---: | ---: | ---: | ---: | --- |",
    );
    for (const kind of ["create", "update"] as const) {
      const k = w[kind];
      lines.push(
        `| ${kind} | ${fmt(k.without.wallMs, 2)} | ${fmt(k.with.wallMs, 2)} | ${pct(k.wallRatio.median)} (${pct(k.wallRatio.min)}…${pct(k.wallRatio.max)}) | ${pct(k.cpuRatio.median)} | ${kind === "create" ? mark(k.wallRatio.median <= 1 + TARGETS.writeOverhead) : ""} |`,
      );
    }
    for (const [name, list] of Object.entries(w.statements))
      lines.push(`statements, ${name}: ${list.length} (${list.join(" ")})`);
    lines.push(`load before: ${w.loadBefore}`, `load after:  ${w.loadAfter}`);
    flush();
  }

  if (opts.parts.includes("throughput")) {
    const t = await throughput(opts);
    out.throughput = t;
    checkDelivered("throughput", t, t.events);
    lines.push(
      "",
      `2. Delivery rate, one worker (scripts/worker.ts) to a local receiver answering 200 at once`,
      `${fmt(t.events)} events (lead creates, ${fmt(t.writeMs / 1000, 1)} s to write): all delivered ${fmt(t.totalMs / 1000, 1)} s after the worker's spawn (${fmt(t.workerReadyMs / 1000, 1)} s to start) = ${fmt(t.eventsPerSecond, 1)} events/s; first to last delivery ${fmt(t.steadyEventsPerSecond, 1)} events/s; target ${TARGETS.eventsPerSecond}/s: ${mark(t.eventsPerSecond >= TARGETS.eventsPerSecond)}`,
      `receiver: ${t.requests} requests, ${t.distinct} distinct events; deliveries ${JSON.stringify(t.statuses)}; worker exit ${t.workerExit}`,
      `load before: ${t.loadBefore}`,
      `load after:  ${t.loadAfter}`,
    );
    flush();
  }

  if (opts.parts.includes("backlog")) {
    const runs: Awaited<ReturnType<typeof backlog>>[] = [];
    out.backlog = runs;
    lines.push(
      "",
      "3. Backlog drain: the worker's RSS every 500 ms (MB)",
      "| pending | queue s | drain s | events/s | RSS start | peak | end | peak, 1st half | peak, 2nd half | receiver requests / distinct | load before → after |",
      "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
    );
    for (const total of opts.backlogs) {
      const b = await backlog(opts, total);
      runs.push(b);
      checkDelivered(`backlog ${total}`, b, total);
      lines.push(
        `| ${fmt(b.pending)} | ${fmt(b.queueMs / 1000, 1)} | ${fmt(b.totalMs / 1000, 1)} | ${fmt(b.eventsPerSecond, 1)} | ${fmt(b.rss.startMb, 1)} | ${fmt(b.rss.peakMb, 1)} | ${fmt(b.rss.endMb, 1)} | ${fmt(b.rss.firstHalfPeakMb, 1)} | ${fmt(b.rss.secondHalfPeakMb, 1)} | ${b.requests} / ${b.distinct} | ${b.loadBefore.replace(/^.*load average: /, "")} → ${b.loadAfter.replace(/^.*load average: /, "")} |`,
      );
      flush();
    }
  }
  log(`written to ${path.relative(ROOT, file)}`);
  if (problems.length > 0) throw new Error(`not each event delivered once:\n${problems.join("\n")}`);
}

if (process.argv[1]?.endsWith("webhooks.ts")) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(
        `[webhooks-bench] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      process.exit(1);
    },
  );
}

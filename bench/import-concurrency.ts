// Issue #53: other users of a company keep working while a CSV import of a million rows runs into
// it. Against the production server (its own pg-boss worker runs the import, as in production), the
// same company's list page, lead creates and lead updates are loaded at a steady rate, first with
// no import (baseline), then during each step of an import through the API (upload, dry run,
// import), then after it; each phase's p50/p95/max and failures against the project's budgets.
//
//   npx tsx --conditions=react-server bench/import-concurrency.ts [--rows 1000000] [--duration 20]
//     [--connections 2] [--rate 20] [--company id] [--no-build] [--out file.json]
//
// Environment: BENCH_DATABASE_URL names a PostgreSQL database to use (kept; what the run wrote is
// removed after); unset, a fresh database is made on TEST_DATABASE_URL's server (default the local
// one), seeded with the demo data and dropped after. NEXT_DIST_DIR picks the build (default
// .next-bench, built when stale unless --no-build).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { deleteImport } from "@/lib/domain/imports";
import { DEMO_COMPANIES, seedDemoData } from "@/lib/seed";
import { normalizeEmail, normalizePhone } from "@/lib/values/normalize";
import { csvRowOf, expectedCsvCounts, writeCsvFile } from "./csv-import-bench";
import { DEFAULT_SERVER_URL, freshDatabase, openRawDb } from "./db";
import { createBenchKey } from "./fixtures";
import { headersFor, summarize, type LoadResult, type RawLoad } from "./load";
import { databaseVersion, printTable, uptime } from "./machine";
import { ROOT, ensureBuild, freePort, startOurs, waitUntilUp, type RunningServer } from "./server";

const log = (message: string) => console.log(`[import-concurrency] ${message}`);

/**
 * The project's budgets for one user's request (bench/report.ts, checkTargets): a list page's
 * p95 ≤ 50 ms, a create-or-update's (`upsert` cases) p95 ≤ 20 ms.
 */
export const BUDGETS_MS = { list: 50, write: 20 } as const;

export type TrafficKind = "list" | "create" | "update";
export const TRAFFIC_KINDS: readonly TrafficKind[] = ["list", "create", "update"];
export const TRAFFIC: Record<TrafficKind, { title: string; budgetMs: number; expectStatus: number }> = {
  list: { title: "GET /api/leads (default page)", budgetMs: BUDGETS_MS.list, expectStatus: 200 },
  create: { title: "POST /api/leads (new identity)", budgetMs: BUDGETS_MS.write, expectStatus: 201 },
  update: { title: "POST /api/leads {id} (not in the file)", budgetMs: BUDGETS_MS.write, expectStatus: 200 },
};

/** The API key the run makes (and removes). */
const KEY_NAME = "bench import-concurrency";
/** The leads the updates rotate over: the company's, none of them named by the file. */
const UPDATE_TARGETS = 200;
/** The data row whose phone the one in-file write sends (not a duplicate row). */
const IN_FILE_ROW = 1;
const POLL_MS = 250;
/** Requests of each kind before the baseline (at least 5 s of them). */
const WARM_UP_REQUESTS = 200;

export interface Options {
  rows: number;
  /** Seconds of the baseline and of the phase after the import. */
  duration: number;
  /** Connections per kind of traffic. */
  connections: number;
  /** Requests per second per kind of traffic (all its connections together). */
  rate: number;
  company?: string;
  noBuild: boolean;
  out?: string;
}

export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      rows: { type: "string", default: "1000000" },
      duration: { type: "string", default: "20" },
      connections: { type: "string", default: "2" },
      rate: { type: "string", default: "20" },
      company: { type: "string" },
      "no-build": { type: "boolean", default: false },
      out: { type: "string" },
    },
    strict: true,
  });
  const whole = (name: string, value: string, min: number) => {
    const n = Number(value.replaceAll("_", ""));
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min}`);
    return n;
  };
  return {
    rows: whole("rows", values.rows, 10),
    duration: whole("duration", values.duration, 1),
    connections: whole("connections", values.connections, 1),
    rate: whole("rate", values.rate, 1),
    ...(values.company ? { company: values.company } : {}),
    noBuild: values["no-build"],
    ...(values.out ? { out: values.out } : {}),
  };
}

/**
 * Of the candidate leads, those whose phone and email no data row of a `rows`-row bench file
 * carries (normalized as matching does), at most `want`, in the candidates' order: an update of
 * one of them never waits for the import's row locks or identity claims.
 */
export function leadsOutsideFile(
  candidates: readonly { id: string; phone: string | null; email: string | null }[],
  rows: number,
  want: number,
): string[] {
  const byIdentity = new Map<string, string[]>();
  const add = (key: string | null, id: string) => {
    if (key) byIdentity.set(key, [...(byIdentity.get(key) ?? []), id]);
  };
  for (const lead of candidates) {
    add(lead.phone && `p:${lead.phone}`, lead.id);
    add(lead.email && `e:${lead.email}`, lead.id);
  }
  const named = new Set<string>();
  for (let i = 0; i < rows; i++) {
    const row = csvRowOf(i);
    for (const id of byIdentity.get(`p:${normalizePhone(row[3])}`) ?? []) named.add(id);
    for (const id of byIdentity.get(`e:${normalizeEmail(row[2])}`) ?? []) named.add(id);
  }
  return candidates
    .filter((lead) => !named.has(lead.id))
    .slice(0, want)
    .map((lead) => lead.id);
}

export interface PhaseResult {
  name: string;
  /** Whether an import step (upload, dry run, import) ran during the phase. */
  duringImport: boolean;
  seconds: number;
  traffic: Record<TrafficKind, LoadResult>;
  loadBefore: string;
  loadAfter: string;
}

export interface BudgetCheck {
  phase: string;
  kind: TrafficKind;
  p95: number;
  budgetMs: number;
  /** Answers other than the expected status (a 503 at the deadline), connection errors, timeouts. */
  failed: number;
  requests: number;
  met: boolean;
}

/** Each phase's traffic against its budget: p95 within it and no request failed. */
export function budgetChecks(phases: readonly PhaseResult[]): BudgetCheck[] {
  return phases.flatMap((phase) =>
    TRAFFIC_KINDS.map((kind) => {
      const load = phase.traffic[kind];
      const failed = load.unexpected + load.errors;
      const budgetMs = TRAFFIC[kind].budgetMs;
      return {
        phase: phase.name,
        kind,
        p95: load.p95,
        budgetMs,
        failed,
        requests: load.requests,
        met: load.requests > 0 && failed === 0 && load.p95 <= budgetMs,
      };
    }),
  );
}

interface RequestSpec {
  method: "GET" | "POST";
  path: string;
  body?: Record<string, unknown>;
}

interface Fixtures {
  key: string;
  companyId: string;
  updateIds: string[];
  /** Unique per run: created phones and emails never meet an earlier run's. */
  runTag: number;
}

function trafficRequests(fx: Fixtures): Record<TrafficKind, (i: number) => RequestSpec> {
  return {
    list: () => ({ method: "GET", path: "/api/leads" }),
    // (999) is no area code of the demo data or the file: a new identity per request.
    create: (i) => {
      const serial = String(fx.runTag * 100_000 + i).padStart(7, "0");
      return {
        method: "POST",
        path: "/api/leads",
        body: {
          name: `Bench Colleague ${fx.runTag} ${i}`,
          phone: `(999) ${serial.slice(0, 3)}-${serial.slice(3)}`,
          email: `colleague.${fx.runTag}.${i}@bench.example`,
          source: "Website",
          stage: "new",
          tags: ["bench"],
        },
      };
    },
    update: (i) => ({
      method: "POST",
      path: "/api/leads",
      body: {
        id: fx.updateIds[i % fx.updateIds.length],
        stage: i % 2 === 0 ? "contacted" : "new",
        tags: ["bench-updated"],
      },
    }),
  };
}

/** One kind of traffic at a steady rate until stopped; every latency kept. */
class Traffic {
  private readonly latencies: number[] = [];
  private readonly statuses: Record<string, number> = {};
  private unexpected = 0;
  private stopped = false;
  private readonly started = performance.now();
  private readonly done: Promise<{ errors: number }>;
  private readonly instance: autocannon.Instance;

  constructor(
    baseUrl: string,
    key: string,
    kind: TrafficKind,
    make: (i: number) => RequestSpec,
    counter: { next: number },
    options: { connections: number; rate: number },
  ) {
    const first = make(0);
    const expected = TRAFFIC[kind].expectStatus;
    let resolveDone!: (value: { errors: number }) => void;
    let rejectDone!: (error: unknown) => void;
    this.done = new Promise((resolve, reject) => {
      resolveDone = resolve;
      rejectDone = reject;
    });
    this.instance = autocannon(
      {
        url: baseUrl,
        connections: options.connections,
        overallRate: options.rate,
        // Stopped by the phase; the duration only bounds a run that is never stopped.
        duration: 6 * 3600,
        sampleInt: 100,
        timeout: 10,
        requests: [
          {
            method: first.method,
            path: first.path,
            headers: headersFor(key, first),
            setupRequest: (req) => {
              const next = make(counter.next++);
              return { ...req, path: next.path, ...(next.body ? { body: JSON.stringify(next.body) } : {}) };
            },
          },
        ],
      },
      (error, result) =>
        error ? rejectDone(error) : resolveDone({ errors: result.errors + result.timeouts }),
    );
    this.instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (this.stopped) return;
      this.latencies.push(responseTime);
      this.statuses[statusCode] = (this.statuses[statusCode] ?? 0) + 1;
      if (statusCode !== expected) this.unexpected++;
    });
  }

  async stop(): Promise<RawLoad> {
    this.stopped = true;
    const seconds = (performance.now() - this.started) / 1000;
    this.instance.stop();
    const { errors } = await this.done;
    return {
      latencies: this.latencies,
      seconds,
      unexpected: this.unexpected,
      errors,
      statuses: this.statuses,
    };
  }
}

/** An API call of the bench itself (not measured); throws on a status other than `expect`. */
async function api<T>(
  baseUrl: string,
  key: string,
  method: string,
  route: string,
  expect: number,
  body?: unknown,
  init: { contentType?: string } = {},
): Promise<T> {
  const raw = body instanceof Readable;
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: {
      "x-api-key": key,
      "service-api-version": "1.1.0",
      ...(body === undefined ? {} : { "content-type": init.contentType ?? "application/json" }),
    },
    ...(body === undefined
      ? {}
      : raw
        ? { body: Readable.toWeb(body) as ReadableStream, duplex: "half" }
        : { body: JSON.stringify(body) }),
  } as RequestInit);
  const text = await response.text();
  if (response.status !== expect)
    throw new Error(`${method} ${route} answered ${response.status}, not ${expect}: ${text.slice(0, 500)}`);
  if (!text) return undefined as T;
  const parsed = JSON.parse(text) as { data?: T } & T;
  return (parsed.data ?? parsed) as T;
}

interface ImportState {
  id: string;
  status: string;
  mapping: (string | null)[];
  progress: { done: number; total: number };
  result: { created: number; updated: number; refused: number } | null;
  error: string | null;
}

/** What the one write of an identity the file holds went through. */
export interface InFileWrite {
  phone: string;
  sentAtProgress?: { done: number; total: number };
  status?: number;
  ms?: number;
  /** Whether it answered before the import ended. */
  answeredBeforeImportEnded?: boolean;
  /** The company's leads with that phone after the import: 1 means no duplicate was made. */
  leadsWithPhone?: number;
  note?: string;
}

function gitHead(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "?";
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A database for the run: BENCH_DATABASE_URL (kept), or a fresh one dropped after. */
async function prepareDatabase(): Promise<{ url: string; kept: boolean; dispose: () => Promise<void> }> {
  const benchUrl = process.env.BENCH_DATABASE_URL;
  if (benchUrl) return { url: benchUrl, kept: true, dispose: async () => {} };
  const { url, drop } = await freshDatabase(
    process.env.TEST_DATABASE_URL || DEFAULT_SERVER_URL,
    "fcrm_importload",
  );
  return { url, kept: false, dispose: drop };
}

async function main(): Promise<void> {
  const opts = parseOptions(process.argv.slice(2));
  const distDir = process.env.NEXT_DIST_DIR || ".next-bench";
  await ensureBuild(distDir, { skip: opts.noBuild, log });

  const database = await prepareDatabase();
  const companyId = opts.company ?? DEMO_COMPANIES.pest.id;
  const file = path.join(os.tmpdir(), `fcrm-importload-${process.pid}.csv`);
  let server: RunningServer | undefined;
  let runStart = "";
  try {
    const raw = await openRawDb({ kind: "postgres", url: database.url });
    let fx: Fixtures;
    let engineVersion: string;
    try {
      engineVersion = await databaseVersion(raw);
      const [company] = await raw.query(`select 1 from companies where id = $1`, [companyId]);
      if (!company) {
        if (companyId !== DEMO_COMPANIES.pest.id) throw new Error(`no company ${companyId} in the database`);
        log("seeding the demo data");
        await seedDemoData(raw.database.db);
      }
      const candidates = await raw.query<{ id: string; phone: string | null; email: string | null }>(
        `select id, phone_normalized as phone, email_normalized as email from leads
         where company_id = $1 and not archived order by id limit $2`,
        [companyId, UPDATE_TARGETS * 10],
      );
      const updateIds = leadsOutsideFile(candidates, opts.rows, UPDATE_TARGETS);
      if (updateIds.length === 0)
        throw new Error(`company ${companyId} has no lead outside the file to update`);
      await raw.query(`delete from api_keys where company_id = $1 and name = $2`, [companyId, KEY_NAME]);
      const key = await createBenchKey(raw, companyId, KEY_NAME);
      const [leadCount] = await raw.query<{ n: number }>(
        `select count(*)::int as n from leads where company_id = $1`,
        [companyId],
      );
      log(`company ${companyId}: ${leadCount?.n ?? 0} leads; updates rotate over ${updateIds.length}`);
      runStart = (await raw.query<{ now: string }>(`select now()::text as now`))[0]!.now;
      fx = { key, companyId, updateIds, runTag: 10 + (Date.now() % 89) };
    } finally {
      await raw.close();
    }

    log(`writing a CSV file of ${opts.rows.toLocaleString("en-US")} leads`);
    const bytes = await writeCsvFile(file, opts.rows);

    // Production runs imports in the server process's pg-boss worker (instrumentation.ts).
    process.env.WEBHOOKS_WORKER = "on";
    const port = await freePort(3400, 3449);
    server = startOurs({ port, databaseUrl: database.url, distDir });
    await waitUntilUp(server);
    const { baseUrl } = server;
    log(`${server.name} on ${baseUrl}`);

    const make = trafficRequests(fx);
    const counters: Record<TrafficKind, { next: number }> = {
      list: { next: 1 },
      create: { next: 1 },
      update: { next: 1 },
    };
    // Each kind answers right once before any load (a broken request is never reported as fast).
    for (const kind of TRAFFIC_KINDS) {
      const spec = make[kind](0);
      await api(baseUrl, fx.key, spec.method, spec.path, TRAFFIC[kind].expectStatus, spec.body);
    }

    const phases: PhaseResult[] = [];
    const phase = async <T>(name: string, duringImport: boolean, work: () => Promise<T>): Promise<T> => {
      const loadBefore = uptime();
      const started = performance.now();
      const running = Object.fromEntries(
        TRAFFIC_KINDS.map((kind) => [
          kind,
          new Traffic(baseUrl, fx.key, kind, make[kind], counters[kind], opts),
        ]),
      ) as Record<TrafficKind, Traffic>;
      let value: T;
      try {
        value = await work();
      } finally {
        const loads = await Promise.all(TRAFFIC_KINDS.map((kind) => running[kind].stop()));
        const traffic = Object.fromEntries(
          TRAFFIC_KINDS.map((kind, i) => [kind, summarize([loads[i]!])]),
        ) as Record<TrafficKind, LoadResult>;
        const seconds = Math.round((performance.now() - started) / 100) / 10;
        phases.push({ name, duringImport, seconds, traffic, loadBefore, loadAfter: uptime() });
        log(`${name}: ${seconds} s, ${TRAFFIC_KINDS.map((k) => `${k} p95 ${traffic[k].p95} ms`).join(", ")}`);
      }
      return value;
    };
    const poll = async (
      id: string,
      until: (s: ImportState) => boolean,
      onPoll?: (s: ImportState) => void,
    ) => {
      for (;;) {
        const state = await api<ImportState>(baseUrl, fx.key, "GET", `/api/imports/${id}`, 200);
        onPoll?.(state);
        if (until(state)) return state;
        await sleep(POLL_MS);
      }
    };

    // A fresh server compiles its routes and opens its pool on the first requests.
    const warmUpSeconds = Math.max(5, Math.ceil(WARM_UP_REQUESTS / opts.rate));
    log(`warm-up, ${warmUpSeconds} s (not counted)`);
    await phase("warm-up", false, () => sleep(warmUpSeconds * 1000));
    phases.pop();

    await phase("baseline (no import)", false, () => sleep(opts.duration * 1000));

    const uploaded = await phase("upload (POST /api/imports)", true, () =>
      api<ImportState>(
        baseUrl,
        fx.key,
        "POST",
        `/api/imports?type=leads&file_name=${encodeURIComponent(path.basename(file))}`,
        201,
        fs.createReadStream(file),
        { contentType: "text/csv" },
      ),
    );
    const importId = uploaded.id;
    const timings: Record<string, number> = {};

    const checked = await phase("dry run", true, async () => {
      const t = performance.now();
      await api(baseUrl, fx.key, "POST", `/api/imports/${importId}/dry-run`, 202, {
        mapping: uploaded.mapping,
      });
      const state = await poll(importId, (s) => s.status !== "checking");
      timings.dryRunSeconds = Math.round((performance.now() - t) / 100) / 10;
      return state;
    });
    if (checked.status !== "checked" || (checked.result?.refused ?? 0) > 0)
      throw new Error(
        `the dry run ended ${checked.status}: ${checked.error ?? JSON.stringify(checked.result)}`,
      );

    // One write of an identity the file holds: by design it waits for the import (claims.ts).
    const inFilePhone = csvRowOf(IN_FILE_ROW)[3]!;
    const inFile: InFileWrite = { phone: inFilePhone };
    let inFileRequest: Promise<void> | undefined;
    let importEnded = false;
    const sendInFileWrite = (state: ImportState) => {
      inFile.sentAtProgress = { ...state.progress };
      const t = performance.now();
      inFileRequest = fetch(`${baseUrl}/api/leads`, {
        method: "POST",
        headers: headersFor(fx.key, { method: "POST" }),
        body: JSON.stringify({
          name: `Bench In-file ${fx.runTag}`,
          phone: inFilePhone,
          tags: ["bench-in-file"],
        }),
        signal: AbortSignal.timeout(60_000),
      }).then(
        async (response) => {
          await response.arrayBuffer();
          inFile.status = response.status;
          inFile.ms = Math.round(performance.now() - t);
          inFile.answeredBeforeImportEnded = !importEnded;
        },
        (error: unknown) => {
          inFile.ms = Math.round(performance.now() - t);
          inFile.note = `no answer: ${error instanceof Error ? error.message : String(error)}`;
        },
      );
    };

    const imported = await phase("import", true, async () => {
      const t = performance.now();
      await api(baseUrl, fx.key, "POST", `/api/imports/${importId}/start`, 202);
      const state = await poll(
        importId,
        (s) => s.status !== "importing",
        // Sent once the run's transaction is writing (its first batch is done): the claims are in.
        (s) => {
          if (!inFileRequest && s.status === "importing" && s.progress.done > 0) sendInFileWrite(s);
        },
      );
      importEnded = true;
      timings.importSeconds = Math.round((performance.now() - t) / 100) / 10;
      return state;
    });
    if (!inFileRequest) inFile.note = "not sent: the import ended before a poll saw its progress";
    await inFileRequest;
    const expected = expectedCsvCounts(opts.rows);
    if (imported.status !== "done")
      throw new Error(`the import ended ${imported.status}: ${imported.error ?? ""}`);

    await phase("after the import", false, () => sleep(opts.duration * 1000));

    let removed: { status: number; ms: number } | undefined;
    const check = await openRawDb({ kind: "postgres", url: database.url });
    try {
      const [row] = await check.query<{ n: number }>(
        `select count(*)::int as n from leads where company_id = $1 and phone_normalized = $2`,
        [companyId, normalizePhone(inFilePhone)],
      );
      inFile.leadsWithPhone = row?.n ?? 0;
      // The staged rows go as the dashboard removes them; a refusal is reported, not fatal.
      const removedAt = performance.now();
      const removal = await fetch(`${baseUrl}/api/imports/${importId}`, {
        method: "DELETE",
        headers: headersFor(fx.key, { method: "GET" }),
      });
      const removalText = await removal.text();
      removed = { status: removal.status, ms: Math.round(performance.now() - removedAt) };
      log(`DELETE /api/imports/${importId}: ${removal.status} after ${removed.ms} ms`);
      if (removal.status !== 204) {
        log(removalText.slice(0, 300));
        // Statistics first: an import_rows the planner still thinks empty gets a nested-loop delete.
        await check.query(`analyze import_rows`);
        await deleteImport(check.database.db, companyId, importId);
      }
    } finally {
      await check.close();
    }

    const checks = budgetChecks(phases);
    printReport(phases, checks, inFile, { rows: opts.rows, imported, expected, timings });

    const run = {
      date: new Date().toISOString(),
      commit: gitHead(),
      database: engineVersion,
      databaseKept: database.kept,
      companyId,
      rows: opts.rows,
      fileMb: Math.round(bytes / 1024 / 102.4) / 10,
      options: { duration: opts.duration, connections: opts.connections, rate: opts.rate },
      budgetsMs: BUDGETS_MS,
      import: { ...timings, status: imported.status, result: imported.result, expected },
      phases,
      checks,
      inFileWrite: inFile,
      /** DELETE /api/imports/{id} after the run (the staged rows), as the dashboard sends it. */
      removal: removed,
    };
    const out =
      opts.out ??
      path.join(
        ROOT,
        "bench",
        ".cache",
        "results",
        `${run.date.slice(0, 19).replace(/[T:]/g, "-")}-import-concurrency.json`,
      );
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify(run, null, 2)}\n`);
    log(`written to ${path.relative(ROOT, out)}`);
  } finally {
    await server?.stop();
    fs.rmSync(file, { force: true });
    if (database.kept && runStart) await removeRunWrites(database.url, companyId, runStart);
    await database.dispose();
  }
}

/** On a kept database: the leads and activity the run made (import and traffic), and its key. */
async function removeRunWrites(url: string, companyId: string, since: string): Promise<void> {
  const raw = await openRawDb({ kind: "postgres", url });
  try {
    await raw.query(`delete from leads where company_id = $1 and created_at >= $2`, [companyId, since]);
    await raw.query(`delete from record_activity where company_id = $1 and at >= $2`, [companyId, since]);
    await raw.query(`delete from api_keys where company_id = $1 and name = $2`, [companyId, KEY_NAME]);
    for (const table of ["leads", "record_activity", "import_rows", "list_counts"])
      await raw.query(`vacuum (analyze) ${table}`);
  } finally {
    await raw.close();
  }
}

function printReport(
  phases: readonly PhaseResult[],
  checks: readonly BudgetCheck[],
  inFile: InFileWrite,
  info: {
    rows: number;
    imported: ImportState;
    expected: { created: number; updated: number };
    timings: Record<string, number>;
  },
): void {
  const rows: (string | number)[][] = [
    [
      "phase",
      "traffic",
      "s",
      "load",
      "requests",
      "req/s",
      "p50 ms",
      "p95 ms",
      "× base",
      "max ms",
      "failed",
      "budget",
      "",
    ],
  ];
  // The 1-minute load average at the phase's start (the machine may be shared).
  const loadOf = (line: string) => line.replace(/^.*load averages?: /, "").split(/,\s*/)[0] ?? "?";
  // The p95 over the baseline's: on a shared machine the ratio says more than the milliseconds.
  const baseline = phases.find((p) => !p.duringImport);
  for (const phase of phases)
    for (const kind of TRAFFIC_KINDS) {
      const load = phase.traffic[kind];
      const check = checks.find((c) => c.phase === phase.name && c.kind === kind)!;
      const other = Object.entries(load.statuses)
        .filter(([status]) => Number(status) !== TRAFFIC[kind].expectStatus)
        .map(([status, n]) => `${n}×${status}`);
      rows.push([
        phase.name,
        TRAFFIC[kind].title,
        phase.seconds,
        loadOf(phase.loadBefore),
        load.requests,
        load.rps,
        load.p50,
        load.p95,
        baseline && baseline.traffic[kind].p95 > 0
          ? `${(load.p95 / baseline.traffic[kind].p95).toFixed(1)}×`
          : "–",
        load.max,
        `${check.failed}${other.length ? ` (${other.join(", ")})` : ""}`,
        `p95 ≤ ${TRAFFIC[kind].budgetMs}`,
        check.met ? "met" : "MISSED",
      ]);
    }
  printTable(rows, 2);
  const result = info.imported.result;
  console.log(
    `import of ${info.rows.toLocaleString("en-US")} rows: dry run ${info.timings.dryRunSeconds} s, ` +
      `import ${info.timings.importSeconds} s; created ${result?.created}, updated ${result?.updated} ` +
      `(expected ${info.expected.created} and ${info.expected.updated})`,
  );
  console.log(
    `a write of an identity the file holds (phone ${inFile.phone}; it waits for the import by design, ` +
      `not counted above): ${
        inFile.status === undefined
          ? (inFile.note ?? "no answer")
          : `${inFile.status} after ${inFile.ms} ms, sent at row ${inFile.sentAtProgress?.done} of ` +
            `${inFile.sentAtProgress?.total}, answered ${inFile.answeredBeforeImportEnded ? "before" : "after"} ` +
            `the import ended`
      }; leads with that phone after: ${inFile.leadsWithPhone}`,
  );
  const during = checks.filter((c) => phases.find((p) => p.name === c.phase)?.duringImport);
  const missed = during.filter((c) => !c.met);
  console.log(
    missed.length === 0
      ? "during the import every kind of traffic stayed within its budget"
      : `during the import ${missed.length} of ${during.length} budget checks missed`,
  );
}

if (process.argv[1]?.endsWith("import-concurrency.ts")) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(
        `[import-concurrency] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      process.exit(1);
    },
  );
}

// npm run bench – builds a scale's data set and loads every case against our production server (next start)
// and the bare baseline side by side (bench/README.md). A script, not the app: it reads process.env directly.
//
//   npm run bench -- --scale tiny|small|large [--engine postgres|pglite|both] [--duration s]
//                    [--connections n] [--requests n] [--no-build] [--cases id,id] [--skip-import]
//                    [--import-leads n] [--csv-leads n] [--skip-csv] [--no-explain] [--label name] [--workers n] [--npm-start]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual, parseArgs } from "node:util";
import type { PGlite } from "@electric-sql/pglite";
import type { Engine } from "@/lib/db/client";
import { buildBook, captureCases, type CaseCapture } from "./book";
import { StatementRecorder, capturingDatabase, type CapturedStatement } from "./capture";
import type { BenchCase, RequestSpec } from "./cases";
import { generate, largeTenant } from "./data/generate";
import { openRawDb, prepareTarget, type BenchTarget } from "./db";
import { explainCase, type CaseExplain } from "./explain";
import { newRunTag, startRun } from "./fixtures";
import { measureCsvImport, type CsvImportMeasure } from "./csv-import-bench";
import { measureImport } from "./import-bench";
import { RequestCounter, failedLoads, headersFor, loadCase, summarize, type RawLoad } from "./load";
import { databaseVersion, uptime } from "./machine";
import {
  markdownRun,
  p95Chart,
  replaceSection,
  roomForRun,
  type BenchRun,
  type CaseResult,
  type EngineRun,
  type ImportMeasure,
  type Machine,
} from "./report";
import { SCALE_NAMES, SCALES, type ScaleName } from "./scales";
import {
  ROOT,
  buildState,
  ensureBuild,
  freePort,
  startBaseline,
  startOurs,
  waitUntilUp,
  type RunningServer,
} from "./server";

const startedAt = performance.now();
const log = (message: string) =>
  console.error(`[bench ${((performance.now() - startedAt) / 1000).toFixed(0).padStart(4)}s] ${message}`);

export interface Options {
  scale: ScaleName;
  engines: Engine[];
  duration: number;
  connections: number;
  amount?: number;
  rounds: 1 | 2;
  build: boolean;
  distDir: string;
  only?: string[];
  importLeads: number;
  /** Leads of the CSV import measurement (issue #53); 0: none. */
  csvLeads: number;
  explain: boolean;
  /** Where results go: bench/results (small, large) or bench/.cache/results (tiny). */
  outDir: string;
  /** Whether bench/RESULTS.md gets this run's section. */
  writeResultsMd: boolean;
  /** An experiment's name: its own result files and RESULTS.md section, next to the scale's. */
  label?: string;
  /** Worker processes of our server (WEB_CONCURRENCY); above 1, PostgreSQL only. */
  workers: number;
  /** Ours runs as `npm start` (scripts/start.ts), not `next start`: with --npm-start or workers > 1. */
  npmStart: boolean;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      scale: { type: "string", default: "small" },
      engine: { type: "string" },
      duration: { type: "string" },
      connections: { type: "string" },
      requests: { type: "string" },
      "no-build": { type: "boolean", default: false },
      cases: { type: "string" },
      "skip-import": { type: "boolean", default: false },
      "import-leads": { type: "string" },
      "csv-leads": { type: "string" },
      "skip-csv": { type: "boolean", default: false },
      "no-explain": { type: "boolean", default: false },
      label: { type: "string" },
      workers: { type: "string" },
      "npm-start": { type: "boolean", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const scale = values.scale as ScaleName;
  if (!SCALE_NAMES.includes(scale)) throw new Error(`--scale must be one of ${SCALE_NAMES.join(", ")}`);
  const number = (name: string, value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
    return n;
  };
  const hasServer = Boolean(env.BENCH_DATABASE_URL || env.TEST_DATABASE_URL);
  const defaultEngines: Engine[] =
    scale === "tiny"
      ? [hasServer ? "postgres" : "pglite"]
      : scale === "small"
        ? ["postgres", "pglite"]
        : ["postgres"];
  const engineFlag = values.engine;
  if (engineFlag && !["postgres", "pglite", "both"].includes(engineFlag))
    throw new Error("--engine must be postgres, pglite or both");
  const engines: Engine[] =
    engineFlag === "both" ? ["postgres", "pglite"] : engineFlag ? [engineFlag as Engine] : defaultEngines;
  const workers = number("workers", values.workers, 1);
  if (!Number.isInteger(workers)) throw new Error("--workers must be a whole number");
  if (workers > 1 && engines.includes("pglite"))
    throw new Error(
      "--workers above 1 needs PostgreSQL only (--engine postgres): the embedded database can be opened by one process",
    );
  const tiny = scale === "tiny";
  // The smoke run re-uses whatever production build is there (npm test's e2e step builds .next).
  const distDir = env.NEXT_DIST_DIR || (tiny ? newestBuild([".next", ".next-bench"]) : ".next-bench");
  return {
    scale,
    engines,
    duration: number("duration", values.duration, scale === "large" ? 10 : 5),
    connections: number("connections", values.connections, tiny ? 2 : 8),
    amount: values.requests ? number("requests", values.requests, 0) : tiny ? 10 : undefined,
    rounds: tiny ? 1 : 2,
    build: !values["no-build"] && !(tiny && buildState(distDir).exists),
    distDir,
    only: values.cases?.split(",").map((s) => s.trim()),
    importLeads: values["skip-import"]
      ? 0
      : number("import-leads", values["import-leads"], scale === "large" ? SCALES.large.large.leads : 0),
    csvLeads:
      values["skip-import"] || values["skip-csv"]
        ? 0
        : number("csv-leads", values["csv-leads"], scale === "large" ? SCALES.large.large.leads : 0),
    explain: !values["no-explain"],
    outDir: tiny ? path.join(ROOT, "bench", ".cache", "results") : path.join(ROOT, "bench", "results"),
    writeResultsMd: !tiny,
    ...(values.label ? { label: values.label.replace(/[^a-z0-9-]+/gi, "-").toLowerCase() } : {}),
    workers,
    npmStart: values["npm-start"] || workers > 1,
  };
}

/**
 * A run's RESULTS.md section key and heading (its files are named by the key too); a server of several
 * workers gets its own, so it never replaces the one-process run it is compared with.
 */
export function resultsSection(options: Pick<Options, "scale" | "label" | "workers" | "npmStart">): {
  key: string;
  heading: string;
} {
  const server = serverVariant(options);
  const key = [options.scale, options.label, server?.replace(" ", "-")].filter(Boolean).join("-");
  const extras = [options.label, server].filter(Boolean).join(", ");
  return { key, heading: `## Scale ${options.scale}${extras ? ` — ${extras}` : ""}` };
}

/** How our server differs from the default one process of `next start`, if it does. */
function serverVariant(options: Pick<Options, "workers" | "npmStart">): string | undefined {
  if (options.workers > 1) return `${options.workers} workers`;
  return options.npmStart ? "npm start" : undefined;
}

/** Of the given build folders, the one built last (the first when none is built). */
function newestBuild(dirs: string[]): string {
  const built = dirs
    .map((dir) => ({ dir, at: buildTime(dir) }))
    .filter((b) => b.at > 0)
    .sort((a, b) => b.at - a.at);
  return built[0]?.dir ?? dirs[0] ?? ".next";
}

function buildTime(dir: string): number {
  try {
    return fs.statSync(path.join(ROOT, dir, "BUILD_ID")).mtimeMs;
  } catch {
    return 0;
  }
}

/** One request to a server, for the verification before a load. */
async function send(
  baseUrl: string,
  key: string,
  spec: RequestSpec,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}${spec.path}`, {
    method: spec.method,
    headers: headersFor(key, spec),
    body: spec.body ? JSON.stringify(spec.body) : undefined,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: reported as it is
  }
  return { status: response.status, body };
}

/** Right status and shape on both servers, and (reads) the same JSON from both. */
async function verify(
  benchCase: BenchCase,
  ours: RunningServer,
  baseline: RunningServer,
  key: string,
  counter: RequestCounter,
): Promise<string | undefined> {
  const spec = (i: number) => (benchCase.vary ? benchCase.vary(i) : benchCase.request);
  const i = counter.next();
  const a = await send(ours.baseUrl, key, spec(i));
  // A read asks both for the same; a write asks each for a new lead (or another lead to update).
  const answers: (readonly ["ours" | "baseline", Awaited<ReturnType<typeof send>>])[] = [["ours", a]];
  if (!benchCase.oursOnly) {
    const method = benchCase.request.method;
    answers.push([
      "baseline",
      await send(baseline.baseUrl, key, spec(method === "GET" ? i : counter.next())),
    ]);
  }
  const b = answers[1]?.[1];
  for (const [name, answer] of answers) {
    if (answer.status !== benchCase.expectStatus)
      return `${name}: status ${answer.status} (expected ${benchCase.expectStatus}): ${JSON.stringify(answer.body).slice(0, 200)}`;
    const problem = benchCase.check(answer.body);
    if (problem) return `${name}: ${problem}: ${JSON.stringify(answer.body).slice(0, 200)}`;
  }
  if (b && benchCase.request.method === "GET" && !isDeepStrictEqual(a.body, b.body))
    return `ours and the baseline answered different JSON: ${firstDifference(a.body, b.body)}`;
  return undefined;
}

/** Where two JSON values first differ, as `path: ours ≠ baseline`. */
export function firstDifference(a: unknown, b: unknown, at = "$"): string {
  if (isDeepStrictEqual(a, b)) return "";
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) {
      const difference = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        Array.isArray(a) ? `${at}[${k}]` : `${at}.${k}`,
      );
      if (difference) return difference;
    }
  }
  const show = (v: unknown) => (v === undefined ? "(absent)" : JSON.stringify(v).slice(0, 80));
  return `${at}: ${show(a)} ≠ ${show(b)}`;
}

/** The EXPLAIN of a create re-inserts the captured lead: under another id, or the key would clash. */
function explainable(capture: CaseCapture): CapturedStatement[] {
  return capture.statements.map((s) =>
    /^\s*insert\b/i.test(s.text)
      ? { ...s, params: s.params.map((p) => (typeof p === "string" && /^lead_/.test(p) ? `${p}x` : p)) }
      : s,
  );
}

interface EngineOutcome {
  run: EngineRun;
  version: string;
  plans: string;
}

async function runEngine(
  options: Options,
  engine: Engine,
  target: BenchTarget,
  ports: { ours: number; baseline: number },
  runTag: string,
): Promise<EngineOutcome & { importRun?: ImportMeasure; csvImportRun?: CsvImportMeasure }> {
  log(`${engine}: ${target.label}`);
  const raw = await openRawDb(target.target);
  let version = "";
  const companyId = largeTenant(options.scale).companyId;
  let key = "";
  let cases: BenchCase[] = [];
  let captures: CaseCapture[] = [];
  const explains = new Map<string, CaseExplain>();
  let generated;
  try {
    version = await databaseVersion(raw);
    generated = await generate(raw, options.scale);
    log(
      generated.reused
        ? "data re-used from an earlier run"
        : `data generated in ${generated.seconds.toFixed(0)} s`,
    );
    const started = await startRun(raw, companyId, runTag, options.only);
    if (started.removed) log(`removed ${started.removed} leads an earlier run created`);
    ({ key, cases } = started);
    const recorder = new StatementRecorder();
    const pglite = (raw.database.db as unknown as { $client: PGlite }).$client;
    const capturing = await capturingDatabase(
      target.target,
      recorder,
      engine === "pglite" ? pglite : undefined,
    );
    try {
      captures = await captureCases(capturing, recorder, cases, key);
    } finally {
      await capturing.close();
    }
    for (const c of captures) if (c.problem) log(`broken in-process: ${c.caseId}: ${c.problem}`);
    if (options.explain) {
      for (const capture of captures) {
        if (capture.problem) continue;
        explains.set(
          capture.caseId,
          await explainCase(raw, explainable(capture), options.scale === "tiny" ? 1 : 3),
        );
      }
      log(`EXPLAIN ANALYZE of ${explains.size} cases done`);
    }
  } finally {
    await raw.close();
  }

  const bookPath = path.join(ROOT, "bench", ".cache", `book-${options.scale}-${engine}.json`);
  fs.mkdirSync(path.dirname(bookPath), { recursive: true });
  fs.writeFileSync(bookPath, JSON.stringify(buildBook(companyId, key, cases, captures)));

  // PGlite serves one process per directory: the baseline gets a copy of the data.
  let baselineUrl = target.databaseUrl;
  let baselineCopy: string | undefined;
  if (target.target.kind === "pglite-file") {
    baselineCopy = `${target.target.dir}-baseline`;
    fs.rmSync(baselineCopy, { recursive: true, force: true });
    fs.cpSync(target.target.dir, baselineCopy, { recursive: true });
    fs.rmSync(path.join(baselineCopy, ".fieldcrm.lock"), { force: true });
    baselineUrl = `file:${baselineCopy}`;
  }

  const results: CaseResult[] = [];
  const ours = startOurs({
    port: ports.ours,
    databaseUrl: target.databaseUrl,
    distDir: options.distDir,
    workers: options.workers,
    npmStart: options.npmStart,
  });
  const baseline = startBaseline({ port: ports.baseline, databaseUrl: baselineUrl, bookPath });
  try {
    await Promise.all([waitUntilUp(ours), waitUntilUp(baseline)]);
    log(`servers up: ${ours.name} ${ours.baseUrl}, baseline ${baseline.baseUrl}`);
    for (const benchCase of cases) {
      const capture = captures.find((c) => c.caseId === benchCase.id);
      const explain = explains.get(benchCase.id);
      const db = explain && {
        dbMs: Math.round(explain.dbMs * 100) / 100,
        authMs: Math.round(explain.authMs * 100) / 100,
        top: explain.top,
        heaviest: explain.heaviest,
        statements: explain.statements.length,
      };
      const base = { id: benchCase.id, title: benchCase.title, kind: benchCase.kind, ...(db ? { db } : {}) };
      const counter = new RequestCounter();
      const broken = capture?.problem ?? (await verify(benchCase, ours, baseline, key, counter));
      if (broken) {
        log(`BROKEN ${benchCase.id}: ${broken}`);
        results.push({ ...base, broken });
        continue;
      }
      const connections = Math.min(options.connections, benchCase.maxConnections ?? options.connections);
      const load = async (server: RunningServer, duration: number, amount?: number): Promise<RawLoad> => {
        const cpuBefore = server.cpuMs();
        const part = await loadCase(
          benchCase,
          { baseUrl: server.baseUrl, key, connections, duration, amount },
          counter,
        );
        return { ...part, serverCpuMs: server.cpuMs() - cpuBefore };
      };
      // Warm both (JIT, plans, caches), then measure; two halves in opposite order cancel drift.
      if (!options.amount) {
        const warmAmount = benchCase.requests ? 1 : undefined;
        await load(ours, 1, warmAmount);
        if (!benchCase.oursOnly) await load(baseline, 1, warmAmount);
      }
      const oursParts: RawLoad[] = [];
      const baseParts: RawLoad[] = [];
      const slice = options.duration / options.rounds;
      const fixed = options.amount ?? benchCase.requests;
      const amount = fixed ? Math.ceil(fixed / options.rounds) : undefined;
      for (let round = 0; round < options.rounds; round++) {
        if (benchCase.oursOnly) {
          oursParts.push(await load(ours, slice, amount));
        } else if (round % 2 === 0) {
          oursParts.push(await load(ours, slice, amount));
          baseParts.push(await load(baseline, slice, amount));
        } else {
          baseParts.push(await load(baseline, slice, amount));
          oursParts.push(await load(ours, slice, amount));
        }
      }
      const result: CaseResult = {
        ...base,
        ...(connections !== options.connections ? { connections } : {}),
        ours: summarize(oursParts),
        ...(baseParts.length > 0 ? { baseline: summarize(baseParts) } : {}),
      };
      results.push(result);
      log(
        `${benchCase.id.padEnd(22)} ours p95 ${result.ours?.p95} ms ${result.ours?.rps} req/s | baseline p95 ${result.baseline?.p95 ?? "-"} ms ${result.baseline?.rps ?? "-"} req/s`,
      );
    }
  } finally {
    await Promise.all([ours.stop(), baseline.stop()]);
    if (baselineCopy) fs.rmSync(baselineCopy, { recursive: true, force: true });
  }

  let importRun: ImportMeasure | undefined;
  if (options.importLeads > 0) {
    const again = await openRawDb(target.target);
    try {
      log(`import of ${options.importLeads.toLocaleString("en-US")} leads through lib/import…`);
      importRun = await measureImport(again.database.db, again, options.importLeads);
      log(`import: ${importRun.seconds} s`);
    } catch (error) {
      importRun = {
        leads: 0,
        seconds: 0,
        rowsPerSecond: 0,
        note: `failed: ${error instanceof Error ? error.message : String(error)}`,
      };
      log(`import failed: ${importRun.note}`);
    } finally {
      await again.close();
    }
  }

  let csvImportRun: CsvImportMeasure | undefined;
  if (options.csvLeads > 0) {
    const again = await openRawDb(target.target);
    try {
      log(`CSV import of ${options.csvLeads.toLocaleString("en-US")} leads through lib/domain/imports…`);
      csvImportRun = await measureCsvImport(again.database.db, again, options.csvLeads);
      log(
        `CSV import: dry run ${csvImportRun.dryRun.seconds} s, import ${csvImportRun.import.seconds} s, RSS +${csvImportRun.dryRun.memory.rssMb} / +${csvImportRun.import.memory.rssMb} MB`,
      );
    } catch (error) {
      const failed = { seconds: 0, memory: { rssMb: 0, heapMb: 0 } };
      const counts = { created: 0, updated: 0, refused: 0 };
      csvImportRun = {
        leads: 0,
        fileMb: 0,
        stage: failed,
        dryRun: { ...failed, ...counts },
        import: { ...failed, ...counts },
        note: `failed: ${error instanceof Error ? error.message : String(error)}`,
      };
      log(`CSV import ${csvImportRun.note}`);
    } finally {
      await again.close();
    }
  }

  const plans = [...explains.entries()]
    .map(([id, e]) =>
      [
        `## ${id} — DB ${e.dbMs.toFixed(2)} ms`,
        ...e.statements.map((s) => `-- ${s.index} (group ${s.group})\n${s.text}\n${s.plan}`),
      ].join("\n\n"),
    )
    .join("\n\n");
  return {
    run: { engine, database: target.label, generate: generated, cases: results },
    version,
    plans,
    importRun,
    csvImportRun,
  };
}

export async function main(argv: string[]): Promise<number> {
  // In-process capture runs our route handlers: no request log lines.
  process.env.LOG_LEVEL = "silent";
  const options = parseOptions(argv, process.env);
  if (options.writeResultsMd) {
    // Never delete a result here: a file RESULTS.md does not cite yet may be a run awaiting its summary.
    const existing = fs.existsSync(options.outDir) ? fs.readdirSync(options.outDir) : [];
    const full = roomForRun(existing, options.engines.length);
    if (full) {
      log(full);
      return 1;
    }
  }
  const started = performance.now();
  const loadBefore = uptime();
  log(`scale ${options.scale}, engines ${options.engines.join(" + ")}; ${loadBefore}`);
  await ensureBuild(options.distDir, { skip: !options.build, log });
  const buildStale = buildState(options.distDir).stale;
  const runTag = newRunTag();
  const outcomes: (EngineOutcome & { importRun?: ImportMeasure; csvImportRun?: CsvImportMeasure })[] = [];
  for (const [i, engine] of options.engines.entries()) {
    const target = await prepareTarget({
      scale: options.scale,
      engine,
      benchUrl: process.env.BENCH_DATABASE_URL,
      testServerUrl: process.env.TEST_DATABASE_URL,
    });
    try {
      const ports = {
        ours: await freePort(3400 + i * 10, 3449),
        baseline: await freePort(3450 + i * 10, 3499),
      };
      outcomes.push(await runEngine(options, engine, target, ports, runTag));
    } finally {
      await target.dispose();
    }
  }
  const date = new Date().toISOString().slice(0, 10);
  const first = outcomes[0];
  const machineBase = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? "?",
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
  };
  const versionOf = (engine: Engine) => outcomes.find((o) => o.run.engine === engine)?.version;
  const machine: Machine = {
    ...machineBase,
    postgres: versionOf("postgres") ?? "PostgreSQL not used",
    next: readVersion("next"),
    pglite: readVersion("@electric-sql/pglite"),
  };
  const run: BenchRun = {
    date,
    scale: options.scale,
    machine,
    settings: {
      connections: options.connections,
      duration: options.duration,
      ...(options.amount ? { amount: options.amount } : {}),
      rounds: options.rounds,
      workers: options.workers,
      ...(options.npmStart ? { npmStart: true } : {}),
      ...(buildStale ? { buildStale } : {}),
    },
    loadBefore,
    loadAfter: uptime(),
    engines: outcomes.map((o) => o.run),
    ...(outcomes.find((o) => o.importRun)?.importRun
      ? { importRun: outcomes.find((o) => o.importRun)?.importRun }
      : {}),
    ...(outcomes.find((o) => o.csvImportRun)?.csvImportRun
      ? { csvImportRun: outcomes.find((o) => o.csvImportRun)?.csvImportRun }
      : {}),
  };

  fs.mkdirSync(options.outDir, { recursive: true });
  // A second run on the same day keeps the first one's files (before/after): <date>-<scale>-2, -3…
  const section = resultsSection(options);
  const base = `${date}-${section.key}`;
  let stem = base;
  for (let n = 2; fs.existsSync(path.join(options.outDir, `${stem}.json`)) && options.writeResultsMd; n++)
    stem = `${base}-${n}`;
  fs.writeFileSync(path.join(options.outDir, `${stem}.json`), `${JSON.stringify(run, null, 2)}\n`);
  let chart: string | undefined;
  for (const outcome of outcomes) {
    const name =
      outcome.run.engine === (first?.run.engine ?? "")
        ? `${stem}-p95.svg`
        : `${stem}-${outcome.run.engine}-p95.svg`;
    fs.writeFileSync(
      path.join(options.outDir, name),
      p95Chart(
        outcome.run,
        `p95 per case, ${options.scale} scale, ${[outcome.run.engine, serverVariant(options)].filter(Boolean).join(", ")} (${date})`,
        options.workers,
        options.npmStart,
      ),
    );
    chart ??= name;
    const plansFile = path.join(ROOT, "bench", ".cache", `plans-${stem}-${outcome.run.engine}.txt`);
    fs.writeFileSync(plansFile, outcome.plans);
  }
  const markdown = markdownRun(run, chart && options.writeResultsMd ? `results/${chart}` : chart);
  console.log(markdown);
  if (options.writeResultsMd) {
    const file = path.join(ROOT, "bench", "RESULTS.md");
    const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmark results\n";
    fs.writeFileSync(file, replaceSection(current, section.key, `${section.heading}\n\n${markdown}`));
    log(`wrote bench/RESULTS.md and bench/results/${stem}.*`);
  } else {
    log(`wrote ${path.relative(ROOT, options.outDir)}/${stem}.*`);
  }
  const broken = outcomes.flatMap((o) =>
    o.run.cases.filter((c) => c.broken).map((c) => `${o.run.engine}/${c.id}`),
  );
  const failed = failedLoads(run.engines);
  log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  if (broken.length > 0) log(`broken cases: ${broken.join(", ")}`);
  for (const failure of failed) log(`FAILED REQUESTS ${failure}`);
  return broken.length > 0 || failed.length > 0 ? 1 : 0;
}

function readVersion(name: string): string {
  try {
    return (
      JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8")) as {
        version: string;
      }
    ).version;
  } catch {
    return "?";
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(
        `[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      process.exit(1);
    },
  );
}

// The framework floor: what a request costs in Next.js and plain node:http when neither does any
// work, i.e. the CPU no change in our code can remove. Modes:
//
//   npx tsx --conditions=react-server bench/floor.ts [--duration s] [--connections n] [--our-config]
//   npx tsx --conditions=react-server bench/floor.ts --get-by-id [--rounds n] [--our-config]  # least GET /leads/{id} route
//   npx tsx --conditions=react-server bench/floor.ts --replay leads-page-1000,jobs-default [--rounds n]  # baseline in Next
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { KEY_CHECK } from "@/lib/auth/api-keys";
import { POSTGRES_SESSION_OPTIONS } from "@/lib/db/client";
import { buildBook, captureCases, type CaseCapture } from "./book";
import { StatementRecorder, capturingDatabase } from "./capture";
import type { BenchCase } from "./cases";
import { largeTenant } from "./data/generate";
import { openRawDb, prepareTarget } from "./db";
import { newRunTag, startRun } from "./fixtures";
import { loadCase, median, RequestCounter, summarize } from "./load";
import { uptime } from "./machine";
import {
  ensureBuild,
  freePort,
  processTreeCpuMs,
  ROOT,
  startBaseline,
  startOurs,
  waitUntilUp,
} from "./server";

const APP_DIR = path.join(ROOT, ".next-floorapp");

const BODY = {
  status: "success",
  data: {
    id: "lead_01a194677a22000000000f4240",
    name: "Jane Example",
    email: "jane@example.com",
    phone: "(512) 555-0100",
    stage: "new",
    tags: ["vip"],
    notes: "x".repeat(200),
  },
};

/** The route handler answering BODY: static, or dynamic with the path's id in the answer too. */
function pingRoute(dynamic: boolean): string {
  const [params, read, id] = dynamic
    ? [", { params }: { params: Promise<{ id: string }> }", "  const { id } = await params;\n", ", id"]
    : ["", "", ""];
  return (
    `const body = ${JSON.stringify(BODY)};\n` +
    'export const dynamic = "force-dynamic";\n' +
    `export async function GET(request: Request${params}) {\n` +
    read +
    '  const key = request.headers.get("x-api-key") ?? "";\n' +
    `  return Response.json({ ...body, key: key.length${id} }, { headers: { "cache-control": "no-store" } });\n}\n`
  );
}

/**
 * The least a Next.js route can do for `GET /leads/{id}` under the contract: key check and daily
 * limit, the lead by primary key, its row as JSON; whatever a complete route does costs more.
 */
function leastGetByIdRoute(): string {
  return (
    'import { createHash } from "node:crypto";\n' +
    'import pg from "pg";\n' +
    // Sessions started as the API's (lib/db/client.ts), the same settings under the same statements.
    `const pool = new pg.Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: 10, options: ${JSON.stringify(POSTGRES_SESSION_OPTIONS)} });\n` +
    `const keyCheck = ${JSON.stringify(KEY_CHECK)};\n` +
    'const byId = { name: "floor_lead_by_id", text: "select * from leads where company_id = $1 and id = $2 limit 1" };\n' +
    'export const dynamic = "force-dynamic";\n' +
    "export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {\n" +
    "  const { id } = await params;\n" +
    // lib/auth/secrets.ts's hashApiKey, written out: the floor app type-checks what it imports.
    '  const hash = createHash("sha256").update(request.headers.get("x-api-key") ?? "", "utf8").digest("hex");\n' +
    "  const [key] = (await pool.query({ ...keyCheck, values: [hash] })).rows;\n" +
    '  if (!key || key.used === null) return Response.json({ status: "error" }, { status: 401 });\n' +
    "  const [lead] = (await pool.query({ ...byId, values: [key.company_id, id] })).rows;\n" +
    '  if (!lead) return Response.json({ status: "error" }, { status: 404 });\n' +
    '  return Response.json({ status: "success", data: lead }, { headers: { "cache-control": "no-store" } });\n}\n'
  );
}

/**
 * The baseline's handler inside a Next.js route (`app/api/[...path]`): its req/s over the
 * baseline's bounds what any server on Next.js route handlers can reach on a case.
 */
function replayRoute(): string {
  return (
    'import { randomUUID } from "node:crypto";\n' +
    'import fs from "node:fs";\n' +
    'import { createBaseline, openDriver, type Book } from "../../../../bench/baseline-server";\n' +
    "let handler: Promise<ReturnType<typeof createBaseline>> | undefined;\n" +
    "const open = async () =>\n" +
    '  createBaseline(JSON.parse(fs.readFileSync(process.env.FLOOR_BOOK ?? "", "utf8")) as Book, await openDriver(process.env.FLOOR_DATABASE_URL ?? ""));\n' +
    'export const dynamic = "force-dynamic";\n' +
    "async function serve(request: Request) {\n" +
    "  const url = new URL(request.url);\n" +
    "  const handle = await (handler ??= open());\n" +
    "  const headers = {\n" +
    '    "x-api-key": request.headers.get("x-api-key") ?? undefined,\n' +
    '    "service-api-version": request.headers.get("service-api-version") ?? undefined,\n' +
    "  };\n" +
    '  const body = request.method === "POST" ? await request.text() : "";\n' +
    // Next.js re-encodes the query (a comma as %2C); the book keys each case by its query as sent.
    "  const answer = await handle(request.method, url.pathname + decodeURIComponent(url.search), headers, body);\n" +
    '  return Response.json(answer.body, { status: answer.status, headers: { "x-request-id": randomUUID(), "cache-control": "no-store" } });\n' +
    "}\n" +
    "export { serve as GET, serve as POST };\n"
  );
}

const FILES: Record<string, string> = {
  "next.config.mjs": "export default { poweredByHeader: false };\n",
  "app/layout.tsx":
    "export default function RootLayout({ children }: { children: React.ReactNode }) {\n" +
    "  return (<html><body>{children}</body></html>);\n}\n",
  "app/api/ping/route.ts": pingRoute(false),
  "app/api/ping/[id]/route.ts": pingRoute(true),
  "app/api/leads/[id]/route.ts": leastGetByIdRoute(),
  "app/api/[...path]/route.ts": replayRoute(),
  // As `next build` leaves it, with the project's `@/` paths for bench/baseline-server.ts's imports.
  "tsconfig.json": `${JSON.stringify(
    {
      compilerOptions: {
        target: "ES2017",
        lib: ["dom", "dom.iterable", "esnext"],
        allowJs: true,
        skipLibCheck: true,
        strict: false,
        noEmit: true,
        incremental: true,
        module: "esnext",
        esModuleInterop: true,
        moduleResolution: "bundler",
        resolveJsonModule: true,
        isolatedModules: true,
        jsx: "react-jsx",
        plugins: [{ name: "next" }],
        paths: { "@/*": ["../*"] },
      },
      include: [
        "next-env.d.ts",
        ".next/types/**/*.ts",
        ".next/dev/types/**/*.ts",
        "**/*.mts",
        "**/*.ts",
        "**/*.tsx",
      ],
      exclude: ["node_modules"],
    },
    null,
    2,
  )}\n`,
  "plain.mjs":
    'import http from "node:http";\n' +
    `const body = ${JSON.stringify(BODY)};\n` +
    "http.createServer((req, res) => {\n" +
    '  const key = req.headers["x-api-key"] ?? "";\n' +
    "  const text = JSON.stringify({ ...body, key: key.length });\n" +
    '  res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });\n' +
    "  res.end(text);\n" +
    '}).listen(Number(process.env.PORT), "127.0.0.1");\n',
};

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

/**
 * Writes the app's changed files. `ourConfig` adds our next.config.mjs (security headers) and
 * proxy.ts, to include the product's framework configuration.
 */
function writeApp(ourConfig: boolean): boolean {
  const files = { ...FILES };
  const own = ["next.config.mjs", "proxy.ts"];
  if (ourConfig) for (const file of own) files[file] = fs.readFileSync(path.join(ROOT, file), "utf8");
  let changed = false;
  if (!ourConfig && fs.existsSync(path.join(APP_DIR, "proxy.ts"))) {
    fs.rmSync(path.join(APP_DIR, "proxy.ts"));
    changed = true;
  }
  for (const [file, text] of Object.entries(files)) {
    const target = path.join(APP_DIR, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (fs.existsSync(target) && fs.readFileSync(target, "utf8") === text) continue;
    fs.writeFileSync(target, text);
    changed = true;
  }
  return changed;
}

function build(): void {
  const next = path.join(ROOT, "node_modules", ".bin", "next");
  const result = spawnSync(next, ["build", APP_DIR], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: ".next" },
  });
  if (result.status !== 0) throw new Error(`next build of ${APP_DIR} failed`);
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within 60 s`);
}

function load(url: string, seconds: number, connections: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, headers: { "x-api-key": "floor" } }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

interface Measured {
  server: string;
  requests: number;
  rps: number;
  p50: number;
  /** p97.5 (autocannon's own) for the empty routes, p95 (the bench's) for get by id. */
  tail: number;
  cpuMsPerRequest: number;
}

/** Each path loaded in turn on one server process, with that process tree's CPU per request. */
async function measure(
  server: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  port: number,
  paths: string[],
  options: { duration: number; connections: number },
): Promise<Measured[]> {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: "ignore" });
  try {
    const measured: Measured[] = [];
    for (const route of paths) {
      const url = `http://127.0.0.1:${port}${route}`;
      await waitFor(url, child);
      await load(url, 2, options.connections); // warm-up
      const before = processTreeCpuMs(child.pid!);
      const result = await load(url, options.duration, options.connections);
      const cpu = processTreeCpuMs(child.pid!) - before;
      const requests = result.requests.total;
      measured.push({
        server: `${server} ${route}`,
        requests,
        rps: requests / options.duration,
        p50: result.latency.p50,
        tail: result.latency.p97_5,
        cpuMsPerRequest: cpu / requests,
      });
    }
    return measured;
  } finally {
    child.kill("SIGTERM");
  }
}

interface Server {
  name: string;
  baseUrl: string;
  cpuMs: () => number;
}

/**
 * The large bench database with a fresh key, and the named cases each captured once through our
 * route in-process: statements for the baseline, and a first check that it answers right.
 */
async function prepareCases(caseIds: readonly string[]) {
  // The bench database (generated by `npm run bench -- --scale large`, or BENCH_DATABASE_URL).
  const { target, databaseUrl } = await prepareTarget({
    scale: "large",
    engine: "postgres",
    benchUrl: process.env.BENCH_DATABASE_URL,
  });
  const raw = await openRawDb(target);
  const companyId = largeTenant("large").companyId;
  try {
    const { key, cases } = await startRun(raw, companyId, newRunTag(), caseIds);
    for (const id of caseIds)
      if (!cases.some((c) => c.id === id)) throw new Error(`no case "${id}" in bench/cases.ts`);
    const recorder = new StatementRecorder();
    const capturing = await capturingDatabase(target, recorder);
    let captures: CaseCapture[];
    try {
      captures = await captureCases(capturing, recorder, cases, key);
    } finally {
      await capturing.close();
    }
    for (const capture of captures)
      if (capture.problem) throw new Error(`${capture.caseId} answers wrong in-process: ${capture.problem}`);
    const bookPath = path.join(ROOT, "bench", ".cache", "book-floor.json");
    fs.mkdirSync(path.dirname(bookPath), { recursive: true });
    fs.writeFileSync(bookPath, JSON.stringify(buildBook(companyId, key, cases, captures)));
    return { databaseUrl, key, cases, bookPath };
  } finally {
    await raw.close();
  }
}

/**
 * One case on each server, alternately in rounds, with warm-ups and each process tree's CPU per
 * request. Any wrong answer or error stops the measurement.
 */
async function alternate(
  benchCase: BenchCase,
  servers: readonly Server[],
  key: string,
  options: { duration: number; connections: number; rounds: number },
): Promise<Measured[]> {
  const counter = new RequestCounter();
  const load = (baseUrl: string, duration: number) =>
    loadCase(benchCase, { baseUrl, key, connections: options.connections, duration }, counter);
  for (const server of servers) await load(server.baseUrl, 5);
  const measured: Measured[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    for (const server of servers) {
      await load(server.baseUrl, 2);
      const before = server.cpuMs();
      const result = summarize([await load(server.baseUrl, options.duration)]);
      const cpu = server.cpuMs() - before;
      if (result.unexpected > 0 || result.errors > 0)
        throw new Error(
          `${benchCase.id} on ${server.name}: ${result.unexpected} unexpected answers (statuses ${JSON.stringify(result.statuses)}), ${result.errors} errors`,
        );
      measured.push({
        server: `${benchCase.id}: ${server.name}, round ${round}`,
        requests: result.requests,
        rps: result.rps,
        p50: result.p50,
        tail: result.p95,
        cpuMsPerRequest: cpu / result.requests,
      });
    }
  }
  return measured;
}

/** `values`' range and median, as `a–b (median m)`. */
const spread = (values: number[]) =>
  `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)} (median ${median(values).toFixed(2)})`;

/**
 * Each server's req/s relative to the first (the baseline) in the same round, as one line per
 * server; from the third on, also its CPU per request relative to the second's.
 */
function ratiosToFirst(caseId: string, servers: readonly { name: string }[], rounds: Measured[]): string[] {
  const count = rounds.length / servers.length;
  const of = (server: number) =>
    Array.from({ length: count }, (_, round) => rounds[round * servers.length + server]!);
  const cpu = (measured: Measured[]) => median(measured.map((m) => m.cpuMsPerRequest)).toFixed(2);
  const [first, second] = [of(0), of(1)];
  return servers.slice(1).map((server, i) => {
    const own = of(i + 1);
    const ratio = own.map((m, round) => m.rps / first[round]!.rps);
    const reached = ratio.filter((r) => r >= 0.8).length;
    const overSecond =
      i === 0
        ? ""
        : `; CPU per request over ${servers[1]!.name}'s: ` +
          spread(own.map((m, round) => m.cpuMsPerRequest / second[round]!.cpuMsPerRequest));
    return (
      `${caseId}: ${server.name} / ${servers[0]!.name}: req/s ${spread(ratio)}, ≥ 0.8 in ${reached} ` +
      `of ${count} rounds; CPU ms/request medians ${cpu(own)} / ${cpu(first)}${overSecond}`
    );
  });
}

interface FloorApp {
  command: string;
  args: (port: number) => string[];
  env: Record<string, string>;
}

/** The floor app's server on the bench database, with `book` for its replay route. */
async function startFloorApp(floorApp: FloorApp, databaseUrl: string, bookPath: string) {
  const port = await freePort(3420, 3449);
  const child = spawn(floorApp.command, floorApp.args(port), {
    cwd: ROOT,
    env: { ...process.env, ...floorApp.env, FLOOR_DATABASE_URL: databaseUrl, FLOOR_BOOK: bookPath },
    stdio: "ignore",
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`${baseUrl}/api/ping`, child);
  return { baseUrl, cpuMs: () => processTreeCpuMs(child.pid!), stop: () => child.kill("SIGTERM") };
}

/** What a comparison on the bench database runs on: its key and cases, our server and the floor app. */
interface Started {
  databaseUrl: string;
  key: string;
  cases: BenchCase[];
  bookPath: string;
  ours: Server;
  /** The floor app, named by the comparison that runs on it. */
  floor: Omit<Server, "name">;
}

/**
 * The named cases prepared (prepareCases), our server (`next start` of the bench build) and the
 * floor app up on the bench database; `run` is given them, and both servers are stopped after it.
 */
async function withOursAndFloorApp<T>(
  caseIds: readonly string[],
  floorApp: FloorApp,
  run: (started: Started) => Promise<T>,
): Promise<T> {
  const { databaseUrl, key, cases, bookPath } = await prepareCases(caseIds);
  await ensureBuild(".next-bench", { skip: false, log: (m) => console.log(m) });
  const ours = startOurs({ port: await freePort(3400, 3419), databaseUrl, distDir: ".next-bench" });
  try {
    await waitUntilUp(ours);
    const floor = await startFloorApp(floorApp, databaseUrl, bookPath);
    try {
      return await run({
        databaseUrl,
        key,
        cases,
        bookPath,
        ours: { name: ours.name, baseUrl: ours.baseUrl, cpuMs: ours.cpuMs },
        floor: { baseUrl: floor.baseUrl, cpuMs: floor.cpuMs },
      });
    } finally {
      floor.stop();
    }
  } finally {
    await ours.stop();
  }
}

/**
 * GET /leads/{id}: our server against the least route above (RESULTS.md, the floor section).
 */
function measureGetById(floorApp: FloorApp, options: Parameters<typeof alternate>[3]) {
  return withOursAndFloorApp(["lead-by-id"], floorApp, ({ key, cases, ours, floor }) =>
    alternate(
      cases[0]!,
      [
        { ...ours, name: `${ours.name} /api/leads/[id]` },
        { ...floor, name: "Next.js, least route /api/leads/[id]" },
      ],
      key,
      options,
    ),
  );
}

/**
 * The named cases on the baseline, the same handler in Next.js and our server, in the same rounds:
 * the framework's share of a case beside our layers' share.
 */
function measureReplay(caseIds: string[], floorApp: FloorApp, options: Parameters<typeof alternate>[3]) {
  return withOursAndFloorApp(
    caseIds,
    floorApp,
    async ({ databaseUrl, key, cases, bookPath, ours, floor }) => {
      const baseline = startBaseline({ port: await freePort(3450, 3499), databaseUrl, bookPath });
      try {
        await waitUntilUp(baseline);
        const servers: Server[] = [
          { name: "baseline (node:http)", baseUrl: baseline.baseUrl, cpuMs: baseline.cpuMs },
          { ...floor, name: "baseline's handler in a Next.js route" },
          ours,
        ];
        const measured: Measured[] = [];
        const ratios: string[] = [];
        for (const benchCase of cases) {
          const rounds = await alternate(benchCase, servers, key, options);
          measured.push(...rounds);
          ratios.push(...ratiosToFirst(benchCase.id, servers, rounds));
        }
        return { measured, ratios };
      } finally {
        await baseline.stop();
      }
    },
  );
}

async function main(): Promise<void> {
  // The in-process capture runs our route handlers: no request log lines.
  process.env.LOG_LEVEL ??= "error";
  const options = {
    duration: option("duration", 10),
    connections: option("connections", 8),
    rounds: option("rounds", 2),
  };
  const changed = writeApp(process.argv.includes("--our-config"));
  if (changed || !fs.existsSync(path.join(APP_DIR, ".next", "BUILD_ID"))) build();
  const floorApp: FloorApp = {
    command: path.join(ROOT, "node_modules", ".bin", "next"),
    args: (port: number) => ["start", APP_DIR, "-p", String(port), "-H", "127.0.0.1"],
    env: { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: ".next" },
  };
  const before = uptime();
  const nextPort = await freePort(3400, 3449);
  const next = await measure(
    "Next.js (next start, route handler)",
    floorApp.command,
    floorApp.args(nextPort),
    floorApp.env,
    nextPort,
    ["/api/ping", "/api/ping/lead_01a194677a22000000000f4240"],
    options,
  );
  const plainPort = await freePort(3450, 3499);
  const plain = await measure(
    "node:http",
    process.execPath,
    [path.join(APP_DIR, "plain.mjs")],
    { PORT: String(plainPort) },
    plainPort,
    ["/api/ping"],
    options,
  );
  const getById = process.argv.includes("--get-by-id") ? await measureGetById(floorApp, options) : [];
  const replayAt = process.argv.indexOf("--replay");
  const replayed =
    replayAt >= 0
      ? await measureReplay((process.argv[replayAt + 1] ?? "").split(","), floorApp, options)
      : { measured: [], ratios: [] };
  console.log(`\nFramework floor, ${options.connections} connections, ${options.duration} s each`);
  console.log(`uptime before: ${before}\nuptime after:  ${uptime()}\n`);
  printTable("p50 / p97.5 ms", [...next, ...plain]);
  if (getById.length > 0) {
    console.log("\nGET /leads/{id} on the large bench database, as the bench loads it\n");
    printTable("p50 / p95 ms", getById);
  }
  if (replayed.measured.length > 0) {
    console.log(
      "\nThe baseline, its handler in a Next.js route and our server, on the large bench database\n",
    );
    printTable("p50 / p95 ms", replayed.measured);
    console.log(
      `\nBy round, against the baseline:\n${replayed.ratios.map((line) => `- ${line}`).join("\n")}`,
    );
  }
}

function printTable(latencies: string, rows: Measured[]): void {
  console.log(`| server | requests | req/s | ${latencies} | server CPU ms per request |`);
  console.log("|---|---:|---:|---:|---:|");
  for (const m of rows) {
    console.log(
      `| ${m.server} | ${m.requests} | ${Math.round(m.rps)} | ${m.p50} / ${m.tail} | ${m.cpuMsPerRequest.toFixed(3)} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

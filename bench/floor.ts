/**
 * The framework floor: what one request costs in Next.js (`next start`, App Router route handler)
 * and in plain node:http when neither does any work — the same ~400-byte JSON, no database.
 * It is the part of our CPU per request that no change in our code can remove (bench/RESULTS.md,
 * finding 4), measured the way the bench measures servers: autocannon at fixed concurrency and the
 * server process tree's CPU time from /proc.
 *
 *   npx tsx bench/floor.ts [--duration s] [--connections n]
 *
 * Next.js is measured twice: a static route (`/api/ping`, like `GET /pin-types`) and a dynamic one
 * (`/api/ping/[id]`, like `GET /leads/{id}`). The minimal Next.js app is written to
 * `.next-floorapp/` (ignored by git, lint and tsc) and built there on first use; with
 * `--our-config` it carries our next.config.mjs and proxy.ts (see writeApp).
 *
 *   npx tsx bench/floor.ts --get-by-id [--rounds n] [--our-config]
 *
 * adds the floor of `GET /leads/{id}` itself, on the large bench database (BENCH_DATABASE_URL, or
 * `fcrm_bench_large` made by `npm run bench -- --scale large`): the least a Next.js route handler
 * can do for it under the contract (leastGetByIdRoute), loaded as the bench loads that case,
 * alternately with our server's real route, in rounds (default 2).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { KEY_CHECK } from "@/lib/api/api-keys";
import { buildCases, type BenchCase } from "./cases";
import { largeTenant } from "./data/generate";
import { DEFAULT_SERVER_URL, openRawDb, withDatabase } from "./db";
import { cleanUpEarlierRuns, createBenchKey, readFixtures } from "./fixtures";
import { loadCase, RequestCounter, summarize } from "./load";
import { uptime } from "./machine";
import { ensureBuild, freePort, processTreeCpuMs, ROOT, startOurs, waitUntilUp } from "./server";

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
 * The least a Next.js route handler can do for `GET /leads/{id}` under the contract: hash the key,
 * find it and count the request against its daily limit (our key check, the same statement), read
 * the lead by its primary key, answer its row as JSON, on a pool of 10 like ours. No validation,
 * no mapping of the row, no error mapping, deadline or logging: whatever a complete route does
 * costs at least this.
 */
function leastGetByIdRoute(): string {
  return (
    'import { createHash } from "node:crypto";\n' +
    'import pg from "pg";\n' +
    "const pool = new pg.Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: 10 });\n" +
    `const keyCheck = ${JSON.stringify(KEY_CHECK)};\n` +
    'const byId = { name: "floor_lead_by_id", text: "select * from leads where company_id = $1 and id = $2 limit 1" };\n' +
    'export const dynamic = "force-dynamic";\n' +
    "export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {\n" +
    "  const { id } = await params;\n" +
    '  const hash = createHash("sha256").update(request.headers.get("x-api-key") ?? "", "utf8").digest("hex");\n' +
    "  const [key] = (await pool.query({ ...keyCheck, values: [hash] })).rows;\n" +
    '  if (!key || key.used === null) return Response.json({ status: "error" }, { status: 401 });\n' +
    "  const [lead] = (await pool.query({ ...byId, values: [key.company_id, id] })).rows;\n" +
    '  if (!lead) return Response.json({ status: "error" }, { status: 404 });\n' +
    '  return Response.json({ status: "success", data: lead }, { headers: { "cache-control": "no-store" } });\n}\n'
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
 * Writes the app's files (only those that changed). With `ourConfig`, the app carries the
 * product's framework configuration too: our next.config.mjs (the security headers on every
 * response) and proxy.ts (the dashboard pages' proxy, which does not match /api).
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

/**
 * GET /leads/{id} as the bench loads it (its case, its ids, its key and headers), on our server
 * (`next start` of the bench build) and on the least route above, alternately in rounds (each
 * server first warmed for 5 s, each load after a 2 s warm-up), with each server process tree's CPU
 * per request.
 */
async function measureGetById(
  floorApp: { command: string; args: (port: number) => string[]; env: Record<string, string> },
  options: { duration: number; connections: number; rounds: number },
): Promise<Measured[]> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? withDatabase(DEFAULT_SERVER_URL, "fcrm_bench_large");
  const raw = await openRawDb({ kind: "postgres", url: databaseUrl }).catch((error: unknown) => {
    throw new Error(
      `--get-by-id needs the large bench database (npm run bench -- --scale large): ${String(error)}`,
    );
  });
  let key: string;
  let benchCase: BenchCase | undefined;
  try {
    const companyId = largeTenant("large").companyId;
    await cleanUpEarlierRuns(raw, companyId);
    key = await createBenchKey(raw, companyId);
    const runTag = String(Math.floor(Math.random() * 90) + 10);
    benchCase = buildCases(await readFixtures(raw, companyId, runTag)).find((c) => c.id === "lead-by-id");
  } finally {
    await raw.close();
  }
  if (!benchCase) throw new Error("bench/cases.ts has no lead-by-id case");
  await ensureBuild(".next-bench", { skip: false, log: (m) => console.log(m) });
  const oursPort = await freePort(3400, 3449);
  const ours = startOurs({ port: oursPort, databaseUrl, distDir: ".next-bench" });
  const leastPort = await freePort(oursPort + 1, 3449);
  const least = spawn(floorApp.command, floorApp.args(leastPort), {
    cwd: ROOT,
    env: { ...process.env, ...floorApp.env, FLOOR_DATABASE_URL: databaseUrl },
    stdio: "ignore",
  });
  const servers: { name: string; baseUrl: string; cpuMs: () => number }[] = [
    { name: `${ours.name} /api/leads/[id]`, baseUrl: ours.baseUrl, cpuMs: ours.cpuMs },
    {
      name: "Next.js, least route /api/leads/[id]",
      baseUrl: `http://127.0.0.1:${leastPort}`,
      cpuMs: () => processTreeCpuMs(least.pid!),
    },
  ];
  try {
    await waitUntilUp(ours);
    await waitFor(`${servers[1]!.baseUrl}/api/ping`, least);
    const counter = new RequestCounter();
    const load = (baseUrl: string, duration: number) =>
      loadCase(benchCase, { baseUrl, key, connections: options.connections, duration }, counter);
    // Both servers' code warm (JIT, prepared statements, pools) before the first round.
    for (const server of servers) await load(server.baseUrl, 5);
    const measured: Measured[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const server of servers) {
        await load(server.baseUrl, 2); // warm-up
        const before = server.cpuMs();
        const result = summarize([await load(server.baseUrl, options.duration)]);
        const cpu = server.cpuMs() - before;
        if (result.unexpected > 0 || result.errors > 0)
          throw new Error(`${server.name}: ${result.unexpected} unexpected answers, ${result.errors} errors`);
        measured.push({
          server: `${server.name}, round ${round}`,
          requests: result.requests,
          rps: result.rps,
          p50: result.p50,
          tail: result.p95,
          cpuMsPerRequest: cpu / result.requests,
        });
      }
    }
    return measured;
  } finally {
    least.kill("SIGTERM");
    await ours.stop();
  }
}

async function main(): Promise<void> {
  const options = {
    duration: option("duration", 10),
    connections: option("connections", 8),
    rounds: option("rounds", 2),
  };
  const changed = writeApp(process.argv.includes("--our-config"));
  if (changed || !fs.existsSync(path.join(APP_DIR, ".next", "BUILD_ID"))) build();
  const floorApp = {
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
  console.log(`\nFramework floor, ${options.connections} connections, ${options.duration} s each`);
  console.log(`uptime before: ${before}\nuptime after:  ${uptime()}\n`);
  printTable("p50 / p97.5 ms", [...next, ...plain]);
  if (getById.length > 0) {
    console.log("\nGET /leads/{id} on the large bench database, as the bench loads it\n");
    printTable("p50 / p95 ms", getById);
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

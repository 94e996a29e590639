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
 * `.next-floorapp/` (ignored by git, lint and tsc) and built there on first use.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { uptime } from "./machine";
import { freePort, processTreeCpuMs, ROOT } from "./server";

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

const FILES: Record<string, string> = {
  "next.config.mjs": "export default { poweredByHeader: false };\n",
  "app/layout.tsx":
    "export default function RootLayout({ children }: { children: React.ReactNode }) {\n" +
    "  return (<html><body>{children}</body></html>);\n}\n",
  "app/api/ping/route.ts": pingRoute(false),
  "app/api/ping/[id]/route.ts": pingRoute(true),
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

function writeApp(): boolean {
  let changed = false;
  for (const [file, text] of Object.entries(FILES)) {
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
  p97_5: number;
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
        p97_5: result.latency.p97_5,
        cpuMsPerRequest: cpu / requests,
      });
    }
    return measured;
  } finally {
    child.kill("SIGTERM");
  }
}

async function main(): Promise<void> {
  const options = { duration: option("duration", 10), connections: option("connections", 8) };
  const changed = writeApp();
  if (changed || !fs.existsSync(path.join(APP_DIR, ".next", "BUILD_ID"))) build();
  const before = uptime();
  const nextPort = await freePort(3400, 3449);
  const next = await measure(
    "Next.js (next start, route handler)",
    path.join(ROOT, "node_modules", ".bin", "next"),
    ["start", APP_DIR, "-p", String(nextPort), "-H", "127.0.0.1"],
    { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", NEXT_DIST_DIR: ".next" },
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
  console.log(`\nFramework floor, ${options.connections} connections, ${options.duration} s each`);
  console.log(`uptime before: ${before}\nuptime after:  ${uptime()}\n`);
  console.log("| server | requests | req/s | p50 / p97.5 ms | server CPU ms per request |");
  console.log("|---|---:|---:|---:|---:|");
  for (const m of [...next, ...plain]) {
    console.log(
      `| ${m.server} | ${m.requests} | ${Math.round(m.rps)} | ${m.p50} / ${m.p97_5} | ${m.cpuMsPerRequest.toFixed(3)} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

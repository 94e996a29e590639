import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { oursServerName } from "./report";

export const ROOT = path.resolve(__dirname, "..");
const bin = (name: string) => path.join(ROOT, "node_modules", ".bin", name);

/** The folders and files a production build depends on. */
const SOURCES = [
  "app",
  "lib",
  "components",
  "public",
  "next.config.mjs",
  "package.json",
  "tsconfig.json",
  "postcss.config.mjs",
];

function newestMtime(entry: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

export interface BuildState {
  distDir: string;
  exists: boolean;
  /** A source file changed after the build. */
  stale: boolean;
}

export function buildState(distDir: string): BuildState {
  const buildId = path.join(ROOT, distDir, "BUILD_ID");
  if (!fs.existsSync(buildId)) return { distDir, exists: false, stale: true };
  const built = fs.statSync(buildId).mtimeMs;
  const sources = Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s))));
  return { distDir, exists: true, stale: sources > built };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Builds the app into distDir unless a build newer than every source is there (or `skip`:
 * --no-build, any existing build is used as it is).
 */
export async function ensureBuild(distDir: string, options: { skip: boolean; log: (m: string) => void }) {
  const state = buildState(distDir);
  if (state.exists && (options.skip || !state.stale)) {
    options.log(
      `using the existing build in ${distDir}${state.stale ? " (older than the sources, used as it is)" : ""}`,
    );
    return;
  }
  if (!state.exists && options.skip) throw new Error(`--no-build: there is no build in ${distDir}`);
  options.log(`building into ${distDir} (next build)…`);
  // next build adds its folder's type globs to tsconfig.json; restore the file and its mtime, since
  // it is a build source and a newer one would make this build stale at once.
  const tsconfig = path.join(ROOT, "tsconfig.json");
  const before = { text: fs.readFileSync(tsconfig, "utf8"), stat: fs.statSync(tsconfig) };
  let code: number;
  try {
    code = await run(bin("next"), ["build"], {
      ...process.env,
      NEXT_DIST_DIR: distDir,
      NEXT_TELEMETRY_DISABLED: "1",
    });
  } finally {
    if (fs.readFileSync(tsconfig, "utf8") !== before.text) {
      fs.writeFileSync(tsconfig, before.text);
      fs.utimesSync(tsconfig, before.stat.atime, before.stat.mtime);
    }
  }
  if (code !== 0) throw new Error(`next build failed (exit status ${code})`);
}

/** A free port in [from, to] (the bench's range is 3400-3499). */
export async function freePort(from: number, to: number): Promise<number> {
  for (let port = from; port <= to; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${from}-${to}`);
}

export interface RunningServer {
  name: string;
  baseUrl: string;
  process: ChildProcess;
  /** Whether it said it is ready (a server of several workers answers before all of them are up). */
  ready(): boolean;
  /** CPU time used so far by the server and its child processes, ms (Linux; NaN elsewhere). */
  cpuMs(): number;
  /** What it printed (the last lines), for the error message when it fails. */
  output(): string;
  stop(): Promise<void>;
}

function startProcess(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  readyLine?: RegExp,
): RunningServer {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: false });
  const lines: string[] = [];
  let ready = !readyLine;
  const keep = (chunk: Buffer) => {
    const added = chunk.toString().split("\n").filter(Boolean);
    ready ||= added.some((line) => readyLine!.test(line));
    lines.push(...added);
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return {
    name,
    baseUrl: `http://127.0.0.1:${port}`,
    process: child,
    ready: () => ready,
    cpuMs: () => (child.pid ? processTreeCpuMs(child.pid) : Number.NaN),
    output: () => lines.join("\n"),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * utime + stime of a process and its descendants, from /proc. CPU per request is steadier than
 * req/s on a shared machine, as it does not depend on the share of cores the server got.
 */
export function processTreeCpuMs(rootPid: number): number {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return Number.NaN;
  }
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const pid of entries) {
    try {
      const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      // Fields after the command name (which may contain spaces) in parentheses.
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(pid), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process ended meanwhile
    }
  }
  let total = 0;
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    total += stats.get(pid)?.ticks ?? 0;
    for (const [child, info] of stats) if (info.ppid === pid) queue.push(child);
  }
  return (total * 1000) / TICKS_PER_SECOND;
}

/** Waits until the server answers (any status below 500 on /api/auth/test). */
export async function waitUntilUp(server: RunningServer, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.process.exitCode !== null)
      throw new Error(`${server.name} exited early (status ${server.process.exitCode}):\n${server.output()}`);
    try {
      const response = await fetch(`${server.baseUrl}/api/auth/test`, { signal: AbortSignal.timeout(5000) });
      if (response.status < 500 && server.ready()) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${server.name} did not answer within ${timeoutMs / 1000} s:\n${server.output()}`);
}

/**
 * Our server on the bench database, errors-only logging: `next start` for one worker (comparable
 * with earlier runs) or `npmStart`; more workers run `npm start` with WEB_CONCURRENCY (PostgreSQL).
 */
export function startOurs(options: {
  port: number;
  databaseUrl: string;
  distDir: string;
  workers?: number;
  npmStart?: boolean;
}): RunningServer {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: options.distDir,
    DATABASE_URL: options.databaseUrl,
    LOG_LEVEL: "error",
    PORT: String(options.port),
  };
  const workers = options.workers ?? 1;
  const name = `our server (${oursServerName(workers, options.npmStart)})`;
  if (workers > 1 || options.npmStart) {
    // scripts/start.ts says where it listens once it does (and how many workers are up).
    const ready = `^FieldCRM: \\S+${workers > 1 ? ` with ${workers} workers` : ""}$`;
    return startProcess(
      name,
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", path.join(ROOT, "scripts", "start.ts")],
      { ...env, WEB_CONCURRENCY: String(workers) },
      options.port,
      new RegExp(ready),
    );
  }
  return startProcess(
    name,
    bin("next"),
    ["start", "-p", String(options.port), "-H", "127.0.0.1"],
    { ...env, WEB_CONCURRENCY: "1" },
    options.port,
  );
}

/** bench/baseline-server.ts: node:http and the driver, replaying our statements. */
export function startBaseline(options: {
  port: number;
  databaseUrl: string;
  bookPath: string;
}): RunningServer {
  return startProcess(
    "baseline server",
    bin("tsx"),
    ["--conditions=react-server", path.join(ROOT, "bench", "baseline-server.ts")],
    {
      ...process.env,
      NODE_ENV: "production",
      BASELINE_PORT: String(options.port),
      BASELINE_DATABASE_URL: options.databaseUrl,
      BASELINE_BOOK: options.bookPath,
    },
    options.port,
  );
}

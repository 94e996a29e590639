import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "@/lib/db/client";
import { parseDatabaseUrl } from "@/lib/env";
import { API_VERSION } from "@/lib/schemas/auth";
import { createApiKey, createCompany, createUser } from "@/lib/testing/factories";

// Real server processes for the system tests: a fresh database per engine, and the server started
// as `npm start` does in one process, so signals reach exactly it. Ports 3600–3699.

export const ROOT = path.resolve(__dirname, "..");
export const engine: "pglite" | "postgres" = process.env.TEST_DATABASE_URL ? "postgres" : "pglite";

export interface FreshDatabase {
  url: string;
  label: string;
  /** Opens it from the test process (on the embedded engine: only while no server runs). */
  open(): Promise<Database>;
  drop(): Promise<void>;
}

export async function freshDatabase(): Promise<FreshDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const open = async (url: string) => {
    const database = await openDatabase(parseDatabaseUrl(url));
    await database.migrate();
    return database;
  };
  if (!serverUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldcrm-system-"));
    const url = `file:${path.join(dir, "pglite")}`;
    return {
      url,
      label: `embedded database in ${dir}`,
      open: () => open(url),
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const { default: pg } = await import("pg");
  const name = `fcrm_system_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    label: `PostgreSQL database ${name}`,
    open: () => open(url.toString()),
    drop: () => admin(`drop database if exists "${name}" with (force)`),
  };
}

/**
 * A fresh database with a company and an API key, opened and closed again by the test process,
 * since the embedded database serves one process: the server's.
 */
export async function freshDatabaseWithKey(): Promise<{ db: FreshDatabase; key: string }> {
  const db = await freshDatabase();
  const database = await db.open();
  try {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id, { dailyLimit: 1_000_000 });
    return { db, key };
  } finally {
    await database.close();
  }
}

/** A fresh database with one company and an admin who signs in with `user` (opened and closed as above). */
export async function freshDatabaseWithAdmin(user: {
  email: string;
  password: string;
}): Promise<FreshDatabase> {
  const db = await freshDatabase();
  const database = await db.open();
  try {
    const company = await createCompany(database.db);
    await createUser(database.db, company.id, { role: "admin", ...user });
    return db;
  } finally {
    await database.close();
  }
}

/** Signs in on the server; the session cookie (`name=value`), or an error if sign-in failed. */
export async function signInCookie(
  serverUrl: string,
  user: { email: string; password: string },
): Promise<string> {
  const res = await fetch(`${serverUrl}/api/auth/sign-in`, {
    method: "POST",
    headers: { ...VERSION, "content-type": "application/json" },
    body: JSON.stringify(user),
  });
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  return (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
}

export interface SentRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The body is sent in this many pieces, `delayMs` apart: a request that stays in flight. */
  pieces?: number;
  delayMs?: number;
  /**
   * Called once the server has read the request's head (its 100 Continue): the request is then
   * in flight on the server, however slowly the machine runs, and its body follows.
   */
  onAccepted?: () => void;
}

/** Requests in flight: each is sent with `onAccepted`, and `all` resolves once the server has read every head. */
export function inFlightRequests(
  count: number,
  send: (index: number, onAccepted: () => void) => ReturnType<typeof sendRequest>,
) {
  let accepted = 0;
  let allAccepted!: () => void;
  const all = new Promise<void>((resolve) => (allAccepted = resolve));
  const results = Array.from({ length: count }, (_, i) =>
    send(i, () => ++accepted === count && allAccepted()),
  );
  return { accepted: all, results: Promise.all(results) };
}

/**
 * One request on a connection of its own (no keep-alive: with several workers, the primary hands
 * each new connection to the next one), answered with JSON.
 */
export function sendRequest(
  url: string,
  { method = "GET", headers = {}, body, pieces = 1, delayMs = 0, onAccepted }: SentRequest = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent: false,
        headers: {
          ...headers,
          ...(body ? { "content-length": Buffer.byteLength(body) } : {}),
          ...(onAccepted ? { expect: "100-continue" } : {}),
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    // With an Expect header the head goes out now; the body waits for the server's 100 Continue.
    if (onAccepted) req.flushHeaders();
    const sendBody = async () => {
      onAccepted?.();
      const size = Math.ceil((body?.length ?? 0) / pieces);
      for (let i = 0; body && i < pieces; i++) {
        req.write(body.slice(i * size, (i + 1) * size));
        await sleep(delayMs);
      }
      req.end();
    };
    if (onAccepted) req.once("continue", () => void sendBody());
    else void sendBody();
  });
}

/** Ports of 3600–3699 that fetch refuses ("bad port", the Fetch standard's port blocking list). */
const FETCH_BLOCKED_PORTS = new Set([3659]);

/** A free port in 3600–3699 (the range reserved for these tests), one that fetch may call. */
export async function freePort(): Promise<number> {
  const start = 3600 + Math.floor(Math.random() * 100);
  for (let i = 0; i < 100; i++) {
    const port = 3600 + ((start - 3600 + i) % 100);
    if (FETCH_BLOCKED_PORTS.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error("no free port in 3600–3699");
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
}

export interface StartOptions {
  databaseUrl: string;
  port?: number;
  env?: Record<string, string>;
  /** Wait until it answers (default true); false for a process expected to fail. */
  waitUntilUp?: boolean;
}

/** Starts `scripts/start.ts` (migrations, then the production server) as its own process. */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, ["-C", "react-server", "--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: options.databaseUrl,
      PORT: String(port),
      LOG_LEVEL: "info",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const exited = new Promise<number | string>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  const server: ServerProcess = {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
  };
  if (options.waitUntilUp !== false) {
    try {
      await waitUntilUp(server);
    } catch (error) {
      child.kill("SIGKILL"); // never leave a half-started server behind
      throw error;
    }
  }
  return server;
}

export async function waitUntilUp(server: ServerProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`the server exited early:\n${server.output()}`);
    }
    try {
      const status = await getOnNewConnection(`${server.url}/api/openapi.json`);
      if (status === 200) return;
      last = `status ${status}`;
    } catch (error) {
      last = String(error); // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`the server did not come up within ${timeoutMs / 1000} s (${last}):\n${server.output()}`);
}

/** Waits until the process has written a line matching `pattern`. */
export async function waitForOutput(
  server: ServerProcess,
  pattern: RegExp,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(server.output())) {
    if (Date.now() > deadline) throw new Error(`no output matching ${pattern}:\n${server.output()}`);
    await sleep(50);
  }
}

/** A GET on a new connection (no keep-alive pool): tells whether the server still accepts connections. */
export function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timeout")));
  });
}

/** SIGTERM (graceful; SIGKILL after a while if it hangs), resolving the exit status. */
export async function stopServer(server: ServerProcess | undefined, timeoutMs = 30_000) {
  if (!server) return undefined;
  if (server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill("SIGTERM");
    const timer = setTimeout(() => server.child.kill("SIGKILL"), timeoutMs);
    const status = await server.exited;
    clearTimeout(timer);
    return status;
  }
  return server.exited;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const VERSION = { "service-api-version": API_VERSION };

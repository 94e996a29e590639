// npm run test:e2e – builds the app, starts it on a fresh database with the demo data and runs e2e/ with
// Playwright; extra arguments go to Playwright (`npm run test:e2e -- e2e/auth.spec.ts`).
//
// Environment (a script, not the app: it reads process.env directly):
//   NEXT_DIST_DIR       build folder (default .next)
//   E2E_SKIP_BUILD=1    reuse the existing build in that folder
//   TEST_DATABASE_URL   PostgreSQL server: a fresh database is created there and dropped after;
//                       unset: a temporary embedded (PGlite) directory
//   CHROMIUM_PATH       the browser; unset: Playwright's own Chromium if installed, else the
//                       system's (/usr/bin/chromium, chromium-browser, google-chrome, …)
//   CI=true             a missing browser is a failure instead of a skip
// The server gets SMTP_URL (a free port, where e2e/invites.spec.ts listens with a real SMTP server,
// told by E2E_SMTP_PORT) and APP_URL (its own address), so invites and resets send real email.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium as playwrightChromium } from "@playwright/test";
import { chromiumOfThisMachine } from "./chromium";

const root = path.resolve(__dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const log = (message: string) => console.log(`[e2e] ${message}`);

const browser = chromiumOfThisMachine(playwrightChromium);
const isCi = process.env.CI === "true";

/** Runs a command to completion, inheriting the terminal; resolves with its exit code. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env, stdio: "inherit" });
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function mustRun(label: string, command: string, args: string[], env: NodeJS.ProcessEnv) {
  log(label);
  const code = await run(command, args, env);
  if (code !== 0) throw new Error(`${label} failed (exit status ${code})`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

async function waitUntilUp(url: string, server: ChildProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited early (status ${server.exitCode})`);
    try {
      const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5000) });
      if (response.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs / 1000} s`);
}

/**
 * A failed sign-in for an unknown address before the first test: a cold production server's first sign-in
 * (route, hasher, database) can pass the request deadline (a 503) on a busy machine.
 */
async function warmUp(baseUrl: string): Promise<void> {
  await fetch(`${baseUrl}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl, "service-api-version": "1.1.0" },
    body: JSON.stringify({ email: "warm-up@nobody.invalid", password: "not a password" }),
    signal: AbortSignal.timeout(30_000),
  }).catch(() => undefined);
}

/** A fresh database: a temporary PGlite directory, or a new database on TEST_DATABASE_URL's server. */
async function freshDatabase(): Promise<{ url: string; label: string; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldcrm-e2e-"));
    return {
      url: `file:${path.join(dir, "pglite")}`,
      label: `embedded database in ${dir}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const { default: pg } = await import("pg");
  const name = `fcrm_e2e_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
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
    drop: () => admin(`drop database if exists "${name}" with (force)`),
  };
}

function stop(server: ChildProcess | undefined): Promise<void> {
  if (!server || server.exitCode !== null || server.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-server.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    }, 10_000);
    server.on("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      // The server runs in its own process group: this stops next and its workers, nothing else.
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      resolve();
    }
  });
}

async function main(): Promise<number> {
  if (browser.path === undefined) {
    if (isCi) {
      console.error(`[e2e] ${browser.problem} The end-to-end tests cannot run.`);
      return 1;
    }
    log(`${browser.problem}\n[e2e] The end-to-end tests were NOT run. Everything else is unaffected.`);
    return 0;
  }
  log(`browser: ${browser.path} (${browser.source})`);

  const baseEnv: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  if (process.env.E2E_SKIP_BUILD === "1") {
    log(`reusing the build in ${process.env.NEXT_DIST_DIR || ".next"}`);
  } else {
    await mustRun(`next build (into ${process.env.NEXT_DIST_DIR || ".next"})`, bin("next"), ["build"], {
      ...baseEnv,
      NODE_ENV: "production",
    });
  }

  const database = await freshDatabase();
  let server: ChildProcess | undefined;
  const cleanup = async () => {
    await stop(server);
    await database.drop().catch((error) => log(`could not remove the database: ${String(error)}`));
  };
  const onSignal = () => {
    void cleanup().then(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    log(`fresh ${database.label}`);
    const dbEnv = { ...baseEnv, DATABASE_URL: database.url };
    // The seed applies the migrations first (scripts/seed.ts): one process does both.
    await mustRun(
      "migrate and seed the demo data",
      bin("tsx"),
      ["--conditions=react-server", "scripts/seed.ts"],
      dbEnv,
    );

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    // The server sends mail to a port where e2e/invites.spec.ts runs a real SMTP server (smtp-server)
    // while it needs one; links in emails point at the server under test.
    const smtpPort = await freePort();
    log(`starting next start on ${baseUrl}`);
    server = spawn(bin("next"), ["start", "--port", String(port), "--hostname", "127.0.0.1"], {
      cwd: root,
      env: {
        ...dbEnv,
        NODE_ENV: "production",
        PORT: String(port),
        LOG_LEVEL: process.env.LOG_LEVEL ?? "error",
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        APP_URL: baseUrl,
        // e2e/webhooks.spec.ts sends to a receiver on this machine.
        WEBHOOKS_ALLOW_PRIVATE: "true",
      },
      stdio: ["ignore", "inherit", "inherit"],
      detached: true,
    });
    await waitUntilUp(`${baseUrl}/sign-in`, server);
    await warmUp(baseUrl);

    // A full run starts with no screenshots, so every one left afterwards is from this run.
    if (process.argv.length <= 2) {
      fs.rmSync(path.join(root, "test-results", "screenshots"), { recursive: true, force: true });
    }
    log("running Playwright");
    return await run(bin("playwright"), ["test", ...process.argv.slice(2)], {
      ...baseEnv,
      E2E_BASE_URL: baseUrl,
      E2E_SMTP_PORT: String(smtpPort),
      CHROMIUM_PATH: browser.path,
    });
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`[e2e] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

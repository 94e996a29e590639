// The field app on a phone (issue #52's performance targets), in a real browser against the
// production server on a fresh database with the demo data:
//   a) warm, online: time from a navigation's start to the map's first pins drawn (≤ 1 s);
//   b) offline, the pins from IndexedDB through the service worker's page (≤ 1.5 s);
//   c) 500 knocks queued offline, sent when the connection returns (≤ 30 s, each exactly once).
//
//   npx tsx --conditions=react-server bench/field-app.ts [--engine postgres|pglite] [--runs 5]
//     [--knocks 500] [--no-build] [--out file.json]
//
// Environment: TEST_DATABASE_URL names the PostgreSQL server the fresh database is made on
// (default postgres://postgres@127.0.0.1:5432); NEXT_DIST_DIR the build folder (default .next);
// CHROMIUM_PATH the browser (as the end-to-end tests choose it).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type BrowserContext, type Page } from "@playwright/test";
import * as esbuild from "esbuild";
import type { PendingKnock, pendingOf } from "@/lib/query/pin-outbox";
import type { ListPinsResponse } from "@/lib/schemas/pins";
import type { PinType } from "@/lib/schemas/pin-types";
import type { SessionInfo } from "@/lib/schemas/session";
import { seedDemoData } from "@/lib/seed";
import { DEMO_PASSWORD, demoUser } from "@/lib/seed/demo";
import playwrightConfig from "../playwright.config";
import { chromiumOfThisMachine } from "../scripts/chromium";
import { DEFAULT_SERVER_URL, openRawDb, prepareTarget } from "./db";
import { median } from "./load";
import { databaseVersion, printTable, uptime } from "./machine";
import { ROOT, ensureBuild, freePort, startOurs, waitUntilUp, type RunningServer } from "./server";

const log = (message: string) => console.log(`[field-app] ${message}`);
const API_HEADERS = { "service-api-version": "1.1.0" } as const;
const PHONE = { width: 390, height: 844 } as const;
const TARGETS_MS = { online: 1_000, offline: 1_500, sync: 30_000 } as const;
/** A 1×1 PNG for the map's tiles: this machine has no internet (as in e2e/offline.spec.ts). */
const TILE_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const isTile = (url: URL) =>
  /\/\d+\/\d+\/\d+\.png$/.test(url.pathname) && !url.pathname.startsWith("/_next/");
/** The queued knocks' notes start with this, so the check finds exactly the pins they made. */
const NOTE_PREFIX = "bench field-app";

/** What the page gets of lib/query/pin-outbox.ts: the module itself, bundled for the browser. */
interface OutboxInPage {
  enqueue: (userId: string, change: PendingKnock) => void;
  pendingOf: typeof pendingOf;
}
declare global {
  interface Window {
    benchOutbox?: OutboxInPage;
    benchFirstPinsAt?: number;
  }
}

function options() {
  const { values } = parseArgs({
    options: {
      engine: { type: "string", default: "postgres" },
      runs: { type: "string", default: "5" },
      knocks: { type: "string", default: "500" },
      "no-build": { type: "boolean", default: false },
      out: { type: "string" },
    },
  });
  const engine = values.engine;
  if (engine !== "postgres" && engine !== "pglite") throw new Error("--engine must be postgres or pglite");
  const runs = Number(values.runs);
  const knocks = Number(values.knocks);
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs must be a whole number ≥ 1");
  if (!Number.isInteger(knocks) || knocks < 1) throw new Error("--knocks must be a whole number ≥ 1");
  return { engine, runs, knocks, noBuild: values["no-build"], out: values.out } as const;
}

/**
 * lib/query/pin-outbox.ts bundled for the page, so the queue is written by the app's own code in
 * the app's own format (the module is client code: it cannot run in this react-server process).
 */
async function outboxBundle(): Promise<string> {
  const result = await esbuild.build({
    stdin: {
      contents:
        'import { enqueue, pendingOf } from "@/lib/query/pin-outbox";\n' +
        "window.benchOutbox = { enqueue, pendingOf };\n",
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "error",
  });
  return result.outputFiles[0]!.text;
}

/**
 * In every document, from its start: notes when the map first says it has drawn pins (the
 * attribute the end-to-end tests wait for), so the time does not depend on when `goto` returns.
 */
function watchFirstPins(): void {
  const observer = new MutationObserver(() => {
    const drawn = document.querySelector('[data-testid="pin-map"]')?.getAttribute("data-rendered-pins");
    if (!drawn || drawn === "0") return;
    window.benchFirstPinsAt = performance.now();
    observer.disconnect();
  });
  observer.observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["data-rendered-pins"],
  });
}

/** Milliseconds from the navigation's start until the map drew its first pins. */
async function firstPinsAt(page: Page): Promise<number> {
  try {
    const handle = await page.waitForFunction(() => window.benchFirstPinsAt ?? false, null, {
      timeout: 60_000,
    });
    return Math.round(Number(await handle.jsonValue()));
  } catch (error) {
    const map = await page
      .evaluate(() => {
        const box = document.querySelector('[data-testid="pin-map"]');
        return box
          ? `pins ${box.getAttribute("data-rendered-pins")}, loading ${box.getAttribute("data-loading")}`
          : "no map";
      })
      .catch(() => "no page");
    throw new Error(
      `no pins drawn on ${page.url()} (${map}): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * The service worker controls the map and has saved the page; the pins are saved in IndexedDB.
 * Resolves with the first of these not done within the time, or null when all are.
 */
async function notSavedForOffline(page: Page, timeout: number): Promise<string | null> {
  const steps: [string, () => Promise<unknown>][] = [
    [
      "the service worker controls the page",
      () => page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout }),
    ],
    [
      "the page is saved in the worker's cache",
      () =>
        page.waitForFunction(
          async () =>
            Boolean(await caches.match("/map", { ignoreSearch: true, cacheName: "fieldcrm-pages" })),
          null,
          { timeout, polling: 250 },
        ),
    ],
    [
      "the pins are saved in IndexedDB",
      () =>
        page.waitForFunction(
          () =>
            new Promise<boolean>((resolve) => {
              const open = indexedDB.open("fieldcrm-offline");
              open.onerror = () => resolve(false);
              open.onsuccess = () => {
                const db = open.result;
                if (!db.objectStoreNames.contains("pins")) return resolve((db.close(), false));
                const count = db.transaction("pins").objectStore("pins").count();
                count.onsuccess = () => resolve((db.close(), count.result > 0));
                count.onerror = () => resolve((db.close(), false));
              };
            }),
          null,
          { timeout, polling: 250 },
        ),
    ],
  ];
  for (const [step, done] of steps) {
    try {
      await done();
    } catch {
      return step;
    }
  }
  return null;
}

/** Visits /map until it is ready for offline use (at most three visits); says how many it took. */
async function warmUp(page: Page, baseUrl: string): Promise<number> {
  for (let visit = 1; ; visit++) {
    await page.goto(`${baseUrl}/map`);
    await page.waitForFunction(
      () =>
        !["0", null, undefined].includes(
          document.querySelector('[data-testid="pin-map"]')?.getAttribute("data-rendered-pins"),
        ),
      null,
      { timeout: 120_000, polling: 250 },
    );
    const missing = await notSavedForOffline(page, 30_000);
    if (missing === null) return visit;
    log(`warm-up visit ${visit}: not yet ${missing}`);
    if (visit === 3) throw new Error(`after three visits to /map, not ${missing}`);
  }
}

/** Every pin the signed-in user sees, through the API (pages of 1,000). */
async function allPins(context: BrowserContext, baseUrl: string): Promise<ListPinsResponse["data"]> {
  const pins: ListPinsResponse["data"] = [];
  for (let page = 1; ; page++) {
    const response = await context.request.get(`${baseUrl}/api/pins?limit=1000&page=${page}`, {
      headers: API_HEADERS,
    });
    if (!response.ok()) throw new Error(`GET /api/pins answered ${response.status()}`);
    const body = (await response.json()) as ListPinsResponse;
    pins.push(...body.data);
    if (!body.pagination.has_more) return pins;
  }
}

interface Timing {
  median: number;
  max: number;
  runs: number[];
}
const timing = (runs: number[]): Timing => ({
  median: Math.round(median(runs)),
  max: Math.max(...runs),
  runs,
});

async function measure(
  page: Page,
  context: BrowserContext,
  server: RunningServer,
  { runs, knocks }: { runs: number; knocks: number },
) {
  const baseUrl = server.baseUrl;
  const technician = demoUser("pest", "technician");
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel("Email").fill(technician.email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: /^Account menu for / }).waitFor({ timeout: 60_000 });

  // The warm-up: the code, the service worker and the pins saved in IndexedDB.
  log("warm-up visit to /map");
  const warmUpVisits = await warmUp(page, baseUrl);

  log(`a) ${runs} navigations online`);
  const online: number[] = [];
  for (let i = 0; i < runs; i++) {
    await page.goto(`${baseUrl}/map`);
    online.push(await firstPinsAt(page));
  }

  const session = await context.request.get(`${baseUrl}/api/auth/session`, { headers: API_HEADERS });
  const userId = ((await session.json()) as SessionInfo).user.id;
  const types = (
    (await (await context.request.get(`${baseUrl}/api/pin-types`, { headers: API_HEADERS })).json()) as {
      data: PinType[];
    }
  ).data;
  const before = await allPins(context, baseUrl);

  log(`b) ${runs} reloads offline`);
  await context.setOffline(true);
  const offline: number[] = [];
  for (let i = 0; i < runs; i++) {
    await page.reload();
    offline.push(await firstPinsAt(page));
    await page.getByTestId("saved-pins-note").getByText("Offline: showing saved pins").waitFor();
  }

  log(`c) ${knocks} knocks queued offline`);
  const now = Date.now();
  const queued: PendingKnock[] = Array.from({ length: knocks }, (_, i) => {
    const clientId = crypto.randomUUID();
    return {
      client_id: clientId,
      location: [30.2672 + (i % 50) / 1000, -97.7431 + Math.floor(i / 50) / 1000],
      pin_type_id: types[i % types.length]!.id,
      notes: `${NOTE_PREFIX} ${clientId}`,
      // A knock a second, the last a moment ago: within the API's window for a queue sent late.
      logged_at: new Date(now - (knocks - i) * 1000).toISOString(),
    };
  });
  await page.addScriptTag({ content: await outboxBundle() });
  const pending = await page.evaluate(
    ({ userId, queued }) => {
      const outbox = window.benchOutbox!;
      for (const knock of queued) outbox.enqueue(userId, knock);
      return outbox.pendingOf(userId).length;
    },
    { userId, queued },
  );
  if (pending !== knocks) throw new Error(`the outbox holds ${pending} changes, not ${knocks}`);

  const cpuBefore = server.cpuMs();
  const startedAt = await page.evaluate(() => performance.now());
  await context.setOffline(false);
  const emptiedAt = await (
    await page.waitForFunction(
      (userId) => window.benchOutbox!.pendingOf(userId).length === 0 && performance.now(),
      userId,
      {
        polling: 100,
        timeout: 600_000,
      },
    )
  ).jsonValue();
  const syncMs = Math.round(Number(emptiedAt) - startedAt);
  // The server's share of the wait: the rest is the browser and the round trips, one knock at a time.
  const serverCpuMs = Math.round(server.cpuMs() - cpuBefore);

  const after = await allPins(context, baseUrl);
  const known = new Set(before.map((pin) => pin.id));
  const added = after.filter((pin) => !known.has(pin.id));
  const madeBy = new Map<string, number>();
  for (const pin of added) {
    const clientId = pin.notes?.startsWith(NOTE_PREFIX) ? pin.notes.slice(NOTE_PREFIX.length + 1) : "";
    madeBy.set(clientId, (madeBy.get(clientId) ?? 0) + 1);
  }
  const exactlyOnce = queued.filter((knock) => madeBy.get(knock.client_id) === 1).length;
  return {
    online: timing(online),
    offline: timing(offline),
    warmUpVisits,
    /** The pins on the technician's map (the demo data's). */
    pins: before.length,
    sync: { knocks, ms: syncMs, serverCpuMs, newPins: added.length, exactlyOnce },
  };
}

async function main(): Promise<void> {
  const opts = options();
  const browser = chromiumOfThisMachine(chromium);
  if (browser.path === undefined) throw new Error(browser.problem);
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  await ensureBuild(distDir, { skip: opts.noBuild, log });

  const target = await prepareTarget({
    scale: "tiny",
    engine: opts.engine,
    testServerUrl: process.env.TEST_DATABASE_URL ?? DEFAULT_SERVER_URL,
  });
  let server: RunningServer | undefined;
  try {
    log(`fresh ${target.label}: migrate and seed the demo data`);
    const raw = await openRawDb(target.target);
    let database: string;
    try {
      await seedDemoData(raw.database.db);
      database = await databaseVersion(raw);
    } finally {
      await raw.close();
    }

    const port = await freePort(3400, 3449);
    server = startOurs({ port, databaseUrl: target.databaseUrl, distDir });
    await waitUntilUp(server);
    log(`${server.name} on ${server.baseUrl}`);

    const launch = await chromium.launch({
      ...playwrightConfig.use?.launchOptions,
      executablePath: browser.path,
    });
    try {
      const context = await launch.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
      // Automated browsers get the service worker only when they opt in (components/pwa/service-worker.tsx).
      await context.addInitScript(() => window.localStorage.setItem("fieldcrm:service-worker", "1"));
      await context.addInitScript(watchFirstPins);
      // Answers the service worker's tile requests too; offline, they fail as the network's would.
      await context.route(isTile, (route) => route.fulfill({ contentType: "image/png", body: TILE_PNG }));
      const page = await context.newPage();
      const result = await measure(page, context, server, opts);

      const { online, offline, sync } = result;
      const mark = (ok: boolean) => (ok ? "met" : "MISSED");
      printTable([
        ["case", "median ms", "max ms", "target ms", ""],
        [
          `a) first pins, warm, online (${opts.runs})`,
          online.median,
          online.max,
          "1,000",
          mark(online.max <= TARGETS_MS.online),
        ],
        [
          `b) first pins, offline (${opts.runs})`,
          offline.median,
          offline.max,
          "1,500",
          mark(offline.max <= TARGETS_MS.offline),
        ],
        [
          `c) ${sync.knocks} queued knocks sent`,
          sync.ms,
          sync.ms,
          "30,000",
          mark(sync.ms <= TARGETS_MS.sync),
        ],
      ]);
      console.log(
        `c) new pins: ${sync.newPins}; knocks with exactly one pin: ${sync.exactlyOnce} of ${sync.knocks}; ` +
          `the server's CPU meanwhile ${sync.serverCpuMs.toLocaleString("en-US")} ms`,
      );

      const run = {
        date: new Date().toISOString(),
        commit: gitHead(),
        database,
        browser: `${browser.path} (${launch.version()})`,
        viewport: PHONE,
        machine: uptime(),
        targetsMs: TARGETS_MS,
        ...result,
        met: {
          online: online.max <= TARGETS_MS.online,
          offline: offline.max <= TARGETS_MS.offline,
          sync:
            sync.ms <= TARGETS_MS.sync && sync.newPins === sync.knocks && sync.exactlyOnce === sync.knocks,
        },
      };
      const out =
        opts.out ?? path.join(ROOT, "bench", ".cache", "results", `${run.date.slice(0, 10)}-field-app.json`);
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, `${JSON.stringify(run, null, 2)}\n`);
      log(`written to ${path.relative(ROOT, out)}`);
      if (sync.newPins !== sync.knocks || sync.exactlyOnce !== sync.knocks)
        throw new Error(`the queued knocks made ${sync.newPins} pins, ${sync.exactlyOnce} exactly once`);
    } finally {
      await launch.close();
    }
  } finally {
    await server?.stop();
    await target.dispose();
  }
}

function gitHead(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "?";
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`[field-app] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);

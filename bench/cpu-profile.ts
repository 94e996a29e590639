// Where our CPU per request goes: the cases through our real route handlers in-process, with V8's
// sampling profiler. Not part of `npm run bench`; run it on a quiet machine.
//
//   npx tsx --conditions=react-server bench/cpu-profile.ts --cases leads-default,lead-by-id [--requests 2000]
//     [--concurrency 8] [--top 25] [--scale large]
import { Session } from "node:inspector/promises";
import { parseArgs } from "node:util";
// Renamed: it is no React hook, it points the process database at the bench one.
import { openDatabase, useDatabaseForTests as setProcessDatabase } from "@/lib/db/client";
import { apiRequest, call } from "@/lib/testing/factories";
import type { BenchCase } from "./cases";
import { largeTenant } from "./data/generate";
import { openRawDb, prepareTarget } from "./db";
import { newRunTag, startRun } from "./fixtures";
import { routeFor } from "./routes";
import type { ScaleName } from "./scales";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function and per package (or our folder) of a V8 CPU profile, in ms. */
export function summarizeProfile(profile: Profile): {
  byFunction: [string, number][];
  byPlace: [string, number][];
  totalMs: number;
} {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let total = 0;
  for (const [id, micros] of self) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame) continue;
    const ms = micros / 1000;
    total += ms;
    const place = placeOf(frame.url, frame.functionName);
    const name = `${frame.functionName || "(anonymous)"} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
    byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { byFunction: sorted(byFunction), byPlace: sorted(byPlace), totalMs: total };
}

/** A package's file from node_modules on, the project's from its root on. */
function shortUrl(url: string): string {
  const i = url.lastIndexOf("node_modules/");
  if (i >= 0) return url.slice(i + "node_modules/".length);
  const file = url.replace(/^file:\/\//, "");
  const root = `${process.cwd()}/`;
  return file.startsWith(root) ? file.slice(root.length) : file;
}

function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const i = url.lastIndexOf("node_modules/");
  if (i >= 0) {
    const rest = url.slice(i + "node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith("node:")) return url;
  const short = shortUrl(url);
  return short.split("/").slice(0, 2).join("/");
}

async function main(): Promise<void> {
  // As the bench's servers log (bench/server.ts): errors only, since a line per request on stdout
  // is CPU the measured servers do not spend.
  process.env.LOG_LEVEL ??= "error";
  const { values } = parseArgs({
    options: {
      cases: { type: "string" },
      requests: { type: "string", default: "2000" },
      concurrency: { type: "string", default: "8" },
      top: { type: "string", default: "25" },
      scale: { type: "string", default: "large" },
    },
  });
  const scale = values.scale as ScaleName;
  const requests = Number(values.requests);
  const concurrency = Number(values.concurrency);
  const top = Number(values.top);
  const { target } = await prepareTarget({
    scale,
    engine: "postgres",
    benchUrl: process.env.BENCH_DATABASE_URL,
  });
  // The route handlers get the API's statement timeout; the run's clean-up (vacuums of the written
  // tables, seconds on the large tenant) runs on the bench's own session, without it.
  const database = await openDatabase(target);
  const raw = await openRawDb(target);
  const companyId = largeTenant(scale).companyId;
  // As a bench run: from the bench data alone (what an earlier run wrote, its key too, is removed),
  // with a numeric run tag (the created leads' phones and emails carry it).
  const only = values.cases?.split(",").map((s) => s.trim());
  const { key, cases } = await startRun(raw, companyId, newRunTag(), only);
  setProcessDatabase(database);
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  try {
    for (const benchCase of cases) await profileCase(session, benchCase, key, requests, concurrency, top);
  } finally {
    session.disconnect();
    await raw.close();
    await database.close();
  }
}

async function profileCase(
  session: Session,
  benchCase: BenchCase,
  key: string,
  requests: number,
  concurrency: number,
  top: number,
): Promise<void> {
  const send = async (i: number) => {
    const spec = benchCase.vary?.(i) ?? benchCase.request;
    const route = routeFor(spec.method, new URL(spec.path, "http://localhost").pathname);
    const result = await call(
      route.handler,
      apiRequest(spec.path, { key, method: spec.method, body: spec.body }),
      route.params,
    );
    if (result.status !== benchCase.expectStatus)
      throw new Error(
        `${benchCase.id}: status ${result.status}: ${JSON.stringify(result.body).slice(0, 200)}`,
      );
  };
  // The first failure stops every loop (they would go on against a closing database).
  const load = async (count: number, offset: number) => {
    let next = 0;
    let failed = false;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count && !failed) {
          try {
            await send(offset + next++);
          } catch (error) {
            failed = true;
            throw error;
          }
        }
      }),
    );
  };
  await load(Math.min(500, requests), 1_000_000);
  await session.post("Profiler.start");
  const cpu = process.cpuUsage();
  const started = performance.now();
  await load(requests, 0);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: Profile };
  const summary = summarizeProfile(profile);
  const perRequest = (used.user + used.system) / 1000 / requests;
  const share = (ms: number) => `${((ms / summary.totalMs) * 100).toFixed(1).padStart(5)}%`;
  console.log(
    `\n== ${benchCase.id}: ${perRequest.toFixed(3)} ms CPU/request (user ${(used.user / 1000 / requests).toFixed(3)}, ` +
      `system ${(used.system / 1000 / requests).toFixed(3)}), ${((requests / wall) * 1000).toFixed(0)} req/s in-process`,
  );
  console.log("-- by place (self time)");
  for (const [place, ms] of summary.byPlace.slice(0, top)) console.log(`${share(ms)}  ${place}`);
  console.log("-- by function (self time)");
  for (const [name, ms] of summary.byFunction.slice(0, top)) console.log(`${share(ms)}  ${name}`);
}

if (process.argv[1]?.endsWith("cpu-profile.ts")) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

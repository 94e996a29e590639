import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BenchCase } from "./cases";
import { RequestCounter, failedLoads, loadCase, summarize } from "./load";
import type { EngineRun } from "./report";

// A load against a stub server whose answers we choose: the smoke run must fail when any request of
// its load failed, not only when a case's single in-process capture did.

let server: http.Server;
let baseUrl = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    // `/fail` answers 500, anything else 200.
    const url = new URL(req.url ?? "/", "http://localhost");
    const status = url.pathname === "/fail" ? 500 : 200;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ status: status === 200 ? "success" : "error" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const benchCase = (vary?: BenchCase["vary"]): BenchCase => ({
  id: "stub",
  title: "stub",
  kind: "get",
  request: { method: "GET", path: "/ok" },
  ...(vary ? { vary } : {}),
  expectStatus: 200,
  check: () => undefined,
});

async function engineRun(load: BenchCase, baseUrlOf = baseUrl): Promise<EngineRun> {
  const raw = await loadCase(
    load,
    { baseUrl: baseUrlOf, key: "k", connections: 2, duration: 1, amount: 10 },
    new RequestCounter(),
  );
  return {
    engine: "pglite",
    database: "stub",
    generate: { reused: true, seconds: 0, counts: {} },
    cases: [{ id: load.id, title: load.title, kind: load.kind, ours: summarize([raw]) }],
  };
}

describe("failedLoads", () => {
  it("passes a load whose every request got the expected status", async () => {
    const run = await engineRun(benchCase());
    expect(run.cases[0]?.ours?.statuses).toEqual({ 200: 10 });
    expect(failedLoads([run])).toEqual([]);
  });

  it("fails a load in which one request answered 500", async () => {
    const run = await engineRun(benchCase((i) => ({ method: "GET", path: i === 4 ? "/fail" : "/ok" })));
    const failures = failedLoads([run]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^pglite\/stub ours: 1 unexpected status \(.*500×1.*\), 0 errors$/);
  });

  it("fails a load whose requests could not connect", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const run = await engineRun(benchCase(), `http://127.0.0.1:${port}`);
    expect(run.cases[0]?.ours?.errors).toBeGreaterThan(0);
    expect(failedLoads([run])).toEqual([expect.stringMatching(/^pglite\/stub ours: .*[1-9]\d* errors$/)]);
  });

  it("names the baseline's failures apart from ours", () => {
    const ok = summarize([{ latencies: [1], seconds: 1, unexpected: 0, errors: 0, statuses: { 200: 1 } }]);
    const bad = summarize([{ latencies: [1], seconds: 1, unexpected: 1, errors: 0, statuses: { 404: 1 } }]);
    const run: EngineRun = {
      engine: "postgres",
      database: "stub",
      generate: { reused: true, seconds: 0, counts: {} },
      cases: [{ id: "c", title: "c", kind: "list", ours: ok, baseline: bad }],
    };
    expect(failedLoads([run])).toEqual(["postgres/c baseline: 1 unexpected status (404×1), 0 errors"]);
  });
});

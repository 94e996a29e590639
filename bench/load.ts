import autocannon from "autocannon";
import type { BenchCase, RequestSpec } from "./cases";
import type { BenchRun } from "./report";

export interface LoadOptions {
  baseUrl: string;
  key: string;
  connections: number;
  /** Seconds; ignored when `amount` is given. */
  duration: number;
  /** A fixed number of requests instead of a duration (the tiny smoke run). */
  amount?: number;
}

/** What one load of one case against one server measured. */
export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  /** Answers whose status is not the case's expected one (2xx or not). */
  unexpected: number;
  /** Connection errors and timeouts. */
  errors: number;
  statuses: Record<string, number>;
  /** CPU of the server process tree per answered request, ms (its own work, whatever its share of the cores). */
  cpuPerRequestMs?: number;
}

/** Hands out request numbers for a case across all of its loads (both servers, every round). */
export class RequestCounter {
  /** Request 0 is the template, already sent once by the in-process capture. */
  constructor(private value = 1) {}
  next(): number {
    return this.value++;
  }
}

export function headersFor(key: string, spec: Pick<RequestSpec, "method">): Record<string, string> {
  return {
    "x-api-key": key,
    "service-api-version": "1.1.0",
    ...(spec.method === "POST" ? { "content-type": "application/json" } : {}),
  };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? 0;
}

/** The median of values (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface RawLoad {
  /** Server CPU used during the load, ms (set by the caller). */
  serverCpuMs?: number;
  latencies: number[];
  seconds: number;
  unexpected: number;
  errors: number;
  statuses: Record<string, number>;
}

export function summarize(parts: readonly RawLoad[]): LoadResult {
  const latencies = parts.flatMap((p) => p.latencies).sort((a, b) => a - b);
  const seconds = parts.reduce((sum, p) => sum + p.seconds, 0);
  const statuses: Record<string, number> = {};
  for (const p of parts)
    for (const [status, n] of Object.entries(p.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  const round = (n: number) => Math.round(n * 100) / 100;
  const cpu = parts.reduce((sum, p) => sum + (p.serverCpuMs ?? Number.NaN), 0);
  return {
    ...(Number.isFinite(cpu) && latencies.length > 0
      ? { cpuPerRequestMs: round(cpu / latencies.length) }
      : {}),
    requests: latencies.length,
    seconds: round(seconds),
    rps: seconds > 0 ? round(latencies.length / seconds) : 0,
    p50: round(percentile(latencies, 50)),
    p95: round(percentile(latencies, 95)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies[latencies.length - 1] ?? 0),
    mean: round(latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : 0),
    unexpected: parts.reduce((sum, p) => sum + p.unexpected, 0),
    errors: parts.reduce((sum, p) => sum + p.errors, 0),
    statuses,
  };
}

/**
 * Loads one case at fixed concurrency with autocannon, keeping every latency (its summary has no
 * p95). A shared counter numbers varying requests so no two loads send the same new phone.
 */
export function loadCase(
  benchCase: BenchCase,
  options: LoadOptions,
  counter: RequestCounter,
): Promise<RawLoad> {
  const spec = benchCase.request;
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let unexpected = 0;
  const started = performance.now();
  const request: autocannon.Request = {
    method: spec.method,
    path: spec.path,
    headers: headersFor(options.key, spec),
    ...(spec.body ? { body: JSON.stringify(spec.body) } : {}),
  };
  if (benchCase.vary) {
    const vary = benchCase.vary;
    request.setupRequest = (req) => {
      const next = vary(counter.next());
      return {
        ...req,
        method: next.method,
        path: next.path,
        ...(next.body ? { body: JSON.stringify(next.body) } : {}),
      };
    };
  }
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.baseUrl,
        connections: options.connections,
        // A fixed count ends at the next sample tick: 100 ms ticks, not the default second.
        ...(options.amount ? { amount: options.amount, sampleInt: 100 } : { duration: options.duration }),
        timeout: 30,
        requests: [request],
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          latencies,
          seconds: result.duration > 0 ? result.duration : (performance.now() - started) / 1000,
          unexpected,
          errors: result.errors + result.timeouts,
          statuses,
        });
      },
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode !== benchCase.expectStatus) unexpected++;
    });
  });
}

/**
 * Each load of a run in which a request failed (a status other than the case's expected 2xx, a
 * connection error or a timeout): a run timing failures is no measure of the product, so it fails.
 */
export function failedLoads(engines: BenchRun["engines"]): string[] {
  const failures: string[] = [];
  for (const run of engines) {
    for (const result of run.cases) {
      for (const [server, load] of [
        ["ours", result.ours],
        ["baseline", result.baseline],
      ] as const) {
        if (!load || load.unexpected + load.errors === 0) continue;
        const statuses = Object.entries(load.statuses)
          .map(([status, n]) => `${status}×${n}`)
          .join(" ");
        failures.push(
          `${run.engine}/${result.id} ${server}: ${load.unexpected} unexpected status (${statuses}), ${load.errors} errors`,
        );
      }
    }
  }
  return failures;
}

import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { backgroundTurns, inForeground, MIN_WAIT_MS, MAX_WAIT_MS, requestsInFlight } from "./background";

/** Keeps the thread busy for `ms`, as a slice of background work does. */
function work(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

/** A request in flight until `release` is called. */
function openRequest() {
  let release!: () => void;
  const done = inForeground(() => new Promise<void>((resolve) => (release = resolve)));
  return { release: () => (release(), done) };
}

/** Whether a callback queued with setImmediate has run by the time `turn` returns. */
async function letsImmediateIn(turn: () => Promise<void>): Promise<boolean> {
  let ran = false;
  setImmediate(() => (ran = true));
  await turn();
  return ran;
}

describe("background turns", () => {
  it("keep the thread within a slice, and let waiting I/O in once it is used", async () => {
    const turn = backgroundTurns({ sliceMs: 1_000 });
    expect(await letsImmediateIn(turn)).toBe(false);
    const short = backgroundTurns({ sliceMs: 5 });
    work(10);
    expect(await letsImmediateIn(short)).toBe(true);
  });

  it("count the requests in flight while they run", async () => {
    const before = requestsInFlight();
    const request = openRequest();
    expect(requestsInFlight()).toBe(before + 1);
    await request.release();
    expect(requestsInFlight()).toBe(before);
  });

  it("wait while a request is answered, but no longer than their bound", async () => {
    const request = openRequest();
    try {
      const turn = backgroundTurns({ sliceMs: 0 });
      const started = performance.now();
      await turn();
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThanOrEqual(MIN_WAIT_MS - 1);
      expect(waited).toBeLessThan(MAX_WAIT_MS * 8);
    } finally {
      await request.release();
    }
  });

  it("go on as soon as the requests are done", async () => {
    const request = openRequest();
    const turn = backgroundTurns({ sliceMs: 0 });
    // A slice of MAX_WAIT_MS would wait that long for a request that went on.
    work(MAX_WAIT_MS);
    const started = performance.now();
    const turned = turn();
    await sleep(10);
    await request.release();
    await turned;
    expect(performance.now() - started).toBeLessThan(MAX_WAIT_MS - 10);
  });

  it("only let I/O in when told not to wait (work holding what requests wait for)", async () => {
    const request = openRequest();
    try {
      const turn = backgroundTurns({ sliceMs: 0, waitForRequests: false });
      const started = performance.now();
      expect(await letsImmediateIn(turn)).toBe(true);
      expect(performance.now() - started).toBeLessThan(MIN_WAIT_MS);
    } finally {
      await request.release();
    }
  });
});

import "server-only";
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";

/**
 * Long background work (an import's upload and run) shares the server's thread, and the database's
 * cores, with the API's requests. It runs in short slices and, between them, gives way: to waiting
 * I/O at once, and while requests are being answered for about as long as it ran, so that a
 * million-row import does not hold up other users' lists and writes. The wait is bounded, so steady
 * traffic slows a run down but never stops it.
 */

/** The longest a background slice keeps the thread before it gives way. */
export const SLICE_MS = 4;
/** A turn's wait while requests are being answered: what the slice ran, within these bounds. */
export const MIN_WAIT_MS = 25;
export const MAX_WAIT_MS = 250;
/** Requests count as going on until this long after the last one ended (the next is near). */
const QUIET_MS = 20;
const POLL_MS = 5;

interface Foreground {
  inFlight: number;
  lastEnded: number;
}

// Kept on globalThis: the route handlers and the job worker may load this module separately.
const globalForForeground = globalThis as unknown as { __fieldcrmForeground?: Foreground };
function foreground(): Foreground {
  return (globalForForeground.__fieldcrmForeground ??= { inFlight: 0, lastEnded: -Infinity });
}

/** Runs a request's work as foreground work: background turns wait while it is in flight. */
export async function inForeground<T>(work: () => Promise<T>): Promise<T> {
  const state = foreground();
  state.inFlight++;
  try {
    return await work();
  } finally {
    state.inFlight--;
    state.lastEnded = performance.now();
  }
}

/** How many requests are being answered now. */
export function requestsInFlight(): number {
  return foreground().inFlight;
}

/** Whether requests are being answered now (or were a moment ago). */
function foregroundBusy(): boolean {
  const state = foreground();
  return state.inFlight > 0 || performance.now() - state.lastEnded < QUIET_MS;
}

/**
 * A background task's turns: `await turn()` often (per row, before each statement); it returns at
 * once until the task has run SLICE_MS since it last gave way, then gives way. `waitForRequests:
 * false` only lets waiting I/O in: for work holding what the requests wait for (the embedded
 * database's one connection), which waiting for them would only slow down.
 */
export function backgroundTurns(
  options: { sliceMs?: number; waitForRequests?: boolean } = {},
): () => Promise<void> {
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const waits = options.waitForRequests ?? true;
  let sliceStart = performance.now();
  return async () => {
    const ran = performance.now() - sliceStart;
    if (ran < sliceMs) return;
    await nextTurn();
    const until = waits ? performance.now() + Math.min(MAX_WAIT_MS, Math.max(MIN_WAIT_MS, ran)) : 0;
    while (foregroundBusy() && performance.now() < until) await sleep(POLL_MS);
    sliceStart = performance.now();
  };
}

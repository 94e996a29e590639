import "server-only";

/**
 * Pauses before each retry, after the 1st, 2nd, … failed attempt. The last pause ends about 5 days
 * after the first attempt, so an endpoint failing that long is disabled before its deliveries die.
 */
export const RETRY_DELAYS_SECONDS = [
  30,
  2 * 60,
  10 * 60,
  30 * 60,
  60 * 60,
  2 * 3600,
  4 * 3600,
  8 * 3600,
  12 * 3600,
  24 * 3600,
  24 * 3600,
  24 * 3600,
  24 * 3600,
] as const;

/** Attempts in all: the first and one per pause. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** An endpoint whose deliveries have all failed for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

/** ±20 %: endpoints that failed together do not all come back at the same second. */
export const JITTER = 0.2;

/**
 * When to try again after `attempts` failed attempts, or null when they are used up. `random`
 * is in [0, 1).
 */
export function nextAttemptAt(attempts: number, now: Date, random: number = Math.random()): Date | null {
  if (attempts < 1 || attempts >= MAX_ATTEMPTS) return null;
  const base = (RETRY_DELAYS_SECONDS[attempts - 1] ?? 0) * 1000;
  const factor = 1 - JITTER + 2 * JITTER * random;
  return new Date(now.getTime() + Math.round(base * factor));
}

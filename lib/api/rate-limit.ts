import "server-only";
/** Seconds until the next 00:00 UTC, when every key's count starts again. */
export function quotaResetInfo(now = new Date()): { resetAt: number; secondsLeft: number } {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return {
    resetAt: Math.floor(next / 1000),
    secondsLeft: Math.max(1, Math.ceil((next - now.getTime()) / 1000)),
  };
}

/** The rate-limit headers of contract section 3, in the IETF draft form and the X- form. */
export function rateLimitHeaders(limit: number, used: number, now = new Date()): Record<string, string> {
  const remaining = Math.max(0, limit - used);
  const { resetAt, secondsLeft } = quotaResetInfo(now);
  return {
    "RateLimit-Policy": `"daily";q=${limit};w=86400`,
    RateLimit: `"daily";r=${remaining};t=${secondsLeft}`,
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": String(remaining),
    "X-RateLimit-Reset": String(resetAt),
  };
}

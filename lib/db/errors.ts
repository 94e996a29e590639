/**
 * Tells whether a database error means "the database cannot be reached or did not answer in
 * time" (the API answers 503 and recovers by itself) rather than a fault in our query (500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    const code = typeof e.code === "string" ? e.code : "";
    const message = typeof e.message === "string" ? e.message : "";
    if (
      ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE", "EAI_AGAIN"].includes(
        code,
      )
    )
      return true;
    // 08: connection exception; 57P01-03: shutdown / cannot connect now; 57014: statement timeout;
    // 53300: too many connections.
    if (/^08/.test(code) || ["57P01", "57P02", "57P03", "57014", "53300"].includes(code)) return true;
    if (
      /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connect ECONNREFUSED|Client has encountered a connection error|PGlite is closed/i.test(
        message,
      )
    )
      return true;
    current = e.cause;
  }
  return false;
}

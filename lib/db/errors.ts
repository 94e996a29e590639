import "server-only";
/**
 * SQLSTATE classes meaning the database cannot serve us whatever we send (down, out of resources,
 * gone, credentials refused): a 503 that recovers by itself; our own statement's errors stay 500.
 */
const UNAVAILABLE_CLASSES = [
  "08", // connection exception
  "28", // invalid authorization: unknown role, wrong password, refused by pg_hba
  "53", // insufficient resources: disk full, out of memory, too many connections
  "57", // operator intervention: shutdown, cannot connect now, database dropped, statement timeout
];
const UNAVAILABLE_CODES = [
  "3D000", // invalid catalog name: the database does not exist (renamed or dropped)
];
/** Node's network errors on the way to the database. */
const NETWORK_CODES = [
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
  "EAI_AGAIN",
];

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
    if (NETWORK_CODES.includes(code)) return true;
    if (
      /^[0-9A-Z]{5}$/.test(code) &&
      (UNAVAILABLE_CLASSES.includes(code.slice(0, 2)) || UNAVAILABLE_CODES.includes(code))
    )
      return true;
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

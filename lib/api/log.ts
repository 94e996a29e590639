import "server-only";
import { env } from "@/lib/env";

export interface RequestLogLine {
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  company_id?: string;
  auth?: "api_key" | "session";
  error_code?: string;
}

/** One structured JSON line per request on stdout. Never carries a key, cookie or body. */
export function logRequest(line: RequestLogLine): void {
  const level = env().LOG_LEVEL;
  if (level === "silent" || level === "error") return;
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: "info", ...line })}\n`);
}

/** An unexpected error, with its stack, for operators only (stderr), never in a response. */
export function logError(requestId: string, error: unknown): void {
  if (env().LOG_LEVEL === "silent") return;
  const err =
    error instanceof Error
      ? {
          name: error.name,
          message: withoutQueryParams(error.message, error),
          stack: withoutQueryParams(error.stack, error),
        }
      : { error: String(error) };
  process.stderr.write(
    `${JSON.stringify({ time: new Date().toISOString(), level: "error", request_id: requestId, ...err })}\n`,
  );
}

/**
 * Drizzle's failed-query error carries "params: <values>" in message and stack, which may be hashes or
 * personal data, so the log keeps the SQL and drops them.
 */
function withoutQueryParams(text: string | undefined, error: Error): string | undefined {
  if (!text) return text;
  const params = (error as { params?: unknown }).params;
  const known =
    params === undefined ? text : text.split(`\nparams: ${String(params)}`).join("\nparams: [redacted]");
  return known.replace(
    /(Failed query: [\s\S]*?\n)params: (?!\[redacted\])[\s\S]*?(?=\n {4}at |$)/,
    "$1params: [redacted]",
  );
}

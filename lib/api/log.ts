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
      ? { name: error.name, message: error.message, stack: error.stack }
      : { error: String(error) };
  process.stderr.write(
    `${JSON.stringify({ time: new Date().toISOString(), level: "error", request_id: requestId, ...err })}\n`,
  );
}

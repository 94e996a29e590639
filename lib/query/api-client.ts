// The dashboard's one way to call the API: the integrations' endpoints with the session cookie,
// the version header, and error bodies as typed errors (message, code, field details).
import { API_VERSION } from "@/lib/schemas/auth";

export { API_VERSION };

export interface FieldDetail {
  field: string;
  message: string;
}

export class ApiClientError extends Error {
  override name = "ApiClientError";
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly details: FieldDetail[] = [],
  ) {
    super(message);
  }

  /** Details keyed by field, for showing next to form inputs. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const d of this.details) out[d.field] ??= d.message;
    return out;
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export function buildQuery(params: Record<string, QueryValue> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === "") continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

export interface ApiFetchOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Sent as is instead of a JSON body (a File streams from disk: the browser never reads it whole). */
  file?: { data: Blob; type: string };
  signal?: AbortSignal;
}

/** Calls `/api<path>` and returns the parsed JSON body, or throws ApiClientError. */
export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const headers: Record<string, string> = { "service-api-version": API_VERSION, accept: "application/json" };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.file) headers["content-type"] = options.file.type;
  const sent = options.file?.data ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined);
  let response: Response;
  try {
    response = await fetch(`/api${path}${buildQuery(options.query)}`, {
      method: options.method ?? (sent !== undefined ? "POST" : "GET"),
      headers,
      body: sent,
      credentials: "same-origin",
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiClientError(
      0,
      "Cannot reach the server. Check your connection and try again.",
      "NETWORK_ERROR",
    );
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: handled below
  }
  if (!response.ok) {
    const err = (body ?? {}) as { message?: string; error_code?: string; details?: FieldDetail[] };
    if (
      response.status === 401 &&
      typeof window !== "undefined" &&
      err.error_code === "AUTHENTICATION_REQUIRED"
    ) {
      // Signed out (or the session ended): back to sign-in, then return here.
      const next = encodeURIComponent(window.location.pathname + window.location.search);
      // A full page load on purpose: every cached query of the ended session is dropped.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign(`/sign-in?next=${next}`);
    }
    throw new ApiClientError(
      response.status,
      err.message ?? `Request failed (${response.status})`,
      err.error_code,
      Array.isArray(err.details) ? err.details : [],
    );
  }
  return body as T;
}

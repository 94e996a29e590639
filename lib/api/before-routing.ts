import "server-only";
import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorBody } from "./errors";
import { logRequest } from "./log";

/*
 * Requests Next.js fails before our code runs (non-UTF-8 percent-encoding, TRACE, CONNECT, PROPFIND…),
 * answered by scripts/server.ts: the API's JSON error and a log line under /api; security headers always.
 */

/** The methods Next.js routes to the API's route handlers (HEAD and OPTIONS it derives itself). */
const ROUTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** What a 405 for another method offers: the API's methods (each path has a subset of them). */
const API_METHODS = [...ROUTED_METHODS].join(", ");
/** Pages are read with these (the dashboard has no server actions). */
const PAGE_METHODS = "GET, HEAD";

/** The JSON 404 of a path under /api that no route serves (also app/api/[...path]/route.ts). */
export function noEndpointBody(pathname: string): ErrorBody {
  return { status: "error", message: `No endpoint at ${pathname}`, error_code: "NOT_FOUND" };
}

interface EarlyAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** For the request log line (API answers only). */
  logged?: { requestId: string; path: string; errorCode: string };
}

function decodes(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function apiError(status: number, body: ErrorBody, pathname: string, headers: Record<string, string> = {}) {
  const requestId = randomUUID();
  return {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-request-id": requestId,
      ...headers,
    },
    body: JSON.stringify(body),
    logged: { requestId, path: pathname, errorCode: body.error_code! },
  };
}

const plainText = (status: number, body: string, headers: Record<string, string> = {}) => ({
  status,
  headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers },
  body,
});

/**
 * An /api target with its slashes normalised (`/api/leads/bulk/` → `/api/leads/bulk`, `//` and `\`
 * as one `/`), or undefined when there is nothing to fix. Next.js would answer those with a 308 and
 * a text body, without the API's JSON, request id or security headers; the route answers them instead.
 */
export function normalisedApiTarget(target: string): string | undefined {
  const end = target.search(/[?#]/);
  const pathname = end === -1 ? target : target.slice(0, end);
  const normalised = pathname.replace(/[\\/]+/g, "/").replace(/(.)\/$/, "$1");
  if (normalised === pathname) return undefined;
  if (normalised !== "/api" && !normalised.startsWith("/api/")) return undefined;
  return normalised + (end === -1 ? "" : target.slice(end));
}

/** What to answer in Next's place, or undefined when Next handles the request. */
export function earlyAnswer(method: string, target: string): EarlyAnswer | undefined {
  let pathname: string;
  try {
    pathname = new URL(target, "http://localhost").pathname;
  } catch {
    return undefined;
  }
  const routed = ROUTED_METHODS.has(method);
  const valid = decodes(pathname);
  // No route serves /api itself (the catch-all needs a segment): Next would answer its HTML 404.
  if (routed && pathname === "/api") return apiError(404, noEndpointBody(pathname), pathname);
  if (routed && valid) return undefined;
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    if (!routed) {
      const message = `Method ${method} is not allowed; use ${API_METHODS}`;
      return apiError(405, { status: "error", message, error_code: "METHOD_NOT_ALLOWED" }, pathname, {
        allow: API_METHODS,
      });
    }
    return apiError(404, noEndpointBody(pathname), pathname);
  }
  // A path that cannot be decoded names no page; TRACE and CONNECT read none.
  if (!valid) return plainText(404, "Not found");
  if (method === "TRACE" || method === "CONNECT") {
    return plainText(405, "Method not allowed", { allow: PAGE_METHODS });
  }
  return undefined;
}

export interface BeforeRouting {
  /** Answers the request when Next.js cannot (true), else leaves it to Next (false). */
  answer(req: http.IncomingMessage, res: http.ServerResponse): boolean;
  /** The server's `connect` listener: a 405 on the socket, then it is closed. */
  refuseConnect(req: http.IncomingMessage, socket: Duplex): void;
}

export function beforeRouting(securityHeaders: Record<string, string>): BeforeRouting {
  const logAnswer = (early: EarlyAnswer, method: string, begun: number) => {
    if (!early.logged) return;
    logRequest({
      request_id: early.logged.requestId,
      method,
      path: early.logged.path,
      status: early.status,
      duration_ms: Math.round((performance.now() - begun) * 10) / 10,
      error_code: early.logged.errorCode,
    });
  };
  return {
    answer(req, res) {
      const begun = performance.now();
      const method = req.method ?? "GET";
      const normalised = normalisedApiTarget(req.url ?? "/");
      if (normalised) req.url = normalised;
      const early = earlyAnswer(method, req.url ?? "/");
      if (!early) return false;
      res.writeHead(early.status, {
        ...securityHeaders,
        ...early.headers,
        "content-length": Buffer.byteLength(early.body),
      });
      res.end(method === "HEAD" ? undefined : early.body);
      logAnswer(early, method, begun);
      return true;
    },
    refuseConnect(req, socket) {
      const begun = performance.now();
      // CONNECT usually names a host:port, not a path: refused as a method the API lacks.
      const target = req.url?.startsWith("/") ? req.url : "/api";
      const early = earlyAnswer("CONNECT", target)!;
      const headers = {
        ...securityHeaders,
        ...early.headers,
        "content-length": Buffer.byteLength(early.body),
      };
      const head = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      socket.on("error", () => socket.destroy());
      socket.end(
        `HTTP/1.1 ${early.status} Method Not Allowed\r\n${head}connection: close\r\n\r\n${early.body}`,
      );
      logAnswer(early, "CONNECT", begun);
    },
  };
}

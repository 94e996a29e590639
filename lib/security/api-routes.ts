import fs from "node:fs";
import path from "node:path";
import {
  isMethodNotAllowedHandler,
  isOptionsAnswer,
  routeDeclarationOf,
  type RouteDeclaration,
  type RouteHandler,
} from "@/lib/api/handler";

/**
 * Every route verb under app/api, found by walking the folder and importing each route.ts, so
 * that the isolation matrix and the fuzzer cover a route the day it is added.
 */

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface ApiRouteVerb {
  /** e.g. `POST /api/leads`, `GET /api/leads/[id]` */
  name: string;
  method: HttpMethod;
  /** The path with its dynamic segments: `/api/leads/[id]`. */
  pattern: string;
  /** Names of the dynamic segments, in order (`[...path]` gives `path`). */
  paramNames: string[];
  handler: RouteHandler;
  /** The apiRoute declaration; undefined for a 405 answer or a hand-written handler. */
  declaration: RouteDeclaration | undefined;
  notAllowed: boolean;
}

const API_DIR = path.join(process.cwd(), "app", "api");

function routeFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...routeFiles(full));
    else if (/^route\.(ts|tsx|js|mjs)$/.test(entry.name)) out.push(full);
  }
  return out.sort();
}

export async function discoverApiRoutes(): Promise<ApiRouteVerb[]> {
  const verbs: ApiRouteVerb[] = [];
  for (const file of routeFiles(API_DIR)) {
    const relative = path.relative(API_DIR, path.dirname(file)).split(path.sep).filter(Boolean);
    // Route groups `(name)` do not appear in the URL.
    const segments = relative.filter((s) => !/^\(.*\)$/.test(s));
    const pattern = `/api${segments.length ? `/${segments.join("/")}` : ""}`;
    const paramNames = segments
      .map((s) => /^\[{1,2}(?:\.\.\.)?([^\]]+)\]{1,2}$/.exec(s)?.[1])
      .filter((n): n is string => Boolean(n));
    const mod = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
    for (const method of HTTP_METHODS) {
      const handler = mod[method];
      // A path's OPTIONS answer names its verbs; it is no operation of its own.
      if (typeof handler !== "function" || isOptionsAnswer(handler)) continue;
      verbs.push({
        name: `${method} ${pattern}`,
        method,
        pattern,
        paramNames,
        handler: handler as RouteHandler,
        declaration: routeDeclarationOf(handler),
        notAllowed: isMethodNotAllowedHandler(handler),
      });
    }
  }
  return verbs;
}

/** The URL path of a pattern with its parameters filled in (a catch-all takes a list). */
export function fillPattern(pattern: string, params: Record<string, string | string[]>): string {
  return pattern.replace(/\[{1,2}(?:\.\.\.)?([^\]]+)\]{1,2}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${pattern}`);
    return Array.isArray(value) ? value.map(encodeSegment).join("/") : encodeSegment(value);
  });
}

/** Percent-encodes a path segment's UTF-8 bytes (a lone surrogate becomes U+FFFD, never a URIError). */
function encodeSegment(value: string): string {
  return [...Buffer.from(value, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}

export interface InvokeOptions {
  params?: Record<string, string | string[]>;
  query?: Record<string, string> | string;
  headers?: Record<string, string>;
  /** A JSON value (sent as application/json unless headers say otherwise) or raw text. */
  body?: unknown;
  rawBody?: string | Uint8Array;
}

export interface InvokeResult {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
  /** What was sent (path, query and body), for telling echoes from leaks. */
  sent: string;
}

/** Calls a route verb in-process the way Next.js does: a Request and a params promise. */
export async function invoke(route: ApiRouteVerb, options: InvokeOptions = {}): Promise<InvokeResult> {
  const params = options.params ?? {};
  const pathname = fillPattern(route.pattern, params);
  const query =
    typeof options.query === "string"
      ? options.query
      : options.query
        ? new URLSearchParams(options.query).toString()
        : "";
  const url = `http://localhost${pathname}${query ? `?${query.replace(/^\?/, "")}` : ""}`;
  const headers = new Headers(options.headers);
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const withBody = body !== undefined && route.method !== "GET" && route.method !== "HEAD";
  const request = new Request(url, {
    method: route.method,
    headers,
    body: withBody ? (body as BodyInit) : undefined,
  });
  const response = await route.handler(request, { params: Promise.resolve(params) });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const sentBody = typeof body === "string" ? body : body ? Buffer.from(body).toString("utf8") : "";
  return { status: response.status, headers: response.headers, text, json, sent: `${url}\n${sentBody}` };
}

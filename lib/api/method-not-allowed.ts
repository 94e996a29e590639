import "server-only";
import { randomUUID } from "node:crypto";
import { jsonResponse } from "./json";
import type { RouteHandler } from "./route-config";

const NOT_ALLOWED = Symbol.for("fieldcrm.methodNotAllowed");
const OPTIONS_ANSWER = Symbol.for("fieldcrm.optionsAnswer");

type Verb = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * The Allow header of a path with these verbs: HEAD with GET (Next.js answers it from GET), and
 * OPTIONS. The 405 of the path and its OPTIONS both send it, so they never disagree.
 */
export function allowHeader(allowed: string): string {
  const verbs = allowed
    .split(",")
    .map((verb) => verb.trim())
    .filter(Boolean);
  return [...verbs.flatMap((verb) => (verb === "GET" ? ["GET", "HEAD"] : [verb])), "OPTIONS"].join(", ");
}

/**
 * For route files: the verbs a path does not have answer 405 with an Allow header, and OPTIONS
 * answers 204 with the same header (Next's own OPTIONS would list every verb the file exports).
 */
export function methodsNotAllowed(allowed: string): Record<Verb | "OPTIONS", RouteHandler> {
  const allow = allowHeader(allowed);
  const handler: RouteHandler = async () =>
    jsonResponse(
      { status: "error", message: `Method not allowed; use ${allowed}`, error_code: "METHOD_NOT_ALLOWED" },
      405,
      { Allow: allow, "x-request-id": randomUUID(), "cache-control": "no-store" },
    );
  Object.defineProperty(handler, NOT_ALLOWED, { value: true });
  const options: RouteHandler = async () =>
    new Response(null, {
      status: 204,
      headers: { Allow: allow, "x-request-id": randomUUID(), "cache-control": "no-store" },
    });
  Object.defineProperty(options, OPTIONS_ANSWER, { value: true });
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: options };
}

/** Whether a route export is one of the 405 answers (the OpenAPI coverage test skips those). */
export function isMethodNotAllowedHandler(handler: unknown): boolean {
  return (
    typeof handler === "function" && (handler as unknown as Record<symbol, unknown>)[NOT_ALLOWED] === true
  );
}

/** Whether a route export is the OPTIONS answer of methodsNotAllowed (no operation of its own). */
export function isOptionsAnswer(handler: unknown): boolean {
  return (
    typeof handler === "function" && (handler as unknown as Record<symbol, unknown>)[OPTIONS_ANSWER] === true
  );
}

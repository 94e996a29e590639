import "server-only";
import { randomUUID } from "node:crypto";
import { jsonResponse } from "./json";
import type { RouteHandler } from "./route-config";

const NOT_ALLOWED = Symbol.for("fieldcrm.methodNotAllowed");

/** For route files: the verbs a path does not have answer 405 with an Allow header. */
export function methodsNotAllowed(
  allowed: string,
): Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", RouteHandler> {
  const handler: RouteHandler = async () =>
    jsonResponse(
      { status: "error", message: `Method not allowed; use ${allowed}`, error_code: "METHOD_NOT_ALLOWED" },
      405,
      { Allow: allowed, "x-request-id": randomUUID(), "cache-control": "no-store" },
    );
  Object.defineProperty(handler, NOT_ALLOWED, { value: true });
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler };
}

/** Whether a route export is one of the 405 answers (the OpenAPI coverage test skips those). */
export function isMethodNotAllowedHandler(handler: unknown): boolean {
  return (
    typeof handler === "function" && (handler as unknown as Record<symbol, unknown>)[NOT_ALLOWED] === true
  );
}

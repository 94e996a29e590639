import "server-only";
import { randomUUID } from "node:crypto";
import { authenticate } from "@/lib/auth/authenticate";
import { clientIp } from "@/lib/auth/client-ip";
import { isCrossSite, isWriteMethod } from "@/lib/auth/credentials";
import { refusalOf } from "@/lib/auth/permissions";
import type { Principal } from "@/lib/auth/principal";
import { getDb, type Db } from "@/lib/db/client";
import { inForeground } from "@/lib/domain/background";
import type { DomainContext } from "@/lib/domain/context";
import { DeadlineExceededError } from "@/lib/domain/errors";
import { API_VERSION } from "@/lib/schemas/auth";
import { errorResponse } from "./error-response";
import { ApiError } from "./errors";
import { parseInput } from "./input";
import { JsonResult, jsonResponse } from "./json";
import { logRequest } from "./log";
import { quotaResetInfo, rateLimitHeaders } from "./rate-limit";
import {
  actionsOf,
  attachDeclaration,
  inputActionsOf,
  queryActionsOf,
  type AuthedRouteConfig,
  type HandlerResult,
  type PublicRouteConfig,
  type RouteHandler,
  type Schema,
} from "./route-config";

// What route files and tests import with apiRoute, kept here so a route needs one import line.
export { jsonResponse, respond } from "./json";
export { isMethodNotAllowedHandler, isOptionsAnswer, methodsNotAllowed } from "./method-not-allowed";
export { MAX_QUERY_LENGTH } from "./input";
export {
  routeDeclarationOf,
  type RouteContext,
  type RouteDeclaration,
  type RouteHandler,
} from "./route-config";

export const VERSION_HEADER = "service-api-version";
/** Longest a request may take before it answers 503 (contract: within 5 s). */
export const REQUEST_DEADLINE_MS = 4500;

const AUTHENTICATION_REQUIRED = "Authentication required: send your API key in the x-api-key header";

/**
 * The request pipeline (contract section 2): authentication → quota → version → permission →
 * body → validation → handler → error mapping; request id, rate-limit headers, one log line.
 */
export function apiRoute<
  Q extends Schema = undefined,
  B extends Schema = undefined,
  P extends Schema = undefined,
>(config: AuthedRouteConfig<Q, B, P> | PublicRouteConfig<Q, B, P>): RouteHandler {
  // A request is foreground work: an import's slices wait while it runs (lib/domain/background).
  const route: RouteHandler = config.background
    ? (request, context) => handle(request, context)
    : (request, context) => inForeground(() => handle(request, context));
  const handle: RouteHandler = async (request, context) => {
    const started = performance.now();
    const requestId = randomUUID();
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    let principal: Principal | undefined;
    let response: Response;
    try {
      // Opening the database (on the embedded engine: loading it and migrating on the first
      // request) is not the database being slow, so the deadline starts after it.
      const db = config.auth !== "none" ? await getDb() : undefined;
      response = await withDeadline(config.deadlineMs ?? REQUEST_DEADLINE_MS, async () => {
        let ctx: DomainContext | undefined;
        if (db && config.auth !== "none") {
          principal = await authenticated(db, request, headers);
          checkVersion(request);
          authorize(config, principal, request, url);
          ctx = { db, companyId: principal.companyId, principal, requestId, ip: clientIp(request.headers) };
        } else if (config.auth === "none" && config.requireVersion !== false) {
          checkVersion(request);
        }
        const input = await parseInput(config, request, url, context);
        if (principal) authorizeInput(config, principal, input);
        const result = ctx
          ? await (config as AuthedRouteConfig<Q, B, P>).handler({ ctx, ...input, request })
          : await (config as PublicRouteConfig<Q, B, P>).handler({ db: getDb, ...input, request, requestId });
        return toResponse(result);
      });
    } catch (error) {
      response = errorResponse(error, requestId);
    }
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    response.headers.set("x-request-id", requestId);
    if (!response.headers.has("cache-control")) response.headers.set("cache-control", "no-store");
    logRequest({
      request_id: requestId,
      method: request.method,
      path: url.pathname,
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      company_id: principal?.companyId,
      auth: principal?.kind,
      error_code: response.status >= 400 ? (response.headers.get("x-error-code") ?? undefined) : undefined,
    });
    response.headers.delete("x-error-code");
    return response;
  };
  attachDeclaration(route, config);
  return route;
}

async function withDeadline(ms: number, run: () => Promise<Response>): Promise<Response> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceededError()), ms);
  });
  try {
    return await Promise.race([run(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Checks 1–3: credentials, then the key's daily quota (sessions have no quota). */
async function authenticated(db: Db, request: Request, headers: Record<string, string>): Promise<Principal> {
  const result = await authenticate(db, request);
  if (result.ok) {
    if (result.quota) Object.assign(headers, rateLimitHeaders(result.quota.dailyLimit, result.quota.used));
    return result.principal;
  }
  switch (result.reason) {
    case "missing":
      throw ApiError.coded("AUTHENTICATION_REQUIRED", AUTHENTICATION_REQUIRED);
    case "invalid_key":
      throw ApiError.coded("INVALID_API_KEY", "The API key is invalid, revoked or expired");
    case "quota_used_up":
      Object.assign(headers, rateLimitHeaders(result.dailyLimit, result.dailyLimit));
      headers["Retry-After"] = String(quotaResetInfo().secondsLeft);
      throw ApiError.coded(
        "RATE_LIMIT_EXCEEDED",
        `Daily limit of ${result.dailyLimit} requests exceeded for this API key; it resets at 00:00 UTC`,
      );
  }
}

/** Check 4: the version header. */
function checkVersion(request: Request): void {
  const version = request.headers.get(VERSION_HEADER);
  if (version?.trim() !== API_VERSION) {
    throw ApiError.coded(
      "UNSUPPORTED_API_VERSION",
      version === null
        ? `Missing ${VERSION_HEADER} header: send ${VERSION_HEADER}: ${API_VERSION}`
        : `Unsupported ${VERSION_HEADER} "${version.slice(0, 40)}": the only supported version is ${API_VERSION}`,
    );
  }
}

/** Check 5: the declared permission (lib/auth/permissions.ts), then cross-site cookie writes. */
function authorize(
  config: AuthedRouteConfig<Schema, Schema, Schema>,
  principal: Principal,
  request: Request,
  url: URL,
): void {
  const actions = [...actionsOf(config), ...queryActionsOf(config, url.searchParams)];
  const refusal = refusalOf(principal, actions, { sessionOnly: config.auth === "session" });
  if (refusal) throw ApiError.coded(refusal.code, refusal.message);
  if (principal.kind === "session" && isWriteMethod(request.method) && isCrossSite(request)) {
    throw ApiError.coded("FORBIDDEN", "Cross-site request refused");
  }
}

/** Check 5 again for the actions some inputs need as well (`inputPermissions`), once they are parsed. */
function authorizeInput(
  config: AuthedRouteConfig<Schema, Schema, Schema> | PublicRouteConfig<Schema, Schema, Schema>,
  principal: Principal,
  input: { query: unknown; body: unknown; params: unknown },
): void {
  const needed = inputActionsOf(config, input);
  if (needed.length === 0) return;
  const refusal = refusalOf(principal, [...actionsOf(config), ...needed]);
  if (refusal) throw ApiError.coded(refusal.code, refusal.message);
}

function toResponse(result: HandlerResult): Response {
  if (result instanceof Response) return result;
  if (result instanceof JsonResult) return jsonResponse(result.body, result.status, result.headers);
  return jsonResponse(result, 200);
}

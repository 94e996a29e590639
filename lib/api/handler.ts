import { randomBytes, randomUUID } from "node:crypto";
import type { z } from "zod";
import { checkApiKeyAndCountRequest } from "@/lib/auth/api-keys";
import type { Principal } from "@/lib/auth/principal";
import { hasAnyScope, scopeNamedInRefusal, type Scope } from "@/lib/auth/scopes";
import { findSessionPrincipal, SESSION_COOKIE } from "@/lib/auth/sessions";
import { getDb, type Db } from "@/lib/db/client";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import type { UserRole } from "@/lib/db/schema";
import type { DomainContext } from "@/lib/domain/context";
import { API_VERSION } from "@/lib/schemas/auth";
import {
  ConflictError,
  DeadlineExceededError,
  ForbiddenError,
  InvalidCredentialsError,
  NotFoundError,
  PinTypeInUseError,
  StageInUseError,
  TooManyAttemptsError,
  ValidationError,
} from "@/lib/domain/errors";
import { readJsonObjectBody } from "./body";
import { ApiError, INTERNAL_ERROR_MESSAGE, type ErrorBody } from "./errors";
import { logError, logRequest } from "./log";
import type { RouteDocs } from "./route-docs";
import { quotaResetInfo, rateLimitHeaders } from "./rate-limit";
import { parseOrThrow, searchParamsToObject, validationError } from "./validation";

export const VERSION_HEADER = "service-api-version";
/** Longest a request may take before it answers 503 (contract: within 5 s). */
export const REQUEST_DEADLINE_MS = 4500;
/** Longest query string accepted (characters, encoded). */
export const MAX_QUERY_LENGTH = 4096;

type Schema = z.ZodType | undefined;
type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/** A JSON answer with a status other than 200, or extra headers. */
export class JsonResult {
  constructor(
    readonly body: unknown,
    readonly status = 200,
    readonly headers: Record<string, string> = {},
  ) {}
}
export const respond = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new JsonResult(body, status, headers);

type HandlerResult = JsonResult | Response | Record<string, unknown>;

interface BaseConfig<Q extends Schema, B extends Schema, P extends Schema> {
  /** Query string, body and path parameters; parsed before the handler runs (400 with details). */
  query?: Q;
  body?: B;
  /** The body may be left out altogether (no Content-Type, nothing sent): it is then `{}`. */
  bodyOptional?: boolean;
  params?: P;
  /**
   * Longest the request may take before it answers 503 (default REQUEST_DEADLINE_MS). Longer only
   * for work of many statements (bulk changes), each still bounded by the statement timeout, so
   * an unreachable or stuck database answers 503 as fast as on any other route.
   */
  deadlineMs?: number;
  /** Its OpenAPI entry's summary, examples and responses (lib/openapi builds the document from it). */
  docs?: RouteDocs;
}

export interface AuthedRouteConfig<Q extends Schema, B extends Schema, P extends Schema> extends BaseConfig<
  Q,
  B,
  P
> {
  /** "both" (default): API key or dashboard session; "session": dashboard only. */
  auth?: "both" | "session";
  /**
   * Any one of these scopes is enough; none: any valid principal. Only the endpoint's own scopes:
   * what a key's scope grants besides itself is in lib/auth/scopes.ts.
   */
  scopes?: readonly Scope[];
  /** The scope named in a 403, when not the one lib/auth/scopes.ts scopeNamedInRefusal derives. */
  scopeNamed?: Scope;
  /** Scopes needed as well, each of them (an endpoint that writes two kinds of record). */
  alsoScopes?: readonly Scope[];
  /** Session roles allowed (settings endpoints: admins only). */
  roles?: readonly UserRole[];
  handler: (args: {
    ctx: DomainContext;
    query: Out<Q>;
    body: Out<B>;
    params: Out<P>;
    request: Request;
  }) => Promise<HandlerResult>;
}

export interface PublicRouteConfig<Q extends Schema, B extends Schema, P extends Schema> extends BaseConfig<
  Q,
  B,
  P
> {
  auth: "none";
  /** Whether the service-api-version header is required (default true). */
  requireVersion?: boolean;
  handler: (args: {
    db: () => Promise<Db>;
    query: Out<Q>;
    body: Out<B>;
    params: Out<P>;
    request: Request;
    requestId: string;
  }) => Promise<HandlerResult>;
}

export type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;

/**
 * The request pipeline (contract section 2): authentication → quota → version → scope → body →
 * validation → handler → error mapping, with the request id, rate-limit headers and one log
 * line on every response. A route verb is one call of this with its declaration.
 */
export function apiRoute<
  Q extends Schema = undefined,
  B extends Schema = undefined,
  P extends Schema = undefined,
>(config: AuthedRouteConfig<Q, B, P> | PublicRouteConfig<Q, B, P>): RouteHandler {
  const route: RouteHandler = async (request, context) => {
    const started = performance.now();
    const requestId = randomUUID();
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    let principal: Principal | undefined;
    let response: Response;
    try {
      // Opening the database (on the embedded engine: loading it and applying migrations on the
      // first request) is not the database being slow, so the deadline starts after it.
      const db = config.auth !== "none" ? await getDb() : undefined;
      response = await withDeadline(config.deadlineMs ?? REQUEST_DEADLINE_MS, async () => {
        let ctx: DomainContext | undefined;
        if (db && config.auth !== "none") {
          principal = await authenticate(db, request, headers);
          checkVersion(request);
          authorize(config, principal, request);
          ctx = { db, companyId: principal.companyId, principal, requestId };
        } else if (config.auth === "none" && config.requireVersion !== false) {
          checkVersion(request);
        }
        const input = await parseInput(config, request, url, context);
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
  // Kept on the function so the OpenAPI tests can check the document against the real declaration.
  Object.defineProperty(route, ROUTE_DECLARATION, { value: config });
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
async function authenticate(db: Db, request: Request, headers: Record<string, string>): Promise<Principal> {
  const key = request.headers.get("x-api-key");
  if (key !== null) {
    if (!key.trim()) {
      throw ApiError.coded(
        "AUTHENTICATION_REQUIRED",
        "Authentication required: send your API key in the x-api-key header",
      );
    }
    const check = await checkApiKeyAndCountRequest(db, key.trim());
    if (!check) throw ApiError.coded("INVALID_API_KEY", "The API key is invalid, revoked or expired");
    if (check.used === null) {
      Object.assign(headers, rateLimitHeaders(check.dailyLimit, check.dailyLimit));
      headers["Retry-After"] = String(quotaResetInfo().secondsLeft);
      throw ApiError.coded(
        "RATE_LIMIT_EXCEEDED",
        `Daily limit of ${check.dailyLimit} requests exceeded for this API key; it resets at 00:00 UTC`,
      );
    }
    Object.assign(headers, rateLimitHeaders(check.dailyLimit, check.used));
    return check.principal;
  }
  const token = readCookie(request.headers.get("cookie"), SESSION_COOKIE);
  const session = token ? await findSessionPrincipal(db, token) : null;
  if (!session) {
    throw ApiError.coded(
      "AUTHENTICATION_REQUIRED",
      "Authentication required: send your API key in the x-api-key header",
    );
  }
  return session;
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

/** Check 5: scope, session-only routes, roles, and cross-site forgery of cookie-authenticated writes. */
function authorize(
  config: AuthedRouteConfig<Schema, Schema, Schema>,
  principal: Principal,
  request: Request,
): void {
  if (config.auth === "session" && principal.kind !== "session") {
    throw ApiError.coded("FORBIDDEN", "This endpoint is only available to signed-in dashboard users");
  }
  const accepted = config.scopes ?? [];
  if (accepted.length > 0 && !hasAnyScope(principal, accepted)) {
    const named = config.scopeNamed ?? scopeNamedInRefusal(accepted, principal.kind);
    throw ApiError.coded(
      "INSUFFICIENT_SCOPE",
      `Insufficient scope: this endpoint requires the ${named} scope`,
    );
  }
  const missing = config.alsoScopes?.find((scope) => !hasAnyScope(principal, [scope]));
  if (missing) {
    throw ApiError.coded(
      "INSUFFICIENT_SCOPE",
      `Insufficient scope: this endpoint also requires the ${missing} scope`,
    );
  }
  if (config.roles && (principal.kind !== "session" || !config.roles.includes(principal.role))) {
    throw ApiError.coded("FORBIDDEN", `Only ${config.roles.join(" or ")} users may do this`);
  }
  if (
    principal.kind === "session" &&
    !["GET", "HEAD", "OPTIONS"].includes(request.method) &&
    isCrossSite(request)
  ) {
    throw ApiError.coded("FORBIDDEN", "Cross-site request refused");
  }
}

/** A cookie-authenticated write must come from our own origin. */
export function isCrossSite(request: Request): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = request.headers.get("origin");
  if (!origin) return false;
  const host =
    request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? new URL(request.url).host;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/** Checks 6–7: body, then query, path and body values against their schemas (all problems at once). */
/** A request that sends no body: no Content-Type and no (or an empty) content. */
const isBodyless = (request: Request) =>
  !request.headers.get("content-type") &&
  (request.body === null || request.headers.get("content-length") === "0");

async function parseInput<Q extends Schema, B extends Schema, P extends Schema>(
  config: BaseConfig<Q, B, P>,
  request: Request,
  url: URL,
  context: RouteContext,
): Promise<{ query: Out<Q>; body: Out<B>; params: Out<P> }> {
  const rawBody = config.body
    ? config.bodyOptional && isBodyless(request)
      ? {}
      : await readJsonObjectBody(request)
    : undefined;
  if (url.search.length > MAX_QUERY_LENGTH) {
    throw validationError([
      { field: "query", message: `The query string must not be longer than ${MAX_QUERY_LENGTH} characters` },
    ]);
  }
  const problems: { field: string; message: string }[] = [];
  const run = <S extends Schema>(schema: S, value: unknown, prefix: string): Out<S> => {
    if (!schema) return undefined as Out<S>;
    try {
      return parseOrThrow(schema, value) as Out<S>;
    } catch (error) {
      if (error instanceof ApiError && error.details) {
        problems.push(
          ...error.details.map((d) => ({ ...d, field: prefix ? `${prefix}${d.field}` : d.field })),
        );
        return undefined as Out<S>;
      }
      throw error;
    }
  };
  const params = run(config.params, config.params ? await context.params : undefined, "");
  const query = run(config.query, searchParamsToObject(url.searchParams), "");
  const body = run(config.body, rawBody, "");
  // PostgreSQL text cannot hold U+0000: refuse it here rather than fail in the database (500).
  if (problems.length === 0) {
    for (const parsed of [params, query, body]) problems.push(...nulCharacterProblems(parsed));
  }
  if (problems.length > 0) throw validationError(problems);
  return { query: query as Out<Q>, body: body as Out<B>, params: params as Out<P> };
}

/** Fields (by path) of parsed input whose strings contain U+0000, which PostgreSQL text cannot store. */
function nulCharacterProblems(input: unknown): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const pending: [string, unknown][] = input && typeof input === "object" ? Object.entries(input) : [];
  while (pending.length > 0) {
    const [path, value] = pending.pop()!;
    if (typeof value === "string") {
      if (value.includes("\u0000"))
        problems.push({ field: path, message: "must not contain the NUL character (U+0000)" });
    } else if (value !== null && typeof value === "object" && !(value instanceof Date)) {
      for (const [key, item] of Object.entries(value)) pending.push([`${path}.${key}`, item]);
    }
  }
  return problems.reverse();
}

function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) {
      const value = part.slice(index + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value; // a malformed escape is just an unknown token (401), not a crash
      }
    }
  }
  return undefined;
}

function toResponse(result: HandlerResult): Response {
  if (result instanceof Response) return result;
  if (result instanceof JsonResult) return jsonResponse(result.body, result.status, result.headers);
  return jsonResponse(result, 200);
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(toJson(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * JSON text of a body whose bigints (a page number past 2^53) are exact JSON integers. JSON.stringify
 * refuses a bigint, and Node 20 has no JSON.rawJSON: each is written as a string tagged with a
 * random nonce, which no string of the body can carry, and the tag is then unquoted.
 */
function toJson(body: unknown): string {
  let nonce: string | undefined;
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (typeof value !== "bigint") return value;
    nonce ??= randomBytes(12).toString("hex");
    return `${nonce}:${value}`;
  });
  return nonce ? text.replace(new RegExp(`"${nonce}:(-?\\d+)"`, "g"), "$1") : text;
}

/** Maps any error to its response. Unexpected errors are logged and answered without detail. */
export function errorResponse(error: unknown, requestId: string): Response {
  const apiError = toApiError(error);
  if (!apiError) logError(requestId, error);
  const final = apiError ?? new ApiError(500, undefined, INTERNAL_ERROR_MESSAGE);
  const body: ErrorBody = final.toBody();
  return jsonResponse(body, final.status, {
    ...final.headers,
    ...(final.errorCode ? { "x-error-code": final.errorCode } : {}),
  });
}

function toApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof NotFoundError) return new ApiError(404, undefined, error.message);
  if (error instanceof ValidationError) return validationError(error.details);
  if (error instanceof ForbiddenError) return ApiError.coded("FORBIDDEN", error.message);
  if (error instanceof StageInUseError) return ApiError.coded("STAGE_IN_USE", error.message);
  if (error instanceof PinTypeInUseError) return ApiError.coded("PIN_TYPE_IN_USE", error.message);
  if (error instanceof ConflictError) return ApiError.coded("CONFLICT", error.message);
  if (error instanceof InvalidCredentialsError) return ApiError.coded("INVALID_CREDENTIALS", error.message);
  if (error instanceof TooManyAttemptsError) {
    return ApiError.coded("TOO_MANY_ATTEMPTS", error.message, {
      headers: { "Retry-After": String(error.retryAfterSeconds) },
    });
  }
  if (error instanceof DeadlineExceededError || isDatabaseUnavailable(error)) {
    return ApiError.coded(
      "SERVICE_UNAVAILABLE",
      "The service is temporarily unavailable; please retry shortly",
      {
        headers: { "Retry-After": "5" },
      },
    );
  }
  return undefined;
}

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

const ROUTE_DECLARATION = Symbol.for("fieldcrm.routeDeclaration");

/** What an apiRoute verb was declared with (scopes, schemas, auth), for the OpenAPI coverage test. */
export type RouteDeclaration =
  AuthedRouteConfig<Schema, Schema, Schema> | PublicRouteConfig<Schema, Schema, Schema>;

export function routeDeclarationOf(handler: unknown): RouteDeclaration | undefined {
  if (typeof handler !== "function") return undefined;
  return (handler as unknown as Record<symbol, RouteDeclaration | undefined>)[ROUTE_DECLARATION];
}

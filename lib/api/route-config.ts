import "server-only";
import type { z } from "zod";
import { accessOfActions, scopeNamedInRefusal, scopesOfAction, type Action } from "@/lib/auth/permissions";
import type { Db } from "@/lib/db/client";
import type { DomainContext } from "@/lib/domain/context";
import type { JsonResult } from "./json";
import type { RouteDocs } from "./route-docs";
import { searchParamsToObject } from "./validation";

/*
 * A route verb's declaration: what apiRoute (lib/api/handler.ts) runs, and what the OpenAPI
 * document reads. Every field a route may declare is in the interfaces below.
 */

export type Schema = z.ZodType | undefined;
export type Out<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export type HandlerResult = JsonResult | Response | Record<string, unknown>;

export interface BaseConfig<Q extends Schema, B extends Schema, P extends Schema> {
  /** Query string, body and path parameters; parsed before the handler runs (400 with details). */
  query?: Q;
  body?: B;
  /** The body may be left out altogether (no Content-Type, nothing sent): it is then `{}`. */
  bodyOptional?: boolean;
  params?: P;
  /**
   * Longest the request may take before it answers 503 (default REQUEST_DEADLINE_MS). Longer only
   * for many-statement work (bulk changes), each statement still bounded by the statement timeout.
   */
  deadlineMs?: number;
  /**
   * Long work that gives way to other requests itself (an upload's staging): it is not counted as a
   * request in flight, which background work waits for (lib/domain/background).
   */
  background?: boolean;
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
   * The action(s) of lib/auth/permissions.ts the caller must be allowed, each of them; none: any
   * valid principal. An action that names roles makes the route session-only by itself.
   */
  permission?: Action | readonly Action[];
  /**
   * Actions needed as well for some inputs only (a bulk change selected by filter, or a dry run,
   * also reads records): checked once the input is parsed (one decided `byQuery`, with
   * `permission`, before the body), refused as `permission` is (403 naming the scope).
   */
  inputPermissions?: readonly InputPermission<Out<Q>, Out<B>, Out<P>>[];
  handler: (args: {
    ctx: DomainContext;
    query: Out<Q>;
    body: Out<B>;
    params: Out<P>;
    request: Request;
  }) => Promise<HandlerResult>;
}

/** An action a route needs when its parsed input asks for it, and the words the document says. */
export interface InputPermission<Query = unknown, Body = unknown, Params = unknown> {
  permission: Action;
  /** When it is needed, for the OpenAPI document ("a selection by `filter`"). */
  when: string;
  applies: (input: { query: Query; body: Body; params: Params }) => boolean;
  /** Decided by the query alone: checked with the route's permission (check 5), before the body. */
  byQuery?: boolean;
}

/**
 * A dry run's further action: its answer shows the matched record, so a write-only key must not
 * get it without the record's read scope.
 */
export function whenDryRun(permission: Action): InputPermission<{ dry_run: boolean }> {
  return {
    permission,
    when: "A dry run (`?dry_run=true`)",
    applies: ({ query }) => query.dry_run,
    byQuery: true,
  };
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

/** What an apiRoute verb was declared with (permission, schemas, auth). */
export type RouteDeclaration =
  AuthedRouteConfig<Schema, Schema, Schema> | PublicRouteConfig<Schema, Schema, Schema>;

/** The declaration's actions as a list (all of them needed). */
export function actionsOf(declaration: RouteDeclaration): readonly Action[] {
  if (declaration.auth === "none" || !declaration.permission) return [];
  return typeof declaration.permission === "string" ? [declaration.permission] : declaration.permission;
}

/** The actions the declaration needs for this parsed input beyond its `permission`. */
export function inputActionsOf(
  declaration: RouteDeclaration,
  input: { query: unknown; body: unknown; params: unknown },
): Action[] {
  if (declaration.auth === "none") return [];
  return (declaration.inputPermissions ?? []).filter((p) => p.applies(input)).map((p) => p.permission);
}

/**
 * The actions that the request's query alone asks for (`byQuery` input permissions), so that
 * check 5 refuses them before the body is read. A query that does not parse asks for none: it is
 * check 7's 400.
 */
export function queryActionsOf(declaration: RouteDeclaration, searchParams: URLSearchParams): Action[] {
  if (declaration.auth === "none") return [];
  const byQuery = (declaration.inputPermissions ?? []).filter((p) => p.byQuery);
  if (byQuery.length === 0 || !declaration.query) return [];
  const parsed = declaration.query.safeParse(searchParamsToObject(searchParams));
  if (!parsed.success) return [];
  const input = { query: parsed.data, body: undefined, params: undefined };
  return byQuery.filter((p) => p.applies(input)).map((p) => p.permission);
}

/**
 * Who may call a declared route, as the OpenAPI document shows it: accessOfActions of its
 * actions, with auth "none", "both" or "session" (its own, or implied by an action's roles), and
 * the scopes some inputs need as well.
 */
export function declaredAccess(declaration: RouteDeclaration) {
  const access = accessOfActions(actionsOf(declaration));
  const inputScopes =
    declaration.auth === "none"
      ? []
      : (declaration.inputPermissions ?? []).map((p) => ({
          when: p.when,
          scopes: scopesOfAction(p.permission),
          scopeNamedToKey: scopeNamedInRefusal(scopesOfAction(p.permission), "api_key"),
        }));
  const auth =
    declaration.auth === "none"
      ? "none"
      : declaration.auth === "session" || access.sessionOnly
        ? "session"
        : "both";
  return { auth, ...access, inputScopes } as const;
}

const ROUTE_DECLARATION = Symbol.for("fieldcrm.routeDeclaration");

/** Keeps the declaration on the verb, so tests and the OpenAPI document read the real one. */
export function attachDeclaration(route: RouteHandler, declaration: RouteDeclaration): void {
  Object.defineProperty(route, ROUTE_DECLARATION, { value: declaration });
}

export function routeDeclarationOf(handler: unknown): RouteDeclaration | undefined {
  if (typeof handler !== "function") return undefined;
  return (handler as unknown as Record<symbol, RouteDeclaration | undefined>)[ROUTE_DECLARATION];
}

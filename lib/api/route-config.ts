import "server-only";
import type { z } from "zod";
import { accessOfActions, type Action } from "@/lib/auth/permissions";
import type { Db } from "@/lib/db/client";
import type { DomainContext } from "@/lib/domain/context";
import type { JsonResult } from "./json";
import type { RouteDocs } from "./route-docs";

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
   * The action(s) a call with `?dry_run=true` needs besides `permission`: a dry run answers the
   * matched record, so it needs the record's read scope. The route's query must have `dry_run`.
   */
  dryRunPermission?: Action | readonly Action[];
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

/** What an apiRoute verb was declared with (permission, schemas, auth). */
export type RouteDeclaration =
  AuthedRouteConfig<Schema, Schema, Schema> | PublicRouteConfig<Schema, Schema, Schema>;

const asList = (permission: Action | readonly Action[] | undefined): readonly Action[] =>
  permission === undefined ? [] : typeof permission === "string" ? [permission] : permission;

/** The declaration's actions as a list (all of them needed). */
export function actionsOf(declaration: RouteDeclaration): readonly Action[] {
  return declaration.auth === "none" ? [] : asList(declaration.permission);
}

/** The further actions a dry run of the route needs (all of them), as a list. */
export function dryRunActionsOf(declaration: RouteDeclaration): readonly Action[] {
  return declaration.auth === "none" ? [] : asList(declaration.dryRunPermission);
}

/** The query schema's `dry_run` flag, if the declaration has one. */
function dryRunFlagOf(declaration: RouteDeclaration): z.ZodType | undefined {
  const shape = (declaration.query as { shape?: Record<string, z.ZodType> } | undefined)?.shape;
  return shape?.dry_run;
}

/**
 * The further actions this request needs: dryRunActionsOf when its query's `dry_run` parses to
 * true, else none (a `dry_run` that does not parse is the validation's 400, later).
 */
export function dryRunActionsAsked(
  declaration: RouteDeclaration,
  params: URLSearchParams,
): readonly Action[] {
  const actions = dryRunActionsOf(declaration);
  if (actions.length === 0) return actions;
  const parsed = dryRunFlagOf(declaration)?.safeParse(params.get("dry_run") ?? undefined);
  return parsed?.success && parsed.data === true ? actions : [];
}

/**
 * Who may call a declared route, as the OpenAPI document shows it: accessOfActions of its
 * actions, with auth "none", "both" or "session" (its own, or implied by an action's roles).
 */
export function declaredAccess(declaration: RouteDeclaration) {
  const access = accessOfActions(actionsOf(declaration), dryRunActionsOf(declaration));
  const auth =
    declaration.auth === "none"
      ? "none"
      : declaration.auth === "session" || access.sessionOnly
        ? "session"
        : "both";
  return { auth, ...access } as const;
}

const ROUTE_DECLARATION = Symbol.for("fieldcrm.routeDeclaration");

/** Keeps the declaration on the verb, so tests and the OpenAPI document read the real one. */
export function attachDeclaration(route: RouteHandler, declaration: RouteDeclaration): void {
  if (dryRunActionsOf(declaration).length > 0 && !dryRunFlagOf(declaration)) {
    throw new Error("A route with dryRunPermission needs a dry_run query parameter");
  }
  Object.defineProperty(route, ROUTE_DECLARATION, { value: declaration });
}

export function routeDeclarationOf(handler: unknown): RouteDeclaration | undefined {
  if (typeof handler !== "function") return undefined;
  return (handler as unknown as Record<symbol, RouteDeclaration | undefined>)[ROUTE_DECLARATION];
}

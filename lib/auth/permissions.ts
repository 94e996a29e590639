// Pure (types and value lists only): the route pipeline, the domain, the OpenAPI document and the
// browser's useCan all read this one table, so it must stay importable by client code.
import type { UserRole } from "@/lib/values/roles";
import { SCOPES, type Scope } from "@/lib/values/scopes";

/** The scopes a dashboard session carries, by the user's role (contract section 9). */
export const ROLE_SCOPES: Record<UserRole, readonly Scope[]> = {
  admin: SCOPES,
  manager: SCOPES,
  sales_rep: [
    "leads:read",
    "leads:write",
    "customers:read",
    "customers:write",
    "pins:read",
    "pin_types:read",
    "pins:write",
    "pipeline:read",
  ],
  technician: ["customers:read", "jobs:read", "pins:read", "pin_types:read", "pins:write"],
};

/**
 * What a key's scope grants beyond itself: original-interface keys read customers, jobs and pin
 * types with `leads:read` (contract section 4). Sessions get their role's scopes only.
 */
const KEY_SCOPE_GRANTS: Partial<Record<Scope, readonly Scope[]>> = {
  "leads:read": ["customers:read", "jobs:read", "pin_types:read"],
};

interface ActionRule {
  /** Any one of these scopes lets the caller in (a key's also through KEY_SCOPE_GRANTS). */
  scopes?: readonly Scope[];
  /** Only a dashboard session of one of these roles (a key has no role). */
  roles?: readonly UserRole[];
  /** With roles: an API key with the scopes may too (the roles bind sessions only). */
  keys?: boolean;
}

const ADMIN_ONLY: ActionRule = { roles: ["admin"] };

/** Who may do what: each action and the scopes or roles it needs. */
export const ACTIONS = {
  "leads:read": { scopes: ["leads:read"] },
  "leads:write": { scopes: ["leads:write"] },
  "customers:read": { scopes: ["customers:read"] },
  "customers:write": { scopes: ["customers:write"] },
  "service_plans:read": { scopes: ["service_plans:read"] },
  "jobs:read": { scopes: ["jobs:read"] },
  "pins:read": { scopes: ["pins:read"] },
  "pins:write": { scopes: ["pins:write"] },
  "pin_types:read": { scopes: ["pin_types:read"] },
  "reports:read": { scopes: ["reports:read"] },
  // Keys made before pipeline:read existed read the pipeline with leads:read.
  "pipeline:read": { scopes: ["pipeline:read", "leads:read"] },
  "territories:write": { scopes: ["pins:write"], roles: ["admin", "manager"] },
  // A lead on another user's pin is that user's credit (extensions.md E5): only a manager moves it.
  "pins:relink_lead": { scopes: ["leads:read"], roles: ["admin", "manager"] },
  // Undo someone else's bulk change (its author may always undo their own).
  "bulk_changes:undo_any": { roles: ["admin", "manager"] },
  "settings:manage": ADMIN_ONLY,
  "users:manage": ADMIN_ONLY,
  "api_keys:manage": ADMIN_ONLY,
  "pipeline:manage": ADMIN_ONLY,
  "pin_types:manage": ADMIN_ONLY,
  "audit_log:read": ADMIN_ONLY,
  "webhooks:manage": ADMIN_ONLY,
  // CSV import (extensions.md E9): a manager's work in the dashboard, or a key's that writes the records.
  "imports:run": { roles: ["admin", "manager"], keys: true },
  "imports:leads": { scopes: ["leads:write"], roles: ["admin", "manager"], keys: true },
  "imports:customers": { scopes: ["customers:write"], roles: ["admin", "manager"], keys: true },
} as const satisfies Record<string, ActionRule>;

export type Action = keyof typeof ACTIONS;

const ruleOf = (action: Action): ActionRule => ACTIONS[action];

/** A caller as the table sees it: a route's principal, or the browser's session. */
export type Caller =
  | { kind: "api_key"; scopes: readonly Scope[] }
  | { kind: "session"; scopes: readonly Scope[]; role: UserRole };

/** A signed-in user as the table sees them, from the session the browser or a page holds. */
export function sessionCaller(session: { user: { role: UserRole }; scopes: readonly Scope[] }): Caller {
  return { kind: "session", role: session.user.role, scopes: session.scopes };
}

/** The key scopes that grant a scope besides the scope itself, in the table's order. */
export function keyScopesGranting(scope: Scope): Scope[] {
  return SCOPES.filter((granting) => KEY_SCOPE_GRANTS[granting]?.includes(scope));
}

/** Whether a caller holds any one of `accepted` (a key also through a granting scope). */
export function hasAnyScope(
  caller: { kind: "api_key" | "session"; scopes: readonly Scope[] },
  accepted: readonly Scope[],
): boolean {
  return accepted.some(
    (scope) =>
      caller.scopes.includes(scope) ||
      (caller.kind === "api_key" && keyScopesGranting(scope).some((s) => caller.scopes.includes(s))),
  );
}

/**
 * The scopes an endpoint accepts from an API key, as documented: its own, then the key scopes
 * that grant them (`customers:read` or `leads:read`).
 */
export function scopesAcceptedFromKeys(declared: readonly Scope[]): Scope[] {
  return [...new Set([...declared, ...declared.flatMap(keyScopesGranting)])];
}

/**
 * The scope a 403 names (contract section 4): to a key, the original interface's scope that
 * would let it in when there is one (`leads:read` for customers), else the first declared scope.
 */
export function scopeNamedInRefusal(
  declared: readonly Scope[],
  kind: "api_key" | "session",
): Scope | undefined {
  const first = declared[0];
  if (!first) return undefined;
  return (kind === "api_key" ? keyScopesGranting(first)[0] : undefined) ?? first;
}

/** The scopes an action declares (any one is enough), as a route declared them before actions. */
export function scopesOfAction(action: Action): readonly Scope[] {
  return ruleOf(action).scopes ?? [];
}

/** The scopes a key may carry to do the action, as documented (its own, then those granting them). */
export function keyScopesOfAction(action: Action): Scope[] {
  return scopesAcceptedFromKeys(scopesOfAction(action));
}

/** The session roles an action allows; undefined when any role (or a key) with the scopes may. */
export function rolesOfAction(action: Action): readonly UserRole[] | undefined {
  return ruleOf(action).roles;
}

/** Whether only a dashboard session may do the action (it names roles, which keys lack, for keys too). */
export function isSessionOnly(action: Action): boolean {
  const rule = ruleOf(action);
  return rule.roles !== undefined && !rule.keys;
}

/**
 * What a route needing all of `actions` requires, as the OpenAPI document shows it (first
 * action's scopes, the others' as also needed, roles, session-only, key scopes, 403's scope).
 */
export function accessOfActions(actions: readonly Action[]) {
  const [first, ...rest] = actions;
  const scopes = first ? scopesOfAction(first) : [];
  const alsoScopes = rest.flatMap(scopesOfAction);
  const roles = actions.map(rolesOfAction).find((r) => r !== undefined);
  return {
    scopes,
    alsoScopes: alsoScopes.length > 0 ? alsoScopes : undefined,
    roles,
    sessionOnly: actions.some(isSessionOnly),
    scopesFromKeys: scopesAcceptedFromKeys(scopes),
    scopeNamedToKey: scopeNamedInRefusal(scopes, "api_key"),
  };
}

export type RefusalCode = "FORBIDDEN" | "INSUFFICIENT_SCOPE";

/**
 * Why a caller may not do all of `actions` (the first reason, in the contract's order: session
 * only, scopes, roles), or undefined when it may. The messages are the API's 403 bodies.
 */
export function refusalOf(
  caller: Caller,
  actions: readonly Action[],
  options: { sessionOnly?: boolean } = {},
): { code: RefusalCode; message: string } | undefined {
  if ((options.sessionOnly || actions.some(isSessionOnly)) && caller.kind !== "session") {
    return { code: "FORBIDDEN", message: "This endpoint is only available to signed-in dashboard users" };
  }
  for (const [index, action] of actions.entries()) {
    const scopes = scopesOfAction(action);
    if (scopes.length === 0 || hasAnyScope(caller, scopes)) continue;
    const named = scopeNamedInRefusal(scopes, caller.kind);
    const needs = index === 0 ? "requires" : "also requires";
    return {
      code: "INSUFFICIENT_SCOPE",
      message: `Insufficient scope: this endpoint ${needs} the ${named} scope`,
    };
  }
  for (const action of actions) {
    const roles = rolesOfAction(action);
    if (caller.kind === "api_key" && ruleOf(action).keys) continue;
    if (roles && (caller.kind !== "session" || !roles.includes(caller.role))) {
      return { code: "FORBIDDEN", message: `Only ${roles.join(" or ")} users may do this` };
    }
  }
  return undefined;
}

/** Whether the caller may do the action: the one question the domain and the UI ask. */
export function can(caller: Caller, action: Action): boolean {
  return refusalOf(caller, [action]) === undefined;
}

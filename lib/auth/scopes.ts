import type { UserRole } from "@/lib/db/schema";

export const SCOPES = [
  "leads:read",
  "leads:write",
  "customers:read",
  "customers:write",
  "service_plans:read",
  "jobs:read",
  "pins:read",
  "pin_types:read",
  // Added by extensions.md: additive, no existing endpoint changes what it accepts.
  "pins:write",
  "reports:read",
  "pipeline:read",
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

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
 * What an API key's scope grants beyond itself: the one table of such rules. Keys made for the
 * original interface carry only `leads:read`, and keep reading customers, serviced jobs (and the
 * job report) and pin types with it (contract section 4). Sessions are not in it: they carry their
 * role's scopes only (extensions.md, scopes).
 */
const KEY_SCOPE_GRANTS: Partial<Record<Scope, readonly Scope[]>> = {
  "leads:read": ["customers:read", "jobs:read", "pin_types:read"],
};

/** The key scopes that grant a scope besides the scope itself, in the table's order. */
export function keyScopesGranting(scope: Scope): Scope[] {
  return SCOPES.filter((granting) => KEY_SCOPE_GRANTS[granting]?.includes(scope));
}

/** Whether a principal may use an endpoint that accepts any one of `accepted`. */
export function hasAnyScope(
  principal: { kind: "api_key" | "session"; scopes: readonly Scope[] },
  accepted: readonly Scope[],
): boolean {
  return accepted.some(
    (scope) =>
      principal.scopes.includes(scope) ||
      (principal.kind === "api_key" && keyScopesGranting(scope).some((s) => principal.scopes.includes(s))),
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
 * The scope a 403 names (contract section 4): to a key, the scope of the original interface that
 * would let it in when there is one (`leads:read` for customers), else the endpoint's first scope;
 * to a session, the endpoint's first scope (a session's role decides, not the legacy rule).
 */
export function scopeNamedInRefusal(
  declared: readonly Scope[],
  kind: "api_key" | "session",
): Scope | undefined {
  const first = declared[0];
  if (!first) return undefined;
  return (kind === "api_key" ? keyScopesGranting(first)[0] : undefined) ?? first;
}

/** Only admins manage users and API keys. */
export function canManageSettings(role: UserRole): boolean {
  return role === "admin";
}

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
  ],
  technician: ["customers:read", "jobs:read", "pins:read", "pin_types:read"],
};

/** Only admins manage users and API keys. */
export function canManageSettings(role: UserRole): boolean {
  return role === "admin";
}

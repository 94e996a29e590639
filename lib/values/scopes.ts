/** The API-key and session scopes (contract section 4), importable by every layer and the browser. */
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

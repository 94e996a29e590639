import "server-only";
import type { UserRole } from "@/lib/values/roles";
import type { Scope } from "@/lib/values/scopes";

/** Who is calling: an integration with an API key, or a signed-in dashboard user. */
export type Principal = ApiKeyPrincipal | SessionPrincipal;

export interface ApiKeyPrincipal {
  kind: "api_key";
  companyId: string;
  scopes: Scope[];
  keyId: string;
}

export interface SessionPrincipal {
  kind: "session";
  companyId: string;
  scopes: Scope[];
  userId: string;
  role: UserRole;
  sessionId: string;
}

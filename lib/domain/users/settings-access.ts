import type { DomainContext } from "@/lib/domain/context";
import type { SessionPrincipal } from "@/lib/auth/principal";
import { canManageSettings } from "@/lib/auth/scopes";
import { ForbiddenError } from "@/lib/domain/errors";

/**
 * First line of every settings rule: only a signed-in admin manages users and keys. The route
 * declares the same (auth "session", roles ["admin"]); this keeps the rule true for any caller.
 */
export function requireSettingsAdmin(ctx: Pick<DomainContext, "principal">): SessionPrincipal {
  const p = ctx.principal;
  if (p.kind !== "session" || !canManageSettings(p.role)) {
    throw new ForbiddenError("Only admin users may manage users and API keys");
  }
  return p;
}

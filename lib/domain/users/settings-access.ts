import "server-only";
import type { DomainContext } from "@/lib/domain/context";
import type { SessionPrincipal } from "@/lib/auth/principal";
import { can } from "@/lib/auth/permissions";
import { ForbiddenError } from "@/lib/domain/errors";

/**
 * First line of every user and key settings rule: the route declares the same action; this keeps
 * the rule true for any caller.
 */
export function requireSettingsAdmin(
  ctx: Pick<DomainContext, "principal">,
  action: "users:manage" | "api_keys:manage",
): SessionPrincipal {
  const p = ctx.principal;
  if (p.kind !== "session" || !can(p, action)) {
    throw new ForbiddenError("Only admin users may manage users and API keys");
  }
  return p;
}

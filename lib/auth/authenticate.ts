import "server-only";
import type { Db } from "@/lib/db/client";
import { checkApiKeyAndCountRequest } from "./api-keys";
import { presentedCredentials } from "./credentials";
import type { Principal } from "./principal";
import { findSessionPrincipal } from "./sessions";

/** Who a request is, with a key's quota count; or why it is nobody (the pipeline words the 401/429). */
export type Authentication =
  | { ok: true; principal: Principal; quota?: { dailyLimit: number; used: number } }
  | { ok: false; reason: "missing" | "invalid_key" }
  | { ok: false; reason: "quota_used_up"; dailyLimit: number };

/** Checks the request's key (counting it against the daily quota) or session cookie. */
export async function authenticate(db: Db, request: Request): Promise<Authentication> {
  const presented = presentedCredentials(request.headers);
  if (presented.kind === "api_key") {
    if (!presented.key) return { ok: false, reason: "missing" };
    const check = await checkApiKeyAndCountRequest(db, presented.key);
    if (!check) return { ok: false, reason: "invalid_key" };
    if (check.used === null) return { ok: false, reason: "quota_used_up", dailyLimit: check.dailyLimit };
    return {
      ok: true,
      principal: check.principal,
      quota: { dailyLimit: check.dailyLimit, used: check.used },
    };
  }
  const session = presented.token ? await findSessionPrincipal(db, presented.token) : null;
  return session ? { ok: true, principal: session } : { ok: false, reason: "missing" };
}

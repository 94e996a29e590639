import "server-only";
import { findSessionPrincipal } from "@/lib/auth/sessions";
import { getDb } from "@/lib/db/client";
import { getSessionInfo } from "./get-session-info";
import type { SessionInfo } from "@/lib/schemas/session";

/**
 * The session of a cookie token for server-rendered pages (the dashboard layout, /sign-in, /):
 * null when there is no token, or it is unknown, expired, revoked or its user deactivated.
 */
export async function sessionFromToken(token: string | undefined): Promise<SessionInfo | null> {
  if (!token) return null;
  const db = await getDb();
  const principal = await findSessionPrincipal(db, token);
  if (!principal) return null;
  return getSessionInfo({ ctx: { db, principal } });
}

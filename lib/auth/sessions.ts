import "server-only";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { sessions, users } from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import { errorChain } from "@/lib/values/error-chain";
import type { SessionPrincipal } from "./principal";
import { ROLE_SCOPES } from "./permissions";
import { generateToken, sha256Hex } from "./secrets";

/** A session lasts 7 days from its last use (sliding), at most 30 days from sign-in. */
export const SESSION_IDLE_MS = 7 * 24 * 3600 * 1000;
export const SESSION_MAX_MS = 30 * 24 * 3600 * 1000;

/** Starts a session for a user; returns the cookie token (only its hash is stored). */
export async function createSession(
  db: DbOrTx,
  user: { companyId: string; id: string },
  userAgent?: string | null,
  ip?: string | null,
): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
  const token = generateToken();
  const sessionId = newId(ID_PREFIX.session);
  const expiresAt = new Date(Date.now() + SESSION_IDLE_MS);
  await db.insert(sessions).values({
    companyId: user.companyId,
    id: sessionId,
    userId: user.id,
    tokenHash: sha256Hex(token),
    expiresAt,
    userAgent: userAgent?.slice(0, 255) ?? null,
    ip: ip ?? null,
  });
  return { token, sessionId, expiresAt };
}

/**
 * The principal of a session cookie, or null when the token is unknown, expired, revoked or
 * its user deactivated. Extends the session's idle expiry at most once a minute.
 */
export async function findSessionPrincipal(db: DbOrTx, token: string): Promise<SessionPrincipal | null> {
  if (!token || token.length > 200) return null;
  try {
    return await lookUpSession(db, token);
  } catch (error) {
    throw new SessionLookupError(error, [token, sha256Hex(token)]);
  }
}

/**
 * A failed session lookup without the statement or its parameters (the token's hash), since Next logs it
 * as thrown; it keeps the driver's `code`, by which lib/db/errors.ts tells an outage (503) from a fault.
 */
export class SessionLookupError extends Error {
  readonly code: string | undefined;

  constructor(error: unknown, secrets: readonly string[]) {
    let code: string | undefined;
    let driverMessage = "";
    for (const { code: c, message: m, cause } of errorChain(error)) {
      code ??= typeof c === "string" ? c : undefined;
      // The innermost error is the driver's; Drizzle's wrapper ("Failed query: …") is left out.
      if (!cause && typeof m === "string" && !m.startsWith("Failed query")) driverMessage = m;
    }
    let message = driverMessage;
    for (const secret of secrets) if (secret) message = message.split(secret).join("[redacted]");
    super(`Session lookup failed${message ? `: ${message}` : ""}`);
    this.name = "SessionLookupError";
    this.code = code;
  }
}

async function lookUpSession(db: DbOrTx, token: string): Promise<SessionPrincipal | null> {
  const now = new Date();
  const rows = await db
    .select({
      companyId: sessions.companyId,
      sessionId: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      userId: users.id,
      role: users.role,
    })
    .from(sessions)
    .innerJoin(users, and(eq(users.companyId, sessions.companyId), eq(users.id, sessions.userId)))
    .where(
      and(
        eq(sessions.tokenHash, sha256Hex(token)),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        eq(users.active, true),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > 60_000) {
    const maxEnd = row.createdAt.getTime() + SESSION_MAX_MS;
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(Math.min(now.getTime() + SESSION_IDLE_MS, maxEnd)) })
      .where(and(eq(sessions.companyId, row.companyId), eq(sessions.id, row.sessionId)));
  }
  return {
    kind: "session",
    companyId: row.companyId,
    scopes: [...ROLE_SCOPES[row.role]],
    userId: row.userId,
    role: row.role,
    sessionId: row.sessionId,
  };
}

export async function revokeSession(db: DbOrTx, companyId: string, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.companyId, companyId), eq(sessions.id, sessionId)));
}

/** Ends every session of a user (deactivation, password change). */
export async function revokeUserSessions(db: DbOrTx, companyId: string, userId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.companyId, companyId), eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

import "server-only";
import { and, eq } from "drizzle-orm";
import { createSession, revokeSession, SESSION_MAX_MS } from "@/lib/auth/sessions";
import { ROLE_SCOPES } from "@/lib/auth/permissions";
import { hashPassword, passwordNeedsRehash, verifyPassword } from "@/lib/auth/secrets";
import type { Db } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import { ForbiddenError, InvalidCredentialsError, TooManyAttemptsError } from "@/lib/domain/errors";
import { normalizeEmail } from "@/lib/values/normalize";
import { getSessionInfo } from "@/lib/domain/users/get-session-info";
import type { SessionInfo, SignInBody } from "@/lib/schemas/session";
import { accountSubject, clearAttempts, reserveAttempt, unknownEmailSubject } from "@/lib/auth/throttle";

export const INVALID_CREDENTIALS_MESSAGE = "Email or password is incorrect";

// A real hash of a random password: unknown emails are checked against it, so that they take
// as long as a wrong password for a real account (no account discovery by timing).
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => (dummyHash ??= hashPassword(`no-such-user-${Math.random()}`));

function lockedMessage(seconds: number): string {
  const wait = seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
  return `Too many failed sign-in attempts for this email. Try again in ${wait}.`;
}

export interface SignInResult {
  token: string;
  /** Cookie lifetime: the session's longest possible life (it slides while used; the server decides). */
  maxAgeSeconds: number;
  session: SessionInfo;
}

/**
 * Every account with the email (several companies may share it) spends a throttle attempt before hashing,
 * and an unknown email hashes a dummy, so it gets the same answer as a wrong password (lib/auth/throttle.ts).
 */
export async function signIn({
  db,
  input,
  userAgent,
}: {
  db: Db;
  input: SignInBody;
  userAgent?: string | null;
}): Promise<SignInResult> {
  const email = normalizeEmail(input.email) ?? "";
  const candidates = await db
    .select({
      companyId: users.companyId,
      id: users.id,
      role: users.role,
      passwordHash: users.passwordHash,
      active: users.active,
    })
    .from(users)
    .where(eq(users.emailNormalized, email))
    .orderBy(users.companyId, users.id)
    .limit(10);

  let match: (typeof candidates)[number] | undefined;
  let lockSeconds = 0;
  if (candidates.length === 0) {
    const attempt = await reserveAttempt(db, unknownEmailSubject(email));
    if (attempt.reserved) await verifyPassword(input.password, await getDummyHash());
    lockSeconds = attempt.lockSeconds;
  }
  for (const candidate of candidates) {
    const attempt = await reserveAttempt(db, accountSubject(candidate));
    if (!attempt.reserved) {
      lockSeconds = Math.max(lockSeconds, attempt.lockSeconds);
      continue;
    }
    if (await verifyPassword(input.password, candidate.passwordHash ?? (await getDummyHash()))) {
      await clearAttempts(db, accountSubject(candidate));
      if (!match || candidate.active) match = candidate;
      if (candidate.active) break;
    } else {
      lockSeconds = Math.max(lockSeconds, attempt.lockSeconds);
    }
  }
  if (!match) {
    if (lockSeconds > 0) throw new TooManyAttemptsError(lockedMessage(lockSeconds), lockSeconds);
    throw new InvalidCredentialsError(INVALID_CREDENTIALS_MESSAGE);
  }
  if (!match.active) {
    throw new ForbiddenError("This account has been deactivated. Ask an administrator to reactivate it.");
  }
  if (match.passwordHash && passwordNeedsRehash(match.passwordHash)) {
    await rehashPassword(db, match, match.passwordHash, input.password);
  }
  const { token, sessionId } = await createSession(db, match, userAgent);
  const session = await getSessionInfo({
    ctx: {
      db,
      principal: {
        kind: "session",
        companyId: match.companyId,
        userId: match.id,
        sessionId,
        role: match.role,
        scopes: [...ROLE_SCOPES[match.role]],
      },
    },
  });
  return { token, maxAgeSeconds: Math.floor(SESSION_MAX_MS / 1000), session };
}

/**
 * Replaces a hash of an older algorithm or parameters with today's, now that the password is known
 * (only if nobody changed it meanwhile).
 */
async function rehashPassword(
  db: Db,
  user: { companyId: string; id: string },
  oldHash: string,
  password: string,
): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(and(eq(users.companyId, user.companyId), eq(users.id, user.id), eq(users.passwordHash, oldHash)));
}

/** Ends the caller's own session (sign-out). */
export async function signOut({
  ctx,
}: {
  ctx: { db: Db; principal: { kind: string; companyId: string; sessionId?: string } };
}): Promise<{ status: "success"; message: string }> {
  if (ctx.principal.kind === "session" && ctx.principal.sessionId) {
    await revokeSession(ctx.db, ctx.principal.companyId, ctx.principal.sessionId);
  }
  return { status: "success", message: "Signed out" };
}

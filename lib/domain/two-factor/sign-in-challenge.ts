import "server-only";
import { and, eq, gt, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { ROLE_SCOPES } from "@/lib/auth/permissions";
import { generateToken, sha256Hex } from "@/lib/auth/secrets";
import { createSession, SESSION_MAX_MS } from "@/lib/auth/sessions";
import { accountSubject, clearAttempts, reserveAttempt } from "@/lib/auth/throttle";
import type { Db, DbOrTx } from "@/lib/db/client";
import { companies, signInChallenges, users, type SignInChallengePurpose } from "@/lib/db/schema";
import { recordAudit } from "@/lib/domain/audit/audit";
import { InvalidCredentialsError, TooManyAttemptsError, ValidationError } from "@/lib/domain/errors";
import { getSessionInfo } from "@/lib/domain/users/get-session-info";
import { ID_PREFIX, newId } from "@/lib/ids";
import type { SessionInfo } from "@/lib/schemas/session";
import type { TwoFactorSetup, TwoFactorSignInBody } from "@/lib/schemas/two-factor";
import {
  hasConfirmedFactor,
  replaceRecoveryCodes,
  startTotpSetup,
  useRecoveryCode,
  useTotpCode,
} from "./factors";
import { twoFactorSwitched, WRONG_CODE_MESSAGE } from "./two-factor";

/** Long enough to open an authenticator app (or find a recovery code), short for a stolen token. */
export const CHALLENGE_TTL_MS = 10 * 60 * 1000;

export const EXPIRED_CHALLENGE_MESSAGE =
  "This sign-in has expired. Sign in again with your email and password.";

export type SecondStep =
  | { purpose: "verify"; challenge: string; expiresAt: Date }
  | { purpose: "setup"; challenge: string; expiresAt: Date; setup: TwoFactorSetup };

/**
 * What a right password leads to for this account: nothing more (null), a code (it has a second
 * factor), or setting one up (its company requires it). The challenge token is returned once; only
 * its SHA-256 is stored.
 */
export async function secondStepFor(
  db: Db,
  user: { companyId: string; id: string; email: string },
  userAgent?: string | null,
): Promise<SecondStep | null> {
  let purpose: SignInChallengePurpose;
  if (await hasConfirmedFactor(db, user)) purpose = "verify";
  else {
    const [company] = await db
      .select({ required: companies.requireTwoFactor })
      .from(companies)
      .where(eq(companies.id, user.companyId));
    if (!company?.required) return null;
    purpose = "setup";
  }
  const challenge = generateToken();
  const expiresAt = new Date(Date.now() + CHALLENGE_TTL_MS);
  return db.transaction(async (tx) => {
    // The user's spent and expired challenges go, so the table holds only live ones.
    await tx
      .delete(signInChallenges)
      .where(
        and(
          eq(signInChallenges.companyId, user.companyId),
          eq(signInChallenges.userId, user.id),
          or(isNotNull(signInChallenges.usedAt), lte(signInChallenges.expiresAt, sql`now()`)),
        ),
      );
    await tx.insert(signInChallenges).values({
      companyId: user.companyId,
      id: newId(ID_PREFIX.signInChallenge),
      userId: user.id,
      tokenHash: sha256Hex(challenge),
      purpose,
      expiresAt,
      userAgent: userAgent?.slice(0, 255) ?? null,
    });
    if (purpose === "verify") return { purpose, challenge, expiresAt };
    return { purpose, challenge, expiresAt, setup: await startTotpSetup(tx, user, user.email) };
  });
}

export type TwoFactorSignInResult = {
  token: string;
  maxAgeSeconds: number;
  session: SessionInfo;
  /** Only after setup at sign-in: the new recovery codes, shown once. */
  recoveryCodes?: string[];
};

async function findChallenge(db: DbOrTx, challenge: string) {
  const [row] = await db
    .select({
      companyId: signInChallenges.companyId,
      id: signInChallenges.id,
      userId: signInChallenges.userId,
      purpose: signInChallenges.purpose,
      userAgent: signInChallenges.userAgent,
      role: users.role,
    })
    .from(signInChallenges)
    .innerJoin(
      users,
      and(eq(users.companyId, signInChallenges.companyId), eq(users.id, signInChallenges.userId)),
    )
    .where(
      and(
        eq(signInChallenges.tokenHash, sha256Hex(challenge)),
        isNull(signInChallenges.usedAt),
        gt(signInChallenges.expiresAt, sql`now()`),
        eq(users.active, true),
      ),
    )
    .limit(1);
  return row;
}

/**
 * The second sign-in step: the challenge and a code (or a recovery code). Each try spends an attempt
 * of the account's sign-in throttle before the code is checked, the password step's attempt is only
 * given back here, on success, so codes cannot be guessed between right passwords. A code's time
 * step and a recovery code are used up in the same transaction that starts the session.
 */
export async function completeTwoFactorSignIn({
  db,
  input,
  userAgent,
  ip,
}: {
  db: Db;
  input: TwoFactorSignInBody;
  userAgent?: string | null;
  ip?: string | null;
}): Promise<TwoFactorSignInResult> {
  const found = await findChallenge(db, input.challenge);
  if (!found) throw new InvalidCredentialsError(EXPIRED_CHALLENGE_MESSAGE);
  const user = { companyId: found.companyId, id: found.userId };
  if (found.purpose === "setup" && input.recovery_code !== undefined) {
    throw new ValidationError([
      { field: "recovery_code", message: "Enter the code from your authenticator app to finish the setup" },
    ]);
  }
  const subject = accountSubject(user);
  const attempt = await reserveAttempt(db, subject);
  if (!attempt.reserved) {
    throw new TooManyAttemptsError(
      `Too many failed sign-in attempts for this email. Try again in ${attempt.lockSeconds} seconds.`,
      attempt.lockSeconds,
    );
  }
  const outcome = await db.transaction(async (tx) => {
    const accepted =
      input.code !== undefined
        ? await useTotpCode(tx, user, input.code, found.purpose === "setup" ? "unconfirmed" : "confirmed")
        : await useRecoveryCode(tx, user, input.recovery_code ?? "");
    if (!accepted) return { accepted: false as const };
    const used = await tx
      .update(signInChallenges)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(signInChallenges.companyId, found.companyId),
          eq(signInChallenges.id, found.id),
          isNull(signInChallenges.usedAt),
        ),
      )
      .returning({ id: signInChallenges.id });
    if (used.length === 0) throw new InvalidCredentialsError(EXPIRED_CHALLENGE_MESSAGE);
    // No session yet: the user signing in is the actor.
    const auditCtx = { companyId: user.companyId, ip, actor: { userId: user.id } };
    if (found.purpose === "setup") await recordAudit(tx, auditCtx, twoFactorSwitched(user.id, true));
    else if (input.code === undefined) {
      await recordAudit(tx, auditCtx, {
        kind: "two_factor.recovery_code_used",
        target: { type: "user", id: user.id },
        changes: [],
      });
    }
    const recoveryCodes = found.purpose === "setup" ? await replaceRecoveryCodes(tx, user) : undefined;
    const session = await createSession(tx, user, userAgent ?? found.userAgent, ip);
    return { accepted: true as const, recoveryCodes, ...session };
  });
  if (!outcome.accepted) {
    if (attempt.lockSeconds > 0) {
      throw new TooManyAttemptsError(
        `Too many failed sign-in attempts for this email. Try again in ${attempt.lockSeconds} seconds.`,
        attempt.lockSeconds,
      );
    }
    throw new InvalidCredentialsError(WRONG_CODE_MESSAGE);
  }
  await clearAttempts(db, subject);
  const session = await getSessionInfo({
    ctx: {
      db,
      principal: {
        kind: "session",
        companyId: user.companyId,
        userId: user.id,
        sessionId: outcome.sessionId,
        role: found.role,
        scopes: [...ROLE_SCOPES[found.role]],
      },
    },
  });
  return {
    token: outcome.token,
    maxAgeSeconds: Math.floor(SESSION_MAX_MS / 1000),
    session,
    ...(outcome.recoveryCodes ? { recoveryCodes: outcome.recoveryCodes } : {}),
  };
}

import "server-only";
import { and, eq } from "drizzle-orm";
import { createSession, revokeSession, SESSION_MAX_MS } from "@/lib/auth/sessions";
import { ROLE_SCOPES } from "@/lib/auth/permissions";
import { hashPassword, passwordNeedsRehash, verifyPassword } from "@/lib/auth/secrets";
import type { Db } from "@/lib/db/client";
import { companies, users } from "@/lib/db/schema";
import { ForbiddenError, InvalidCredentialsError, TooManyAttemptsError } from "@/lib/domain/errors";
import { normalizeEmail } from "@/lib/values/normalize";
import { getSessionInfo } from "@/lib/domain/users/get-session-info";
import type { SessionInfo, SignInBody, SignInCompany } from "@/lib/schemas/session";
import type { UserRole } from "@/lib/values/roles";
import { accountSubject, clearAttempts, reserveAttempt, unknownEmailSubject } from "@/lib/auth/throttle";
import { hasConfirmedFactor } from "@/lib/domain/two-factor/factors";
import { secondStepFor, type SecondStep } from "@/lib/domain/two-factor/sign-in-challenge";

export const INVALID_CREDENTIALS_MESSAGE = "Email or password is incorrect";

// A real hash of a random password: unknown emails are checked against it, so that they take
// as long as a wrong password for a real account (no account discovery by timing).
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => (dummyHash ??= hashPassword(`no-such-user-${Math.random()}`));

function lockedMessage(seconds: number): string {
  const wait = seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
  return `Too many failed sign-in attempts for this email. Try again in ${wait}.`;
}

/** Password checks run at once for one sign-in (libuv's pool has 4 threads; see checkCandidates). */
export const VERIFY_BATCH_SIZE = 4;

export type SignInResult =
  | {
      kind: "session";
      token: string;
      /** Cookie lifetime: the session's longest possible life (it slides while used; the server decides). */
      maxAgeSeconds: number;
      session: SessionInfo;
    }
  /**
   * No session until a company is chosen: the password is right for active accounts in several
   * companies, or for one while another account with the email is locked and so was not checked.
   */
  | { kind: "choose_company"; companies: SignInCompany[]; othersLocked: boolean }
  /** The password is right; a code (or setting up two-factor) comes before the session. */
  | { kind: "two_factor"; step: SecondStep };

type Candidate = {
  companyId: string;
  companyName: string;
  id: string;
  email: string;
  role: UserRole;
  passwordHash: string | null;
  active: boolean;
};

/**
 * Checks the password against every account with the email (one per company; several companies may
 * share it), or only the chosen company's when `company_id` is given. Each account spends a throttle
 * attempt before hashing, and an unknown email hashes a dummy, so it gets the same answer as a wrong
 * password (lib/auth/throttle.ts). A session starts at once only when every account was checked and
 * one active account matched; otherwise the matching companies are answered to choose from, so a
 * session never lands in a company the user did not pick.
 */
export async function signIn({
  db,
  input,
  userAgent,
  ip,
}: {
  db: Db;
  input: SignInBody;
  userAgent?: string | null;
  ip?: string | null;
}): Promise<SignInResult> {
  const email = normalizeEmail(input.email) ?? "";
  const byEmail = eq(users.emailNormalized, email);
  // No limit: a cap would let other companies' accounts with this email crowd the real one out.
  const candidates: Candidate[] = await db
    .select({
      companyId: users.companyId,
      companyName: companies.name,
      id: users.id,
      email: users.email,
      role: users.role,
      passwordHash: users.passwordHash,
      active: users.active,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(input.company_id ? and(byEmail, eq(users.companyId, input.company_id)) : byEmail)
    .orderBy(users.companyId, users.id);

  let lockSeconds = 0;
  if (candidates.length === 0) {
    const attempt = await reserveAttempt(db, unknownEmailSubject(email));
    if (attempt.reserved) await verifyPassword(input.password, await getDummyHash());
    lockSeconds = attempt.lockSeconds;
  }
  const checked = await checkCandidates(db, candidates, input.password);
  for (const outcome of checked) lockSeconds = Math.max(lockSeconds, outcome.lockSeconds);
  const matches = checked.filter((o) => o.matched).map((o) => o.candidate);
  if (matches.length === 0) {
    if (lockSeconds > 0) throw new TooManyAttemptsError(lockedMessage(lockSeconds), lockSeconds);
    throw new InvalidCredentialsError(INVALID_CREDENTIALS_MESSAGE);
  }
  const active = matches.filter((m) => m.active);
  const [match, ...others] = active;
  if (!match) {
    throw new ForbiddenError("This account has been deactivated. Ask an administrator to reactivate it.");
  }
  // A locked account might have matched too: landing in the one that did could be another company's.
  const othersLocked = checked.some((o) => o.locked);
  if (others.length > 0 || othersLocked) {
    const companiesToChoose = active
      .map((m) => ({ id: m.companyId, name: m.companyName, role: m.role }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
    return { kind: "choose_company", companies: companiesToChoose, othersLocked };
  }
  if (match.passwordHash && passwordNeedsRehash(match.passwordHash)) {
    await rehashPassword(db, match, match.passwordHash, input.password);
  }
  const step = await secondStepFor(db, match, userAgent);
  if (step) return { kind: "two_factor", step };
  const { token, sessionId } = await createSession(db, match, userAgent, ip);
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
  return { kind: "session", token, maxAgeSeconds: Math.floor(SESSION_MAX_MS / 1000), session };
}

/** locked: the account's throttle refused the attempt, so its password was not checked. */
type CheckOutcome = { candidate: Candidate; matched: boolean; locked: boolean; lockSeconds: number };

/**
 * Every candidate is checked: the throttle first (a locked account is not hashed, so its cost ends
 * with its lock), then the password, VERIFY_BATCH_SIZE at a time. The work grows with the companies
 * that hold the email, at most one account each, and each account's throttle bounds its hashes per
 * window; batches keep the answer's time the same for up to VERIFY_BATCH_SIZE accounts.
 */
async function checkCandidates(db: Db, candidates: Candidate[], password: string): Promise<CheckOutcome[]> {
  const outcomes: CheckOutcome[] = [];
  const toVerify: { candidate: Candidate; lockSeconds: number }[] = [];
  for (const candidate of candidates) {
    const attempt = await reserveAttempt(db, accountSubject(candidate));
    if (attempt.reserved) toVerify.push({ candidate, lockSeconds: attempt.lockSeconds });
    else outcomes.push({ candidate, matched: false, locked: true, lockSeconds: attempt.lockSeconds });
  }
  for (let i = 0; i < toVerify.length; i += VERIFY_BATCH_SIZE) {
    const batch = toVerify.slice(i, i + VERIFY_BATCH_SIZE);
    const results = await Promise.all(
      batch.map(async ({ candidate }) =>
        verifyPassword(password, candidate.passwordHash ?? (await getDummyHash())),
      ),
    );
    batch.forEach(({ candidate, lockSeconds }, j) => {
      const matched = results[j] === true;
      outcomes.push({ candidate, matched, locked: false, lockSeconds: matched ? 0 : lockSeconds });
    });
  }
  // An account with a second factor keeps this attempt counted until its code is right too, so that
  // right passwords do not wipe the count of wrong codes (lib/domain/two-factor/sign-in-challenge.ts).
  for (const { candidate, matched } of outcomes) {
    if (matched && !(await hasConfirmedFactor(db, candidate)))
      await clearAttempts(db, accountSubject(candidate));
  }
  return outcomes;
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

import "server-only";
import { eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { signInAttempts } from "@/lib/db/schema";

/** Failures allowed within the window before sign-in to that account is locked. */
export const MAX_FAILURES = 5;
/** The window, and the quiet time after which an account's count starts again. */
export const FAILURE_WINDOW_SECONDS = 15 * 60;
/** The first lock; each further failure doubles it, up to the maximum. */
export const FIRST_LOCK_SECONDS = 30;
export const MAX_LOCK_SECONDS = 15 * 60;

/** What the throttle counts: one account (company and user id), never an email shared by several. */
export function accountSubject(user: { companyId: string; id: string }): string {
  return `user:${user.companyId}:${user.id}`;
}

/** An email no account has: counted too, so that guessing cannot tell which emails exist. */
export function unknownEmailSubject(emailNormalized: string): string {
  return `email:${emailNormalized}`;
}

export type Reservation =
  /** The password may be checked; lockSeconds is the lock that applies if it is wrong (0: none). */
  | { reserved: true; lockSeconds: number }
  /** Locked: the password must not be checked. */
  | { reserved: false; lockSeconds: number };

const secondsUntil = (at: SQL | typeof signInAttempts.lockedUntil) =>
  sql<number>`ceil(greatest(0, extract(epoch from (coalesce(${at}, now()) - now()))))::int`;

/**
 * Takes an attempt, counted as a failure in advance, in one upsert under the row's lock, so at most
 * MAX_FAILURES wrong passwords are hashed before the lock however requests race. clearAttempts ends it.
 */
export async function reserveAttempt(db: DbOrTx, subject: string): Promise<Reservation> {
  const fresh = sql`(sign_in_attempts.window_started_at < now() - make_interval(secs => ${FAILURE_WINDOW_SECONDS})
      and (sign_in_attempts.locked_until is null
           or sign_in_attempts.locked_until < now() - make_interval(secs => ${FAILURE_WINDOW_SECONDS})))`;
  const failures = sql`(case when ${fresh} then 1 else sign_in_attempts.failures + 1 end)`;
  const lockFor = (n: SQL) =>
    sql`(case when ${n} >= ${MAX_FAILURES}
          then now() + make_interval(secs => least(${MAX_LOCK_SECONDS}, ${FIRST_LOCK_SECONDS} * power(2, least(${n} - ${MAX_FAILURES}, 20))))
          else null end)`;
  const [taken] = await db
    .insert(signInAttempts)
    .values({
      subject,
      failures: 1,
      windowStartedAt: sql`now()`,
      lockedUntil: null,
    })
    .onConflictDoUpdate({
      target: signInAttempts.subject,
      set: {
        failures: sql`${failures}`,
        windowStartedAt: sql`case when ${fresh} then now() else sign_in_attempts.window_started_at end`,
        lockedUntil: lockFor(failures),
      },
      setWhere: sql`sign_in_attempts.locked_until is null or sign_in_attempts.locked_until <= now()`,
    })
    .returning({ lockSeconds: secondsUntil(sql`sign_in_attempts.locked_until`) });
  if (taken) return { reserved: true, lockSeconds: Number(taken.lockSeconds) };
  const [locked] = await db
    .select({ lockSeconds: secondsUntil(signInAttempts.lockedUntil) })
    .from(signInAttempts)
    .where(eq(signInAttempts.subject, subject));
  // The lock may have ended between the two statements: still refused now, retry in a second.
  return { reserved: false, lockSeconds: Math.max(1, Number(locked?.lockSeconds ?? 0)) };
}

/** A right password forgets that account's failures (and only that account's). */
export async function clearAttempts(db: DbOrTx, subject: string): Promise<void> {
  await db.delete(signInAttempts).where(eq(signInAttempts.subject, subject));
}

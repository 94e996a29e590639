import { eq, sql, type SQL } from "drizzle-orm";
import { type DbOrTx } from "@/lib/db/client";
import { signInAttempts } from "@/lib/db/schema";

/** Failures allowed within the window before sign-in for that email is locked. */
export const MAX_FAILURES = 5;
/** The window, and the quiet time after which an email's count starts again. */
export const FAILURE_WINDOW_SECONDS = 15 * 60;
/** The first lock; each further failure doubles it, up to the maximum. */
export const FIRST_LOCK_SECONDS = 30;
export const MAX_LOCK_SECONDS = 15 * 60;

/** Seconds until this email may try again; 0 when it is not locked. */
export async function secondsLocked(db: DbOrTx, emailNormalized: string): Promise<number> {
  const rows = (
    await db.execute<{
      seconds: number | string | null;
    }>(sql`select ceil(extract(epoch from (locked_until - now())))::int as seconds
        from sign_in_attempts where email_normalized = ${emailNormalized} and locked_until > now()`)
  ).rows;
  return Math.max(0, Number(rows[0]?.seconds ?? 0));
}

/**
 * Counts one failed sign-in for an email, atomically (one upsert, so concurrent guesses all
 * count). The count starts again after 15 quiet minutes (no failure and no lock in that time).
 * From the 5th failure in the window the email is locked: 30 s, then 60 s, 120 s … up to
 * 15 minutes. Returns the lock that now applies, in seconds (0: not locked).
 */
export async function recordFailure(db: DbOrTx, emailNormalized: string): Promise<number> {
  const fresh = sql`(sign_in_attempts.window_started_at < now() - make_interval(secs => ${FAILURE_WINDOW_SECONDS})
      and (sign_in_attempts.locked_until is null
           or sign_in_attempts.locked_until < now() - make_interval(secs => ${FAILURE_WINDOW_SECONDS})))`;
  const failures = sql`(case when ${fresh} then 1 else sign_in_attempts.failures + 1 end)`;
  const lockFor = (n: SQL) =>
    sql`(case when ${n} >= ${MAX_FAILURES}
          then now() + make_interval(secs => least(${MAX_LOCK_SECONDS}, ${FIRST_LOCK_SECONDS} * power(2, least(${n} - ${MAX_FAILURES}, 20))))
          else null end)`;
  const rows = (
    await db.execute<{
      seconds: number | string | null;
    }>(sql`insert into sign_in_attempts (email_normalized, failures, window_started_at, locked_until)
        values (${emailNormalized}, 1, now(), null)
        on conflict (email_normalized) do update set
          failures = ${failures},
          window_started_at = case when ${fresh} then now() else sign_in_attempts.window_started_at end,
          locked_until = ${lockFor(failures)}
        returning ceil(greatest(0, extract(epoch from (coalesce(locked_until, now()) - now()))))::int as seconds`)
  ).rows;
  return Number(rows[0]?.seconds ?? 0);
}

/** A successful sign-in forgets the email's failures. */
export async function clearFailures(db: DbOrTx, emailNormalized: string): Promise<void> {
  await db.delete(signInAttempts).where(eq(signInAttempts.emailNormalized, emailNormalized));
}

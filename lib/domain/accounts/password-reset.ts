import "server-only";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import {
  RESET_PER_EMAIL,
  RESET_PER_IP,
  resetEmailSubject,
  resetIpSubject,
  takeRequest,
} from "@/lib/auth/request-throttle";
import { generateToken, hashPassword, sha256Hex } from "@/lib/auth/secrets";
import { revokeUserSessions } from "@/lib/auth/sessions";
import { accountSubject, clearAttempts } from "@/lib/auth/throttle";
import type { Db, DbOrTx } from "@/lib/db/client";
import { companies, passwordResets, users } from "@/lib/db/schema";
import { recordAudit } from "@/lib/domain/audit/audit";
import type { DomainContext } from "@/lib/domain/context";
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  TooManyAttemptsError,
  ValidationError,
} from "@/lib/domain/errors";
import { requireSettingsAdmin } from "@/lib/domain/users/settings-access";
import { ID_PREFIX, newId } from "@/lib/ids";
import { runInBackground } from "@/lib/mail/background";
import { appLink, isEmailConfigured, MAIL_REFUSED, sendEmail } from "@/lib/mail/mailer";
import { passwordResetEmail } from "@/lib/mail/templates";
import type { IssuedPasswordReset, PasswordResetConfirmBody } from "@/lib/schemas/accounts";
import { normalizeEmail } from "@/lib/values/normalize";

/** A reset link works once, for 1 hour. */
export const RESET_LIFETIME_MS = 3600 * 1000;

export const RESET_REQUESTED_MESSAGE =
  "If an account uses this email, a link to reset its password is on its way. It works for 1 hour.";

/** Stores a new reset token for one account; the link carries the token, the table its hash. */
async function issueToken(
  db: DbOrTx,
  user: { companyId: string; id: string },
  createdBy: string | null,
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const token = generateToken();
  const id = newId(ID_PREFIX.passwordReset);
  const expiresAt = new Date(Date.now() + RESET_LIFETIME_MS);
  await db.insert(passwordResets).values({
    companyId: user.companyId,
    id,
    userId: user.id,
    tokenHash: sha256Hex(token),
    createdBy,
    expiresAt,
  });
  return { id, token, expiresAt };
}

/**
 * "Forgot password": counts the request per client IP and per email (whether or not the email has
 * accounts, so the limit tells nothing), then answers at once. The lookup and the email happen
 * after the answer, so an email with accounts and one without take the same time and get the same
 * body. Several companies may hold an account with the email: each active one gets its own link
 * (one account each), all in one email to that address, since whoever reads it controls the email.
 */
export async function requestPasswordReset({
  db,
  email,
  ip,
  requestOrigin,
}: {
  db: Db;
  email: string;
  ip: string;
  requestOrigin: string;
}): Promise<void> {
  const emailNormalized = normalizeEmail(email) ?? "";
  for (const [subject, limit] of [
    [resetIpSubject(ip), RESET_PER_IP],
    [resetEmailSubject(emailNormalized), RESET_PER_EMAIL],
  ] as const) {
    const wait = await takeRequest(db, subject, limit);
    if (wait > 0) {
      const minutes = Math.max(1, Math.ceil(wait / 60));
      throw new TooManyAttemptsError(
        `Too many password reset requests. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
        wait,
      );
    }
  }
  if (!isEmailConfigured() || !emailNormalized) return;
  runInBackground("password reset email", () => emailResetLinks(db, emailNormalized, requestOrigin));
}

async function emailResetLinks(db: Db, emailNormalized: string, requestOrigin: string): Promise<void> {
  const accounts = await db
    .select({ companyId: users.companyId, id: users.id, email: users.email, companyName: companies.name })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.emailNormalized, emailNormalized), eq(users.active, true)))
    .orderBy(asc(companies.name), asc(users.companyId));
  const first = accounts[0];
  if (!first) return;
  const links: { companyName: string; url: string }[] = [];
  let expiresAt = new Date();
  for (const account of accounts) {
    // Written here, after the answer, where the lookup happens: the request's answer tells nothing.
    const issued = await db.transaction(async (tx) => {
      const token = await issueToken(tx, account, null);
      await recordAudit(
        tx,
        { companyId: account.companyId, actor: null },
        { kind: "user.password_reset_requested", target: { type: "user", id: account.id }, changes: [] },
      );
      return token;
    });
    expiresAt = issued.expiresAt;
    links.push({
      companyName: account.companyName,
      url: appLink(`/reset-password/${issued.token}`, requestOrigin),
    });
  }
  await sendEmail(passwordResetEmail({ to: first.email, accounts: links, expiresAt, issuedByAdmin: false }));
}

/**
 * An admin issues a reset link for one user of the company: emailed to them when email is
 * configured (if the mail server refuses, the link is dropped and the error says so), else answered once.
 */
export async function issuePasswordReset({
  ctx,
  input,
  requestOrigin,
}: {
  ctx: DomainContext;
  input: { id: string };
  requestOrigin: string;
}): Promise<IssuedPasswordReset> {
  const admin = requireSettingsAdmin(ctx, "users:manage");
  const [user] = await ctx.db
    .select({ id: users.id, email: users.email, active: users.active, companyName: companies.name })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.companyId, ctx.companyId), eq(users.id, input.id)));
  if (!user) throw new NotFoundError("User");
  if (!user.active) throw new ConflictError("This user is deactivated: reactivate them first");
  const issued = await ctx.db.transaction(async (tx) => {
    const token = await issueToken(tx, { companyId: ctx.companyId, id: user.id }, admin.userId);
    await recordAudit(tx, ctx, {
      kind: "user.password_reset_issued",
      target: { type: "user", id: user.id },
      changes: [{ field: "reset_expires_at", from: null, to: token.expiresAt.toISOString() }],
    });
    return token;
  });
  const url = appLink(`/reset-password/${issued.token}`, requestOrigin);
  const answer = { user_id: user.id, expires_at: issued.expiresAt.toISOString() };
  if (!isEmailConfigured()) return { ...answer, emailed: false, url };
  try {
    await sendEmail(
      passwordResetEmail({
        to: user.email,
        accounts: [{ companyName: user.companyName, url }],
        expiresAt: issued.expiresAt,
        issuedByAdmin: true,
      }),
    );
  } catch (error) {
    await ctx.db.transaction(async (tx) => {
      await tx
        .delete(passwordResets)
        .where(and(eq(passwordResets.companyId, ctx.companyId), eq(passwordResets.id, issued.id)));
      // The log is append-only: it says the link was withdrawn rather than forgetting it was issued.
      await recordAudit(tx, ctx, {
        kind: "user.password_reset_withdrawn",
        target: { type: "user", id: user.id },
        changes: [{ field: "reason", from: null, to: MAIL_REFUSED }],
      });
    });
    throw error;
  }
  return { ...answer, emailed: true };
}

const tokenProblem = (message: string) => new ValidationError([{ field: "token", message }]);

/**
 * Sets a new password with a reset link: the link's row is locked so it works once; every other
 * open link of the account is spent too, every session of the account ends, and its sign-in
 * throttle is cleared. Unknown, used or expired: a 400 naming `token`.
 */
export async function confirmPasswordReset({
  db,
  input,
  ip,
}: {
  db: Db;
  input: PasswordResetConfirmBody;
  ip?: string | null;
}): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const [reset] = await tx
      .select({
        companyId: passwordResets.companyId,
        id: passwordResets.id,
        userId: passwordResets.userId,
        expiresAt: passwordResets.expiresAt,
        usedAt: passwordResets.usedAt,
      })
      .from(passwordResets)
      .where(eq(passwordResets.tokenHash, sha256Hex(input.token)))
      .for("update");
    if (!reset) throw tokenProblem("This reset link is not valid. Ask for a new one.");
    if (reset.usedAt) throw tokenProblem("This reset link has already been used. Ask for a new one.");
    if (reset.expiresAt.getTime() <= Date.now()) {
      throw tokenProblem("This reset link has expired. Ask for a new one.");
    }
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(and(eq(users.companyId, reset.companyId), eq(users.id, reset.userId), eq(users.active, true)))
      .returning({ id: users.id });
    if (!user)
      throw new ForbiddenError("This account has been deactivated. Ask an administrator to reactivate it.");
    await tx
      .update(passwordResets)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(passwordResets.companyId, reset.companyId),
          eq(passwordResets.userId, reset.userId),
          isNull(passwordResets.usedAt),
        ),
      );
    await revokeUserSessions(tx, reset.companyId, reset.userId);
    await clearAttempts(tx, accountSubject({ companyId: reset.companyId, id: reset.userId }));
    // The account's owner acted (they hold the link); there is no session to name them.
    await recordAudit(
      tx,
      { companyId: reset.companyId, ip, actor: { userId: reset.userId } },
      { kind: "user.password_reset", target: { type: "user", id: reset.userId }, changes: [] },
    );
  });
}

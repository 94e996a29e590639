import "server-only";
import { and, count, eq, isNull } from "drizzle-orm";
import type { SessionPrincipal } from "@/lib/auth/principal";
import { verifyPassword } from "@/lib/auth/secrets";
import { accountSubject, clearAttempts, reserveAttempt } from "@/lib/auth/throttle";
import type { DbOrTx } from "@/lib/db/client";
import { companies, recoveryCodes, users } from "@/lib/db/schema";
import { changesBetween, recordAudit, recordAuditIfChanged, type AuditEvent } from "@/lib/domain/audit/audit";
import type { DomainContext } from "@/lib/domain/context";
import {
  ConflictError,
  ForbiddenError,
  InvalidCredentialsError,
  NotFoundError,
  TooManyAttemptsError,
} from "@/lib/domain/errors";
import { requireSettingsAdmin } from "@/lib/domain/users/settings-access";
import type {
  CompanyTwoFactor,
  DisableTwoFactorBody,
  TwoFactorCodeBody,
  TwoFactorSetup,
  TwoFactorStatus,
} from "@/lib/schemas/two-factor";
import {
  findTotpFactor,
  removeFactors,
  replaceRecoveryCodes,
  startTotpSetup,
  useTotpCode,
  type UserRef,
} from "./factors";

/** The entry of two-factor turned on or off for a user (at sign-in too: lib/domain/two-factor/sign-in-challenge.ts). */
export const twoFactorSwitched = (userId: string, on: boolean): AuditEvent => ({
  kind: on ? "two_factor.enabled" : "two_factor.disabled",
  target: { type: "user", id: userId },
  changes: [{ field: "two_factor", from: !on, to: on }],
});

export const WRONG_CODE_MESSAGE = "That code is not right. Check your authenticator app and try again.";

function sessionUser(ctx: DomainContext): { principal: SessionPrincipal; user: UserRef } {
  const p = ctx.principal;
  if (p.kind !== "session")
    throw new ForbiddenError("Only a signed-in dashboard user has two-factor sign-in");
  return { principal: p, user: { companyId: p.companyId, id: p.userId } };
}

export async function getTwoFactorStatus({ ctx }: { ctx: DomainContext }): Promise<TwoFactorStatus> {
  const { user } = sessionUser(ctx);
  const factor = await findTotpFactor(ctx.db, user);
  const [company] = await ctx.db
    .select({ required: companies.requireTwoFactor })
    .from(companies)
    .where(eq(companies.id, ctx.companyId));
  const enabledAt = factor?.confirmedAt ?? null;
  let left = 0;
  if (enabledAt) {
    const [row] = await ctx.db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(
        and(
          eq(recoveryCodes.companyId, user.companyId),
          eq(recoveryCodes.userId, user.id),
          isNull(recoveryCodes.usedAt),
        ),
      );
    left = Number(row?.n ?? 0);
  }
  return {
    enabled: enabledAt !== null,
    enabled_at: enabledAt?.toISOString() ?? null,
    recovery_codes_left: left,
    required_by_company: company?.required ?? false,
  };
}

/** Starts (or starts again) setting up an authenticator app; refused while one is on. */
export async function beginTwoFactorSetup({ ctx }: { ctx: DomainContext }): Promise<TwoFactorSetup> {
  const { user } = sessionUser(ctx);
  return ctx.db.transaction(async (tx) => {
    const factor = await findTotpFactor(tx, user);
    if (factor?.confirmedAt) throw new ConflictError("Two-factor sign-in is already on");
    return startTotpSetup(tx, user, await accountLabel(tx, user));
  });
}

/** The account name the app shows beside the codes: the user's email. */
async function accountLabel(db: DbOrTx, user: UserRef) {
  const [row] = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.companyId, user.companyId), eq(users.id, user.id)));
  if (!row) throw new NotFoundError("User");
  return row.email;
}

/**
 * Checks a code or password of the signed-in user for a two-factor change, counted by the sign-in
 * throttle like a sign-in's, so a stolen session cannot guess the password or codes here either.
 */
async function proveUser(
  ctx: DomainContext,
  user: UserRef,
  check: () => Promise<boolean>,
  wrongMessage: string,
): Promise<void> {
  const subject = accountSubject(user);
  const attempt = await reserveAttempt(ctx.db, subject);
  if (!attempt.reserved) {
    throw new TooManyAttemptsError(
      `Too many wrong attempts. Try again in ${attempt.lockSeconds} seconds.`,
      attempt.lockSeconds,
    );
  }
  if (!(await check())) {
    if (attempt.lockSeconds > 0) {
      throw new TooManyAttemptsError(
        `Too many wrong attempts. Try again in ${attempt.lockSeconds} seconds.`,
        attempt.lockSeconds,
      );
    }
    throw new InvalidCredentialsError(wrongMessage);
  }
  await clearAttempts(ctx.db, subject);
}

/** Confirms the new authenticator with its first code: two-factor is on; ten recovery codes, once. */
export async function enableTwoFactor({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: TwoFactorCodeBody;
}): Promise<{ status: TwoFactorStatus; recovery_codes: string[] }> {
  const { user } = sessionUser(ctx);
  const factor = await findTotpFactor(ctx.db, user);
  if (factor?.confirmedAt) throw new ConflictError("Two-factor sign-in is already on");
  if (!factor)
    throw new ConflictError("Start the setup first: no authenticator is waiting for its first code");
  const codes = await ctx.db.transaction(async (tx) => {
    if (!(await useTotpCode(tx, user, input.code, "unconfirmed"))) {
      throw new InvalidCredentialsError(WRONG_CODE_MESSAGE);
    }
    await recordAudit(tx, ctx, twoFactorSwitched(user.id, true));
    return replaceRecoveryCodes(tx, user);
  });
  return { status: await getTwoFactorStatus({ ctx }), recovery_codes: codes };
}

/** Turns two-factor off after a current code or the password. */
export async function disableTwoFactor({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: DisableTwoFactorBody;
}): Promise<TwoFactorStatus> {
  const { user } = sessionUser(ctx);
  const factor = await findTotpFactor(ctx.db, user);
  if (!factor?.confirmedAt) throw new ConflictError("Two-factor sign-in is not on");
  await proveUser(
    ctx,
    user,
    async () => {
      if (input.code !== undefined) return useTotpCode(ctx.db, user, input.code, "confirmed");
      const [row] = await ctx.db
        .select({ hash: users.passwordHash })
        .from(users)
        .where(and(eq(users.companyId, user.companyId), eq(users.id, user.id)));
      return verifyPassword(input.password ?? "", row?.hash);
    },
    input.code !== undefined ? WRONG_CODE_MESSAGE : "That password is not right.",
  );
  await ctx.db.transaction(async (tx) => {
    await removeFactors(tx, user);
    await recordAudit(tx, ctx, twoFactorSwitched(user.id, false));
  });
  return getTwoFactorStatus({ ctx });
}

/** Ten new recovery codes after a current code; the old ones stop working. */
export async function regenerateRecoveryCodes({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: TwoFactorCodeBody;
}): Promise<{ recovery_codes: string[] }> {
  const { user } = sessionUser(ctx);
  const factor = await findTotpFactor(ctx.db, user);
  if (!factor?.confirmedAt) throw new ConflictError("Two-factor sign-in is not on");
  await proveUser(ctx, user, () => useTotpCode(ctx.db, user, input.code, "confirmed"), WRONG_CODE_MESSAGE);
  const codes = await ctx.db.transaction(async (tx) => {
    const fresh = await replaceRecoveryCodes(tx, user);
    // No codes in the entry: that they were replaced is all the log says.
    await recordAudit(tx, ctx, {
      kind: "two_factor.recovery_codes_replaced",
      target: { type: "user", id: user.id },
      changes: [],
    });
    return fresh;
  });
  return { recovery_codes: codes };
}

/** The company's rule (admins). */
export async function getCompanyTwoFactor({ ctx }: { ctx: DomainContext }): Promise<CompanyTwoFactor> {
  requireSettingsAdmin(ctx, "users:manage");
  const [row] = await ctx.db
    .select({ required: companies.requireTwoFactor })
    .from(companies)
    .where(eq(companies.id, ctx.companyId));
  return { require_two_factor: row?.required ?? false };
}

/**
 * Requires (or stops requiring) two-factor for every user of the company. It applies at each user's
 * next sign-in; open sessions and API keys are not touched.
 */
export async function setCompanyTwoFactor({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: CompanyTwoFactor;
}): Promise<CompanyTwoFactor> {
  requireSettingsAdmin(ctx, "users:manage");
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ required: companies.requireTwoFactor })
      .from(companies)
      .where(eq(companies.id, ctx.companyId))
      .for("update");
    const [row] = await tx
      .update(companies)
      .set({ requireTwoFactor: input.require_two_factor })
      .where(eq(companies.id, ctx.companyId))
      .returning({ required: companies.requireTwoFactor });
    await recordAuditIfChanged(tx, ctx, {
      kind: "company.two_factor_required",
      target: { type: "company", id: ctx.companyId },
      changes: changesBetween(
        { require_two_factor: before?.required ?? false },
        { require_two_factor: row?.required ?? input.require_two_factor },
        ["require_two_factor"],
      ),
    });
    return { require_two_factor: row?.required ?? input.require_two_factor };
  });
}

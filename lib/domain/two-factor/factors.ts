import "server-only";
import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { recoveryCodes, secondFactors } from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import {
  generateRecoveryCodes,
  generateTotpSecret,
  hashRecoveryCode,
  totpQrCode,
  totpUri,
  verifyTotp,
} from "@/lib/auth/totp";
import type { TwoFactorSetup } from "@/lib/schemas/two-factor";

/** Shared by the profile's setup and sign-in's: the rows and checks of one user's TOTP factor. */
export type UserRef = { companyId: string; id: string };

const ofUser = (user: UserRef) =>
  and(
    eq(secondFactors.companyId, user.companyId),
    eq(secondFactors.userId, user.id),
    eq(secondFactors.kind, "totp"),
  );

export async function findTotpFactor(db: DbOrTx, user: UserRef) {
  const [row] = await db.select().from(secondFactors).where(ofUser(user)).limit(1);
  return row;
}

/** Whether the user has a confirmed second factor (sign-in then asks for a code). */
export async function hasConfirmedFactor(db: DbOrTx, user: UserRef): Promise<boolean> {
  const [row] = await db
    .select({ id: secondFactors.id })
    .from(secondFactors)
    .where(
      and(
        eq(secondFactors.companyId, user.companyId),
        eq(secondFactors.userId, user.id),
        isNotNull(secondFactors.confirmedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * A new unconfirmed authenticator for the user, replacing an earlier unconfirmed one (a setup that
 * was started again); a confirmed one is left alone (the caller refuses that case first).
 */
export async function startTotpSetup(db: DbOrTx, user: UserRef, label: string): Promise<TwoFactorSetup> {
  const secret = generateTotpSecret();
  await db.delete(secondFactors).where(and(ofUser(user), isNull(secondFactors.confirmedAt)));
  await db
    .insert(secondFactors)
    .values({
      companyId: user.companyId,
      id: newId(ID_PREFIX.secondFactor),
      userId: user.id,
      kind: "totp",
      secret,
    })
    .onConflictDoNothing();
  const uri = totpUri(secret, label);
  return { secret, otpauth_url: uri, qr_code: await totpQrCode(uri) };
}

/**
 * Checks a code against the user's factor (confirmed or, for setup, unconfirmed) and takes its time
 * step in one conditional update, so the same code (or an older one) is not accepted twice however
 * requests race. Returns whether it was accepted.
 */
export async function useTotpCode(
  db: DbOrTx,
  user: UserRef,
  code: string,
  state: "confirmed" | "unconfirmed",
): Promise<boolean> {
  const factor = await findTotpFactor(db, user);
  if (!factor?.secret) return false;
  if ((factor.confirmedAt !== null) !== (state === "confirmed")) return false;
  const step = verifyTotp(factor.secret, code);
  if (step === null) return false;
  const taken = await db
    .update(secondFactors)
    .set({
      lastUsedStep: step,
      ...(state === "unconfirmed" ? { confirmedAt: sql`now()` } : {}),
    })
    .where(
      and(
        eq(secondFactors.companyId, factor.companyId),
        eq(secondFactors.id, factor.id),
        or(isNull(secondFactors.lastUsedStep), lt(secondFactors.lastUsedStep, step)),
      ),
    )
    .returning({ id: secondFactors.id });
  return taken.length === 1;
}

/** Spends one unused recovery code of the user (at most once, however requests race). */
export async function useRecoveryCode(db: DbOrTx, user: UserRef, code: string): Promise<boolean> {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(recoveryCodes.companyId, user.companyId),
        eq(recoveryCodes.userId, user.id),
        eq(recoveryCodes.codeHash, hashRecoveryCode(code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

/** Ten new recovery codes in place of the user's old ones; the plain codes are returned this once. */
export async function replaceRecoveryCodes(db: DbOrTx, user: UserRef): Promise<string[]> {
  const codes = generateRecoveryCodes();
  await db
    .delete(recoveryCodes)
    .where(and(eq(recoveryCodes.companyId, user.companyId), eq(recoveryCodes.userId, user.id)));
  await db.insert(recoveryCodes).values(
    codes.map((code) => ({
      companyId: user.companyId,
      id: newId(ID_PREFIX.recoveryCode),
      userId: user.id,
      codeHash: hashRecoveryCode(code),
    })),
  );
  return codes;
}

/** Removes the user's second factors and recovery codes (turned off). */
export async function removeFactors(db: DbOrTx, user: UserRef): Promise<void> {
  await db
    .delete(secondFactors)
    .where(and(eq(secondFactors.companyId, user.companyId), eq(secondFactors.userId, user.id)));
  await db
    .delete(recoveryCodes)
    .where(and(eq(recoveryCodes.companyId, user.companyId), eq(recoveryCodes.userId, user.id)));
}

import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { createdAt, tenantKey } from "./columns";
import { users } from "./users";

/** The kinds of second factor; passkeys (`webauthn`) will be a second kind with its own columns. */
export const SECOND_FACTOR_KINDS = ["totp"] as const;
export type SecondFactorKind = (typeof SECOND_FACTOR_KINDS)[number];

/**
 * A user's second factors, one row each. Only `totp` exists today (one per user); a passkey would be
 * a `webauthn` row with nullable credential columns added beside these, so no data has to move.
 */
export const secondFactors = pgTable(
  "second_factors",
  {
    ...tenantKey(),
    userId: text("user_id").notNull(),
    kind: text("kind").$type<SecondFactorKind>().notNull(),
    /**
     * The TOTP shared secret (base32). Stored as is: the server must recompute codes from it and the
     * project has no key mechanism to encrypt it with (SECURITY.md).
     */
    secret: text("secret"),
    /** Null while setup waits for its first code: an unconfirmed factor is never asked for. */
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    /** The TOTP time step of the last accepted code: a code of that step or earlier is refused (replay). */
    lastUsedStep: bigint("last_used_step", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.userId], foreignColumns: [users.companyId, users.id] }).onDelete(
      "cascade",
    ),
    check("second_factors_kind_check", sql`${t.kind} in ('totp')`),
    // One authenticator app per user (passkeys, when added, may be many).
    uniqueIndex("second_factors_one_totp_idx")
      .on(t.companyId, t.userId)
      .where(sql`${t.kind} = 'totp'`),
  ],
);

/** Single-use recovery codes: only a SHA-256 of each (they are random, 50 bits). */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    ...tenantKey(),
    userId: text("user_id").notNull(),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.userId], foreignColumns: [users.companyId, users.id] }).onDelete(
      "cascade",
    ),
    index("recovery_codes_user_idx").on(t.companyId, t.userId),
  ],
);

export const SIGN_IN_CHALLENGE_PURPOSES = ["verify", "setup"] as const;
export type SignInChallengePurpose = (typeof SIGN_IN_CHALLENGE_PURPOSES)[number];

/**
 * The step between a right password and a session: `verify` asks for a code, `setup` (the company
 * requires two-factor) for the first code of a new authenticator. Only the token's SHA-256 is stored.
 */
export const signInChallenges = pgTable(
  "sign_in_challenges",
  {
    ...tenantKey(),
    userId: text("user_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    purpose: text("purpose").$type<SignInChallengePurpose>().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.userId], foreignColumns: [users.companyId, users.id] }).onDelete(
      "cascade",
    ),
    check("sign_in_challenges_purpose_check", sql`${t.purpose} in ('verify', 'setup')`),
    index("sign_in_challenges_token_hash_idx").on(t.tokenHash),
  ],
);

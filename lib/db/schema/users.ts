import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { companies } from "./companies";
import { createdAt, tenantKey, updatedAt } from "./columns";
import type { UserRole } from "@/lib/values/roles";

export { USER_ROLES, type UserRole } from "@/lib/values/roles";

export const users = pgTable(
  "users",
  {
    ...tenantKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    /** lower(trim(email)): sign-in and uniqueness. */
    emailNormalized: text("email_normalized").notNull(),
    role: text("role").$type<UserRole>().notNull(),
    /**
     * A PHC string naming its algorithm and parameters (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), or
     * an older `scrypt$N$r$p$salt$hash`; null: the user cannot sign in with a password.
     */
    passwordHash: text("password_hash"),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    check("users_role_check", sql`${t.role} in ('admin', 'manager', 'sales_rep', 'technician')`),
    index("users_email_idx").on(t.emailNormalized),
  ],
);

/** Dashboard sessions: the cookie carries a random token; only its SHA-256 is stored. */
export const sessions = pgTable(
  "sessions",
  {
    ...tenantKey(),
    userId: text("user_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    userAgent: text("user_agent"),
    /** The client's address at sign-in (lib/auth/client-ip.ts), shown in the user's sessions list. */
    ip: text("ip"),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.userId], foreignColumns: [users.companyId, users.id] }).onDelete(
      "cascade",
    ),
    index("sessions_token_hash_idx").on(t.tokenHash),
    index("sessions_user_idx").on(t.companyId, t.userId),
  ],
);

/**
 * Failed sign-ins per subject (`user:<company>:<id>` or `email:<email>`), to slow guessing. Per
 * account, since an email is unique only within a company; global since sign-in has no tenant yet.
 */
export const signInAttempts = pgTable("sign_in_attempts", {
  subject: text("subject").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
});

import { sql } from "drizzle-orm";
import {
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { companies } from "./companies";
import { createdAt, tenantKey } from "./columns";
import { users } from "./users";
import type { UserRole } from "@/lib/values/roles";

/**
 * Invitations to join a company: the link carries a random token, only its SHA-256 is stored.
 * Pending while not accepted, not revoked and before `expires_at` (7 days).
 */
export const invites = pgTable(
  "invites",
  {
    ...tenantKey(),
    email: text("email").notNull(),
    emailNormalized: text("email_normalized").notNull(),
    role: text("role").$type<UserRole>().notNull(),
    tokenHash: text("token_hash").notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedUserId: text("accepted_user_id"),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    check("invites_role_check", sql`${t.role} in ('admin', 'manager', 'sales_rep', 'technician')`),
    // Looked up by hash alone (the link does not say its company), like API keys.
    uniqueIndex("invites_token_hash_idx").on(t.tokenHash),
    index("invites_company_email_idx").on(t.companyId, t.emailNormalized),
  ],
);

/**
 * Password reset links: one per account (company and user), single use, 1 hour. `created_by` is
 * the admin who issued it, null when the user asked for it (forgot password).
 */
export const passwordResets = pgTable(
  "password_resets",
  {
    ...tenantKey(),
    userId: text("user_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId, t.userId], foreignColumns: [users.companyId, users.id] }).onDelete(
      "cascade",
    ),
    uniqueIndex("password_resets_token_hash_idx").on(t.tokenHash),
    index("password_resets_user_idx").on(t.companyId, t.userId),
  ],
);

/**
 * Requests per subject in a fixed window (`reset-email:<email>`, `reset-ip:<ip>`): the password
 * reset throttle, in the database so that every server process counts alike.
 */
export const requestThrottle = pgTable("request_throttle", {
  subject: text("subject").primaryKey(),
  count: integer("count").notNull().default(0),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull().defaultNow(),
});

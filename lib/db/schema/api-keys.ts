import { sql } from "drizzle-orm";
import {
  date,
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
import { DEFAULT_DAILY_LIMIT } from "@/lib/values/limits";

export const apiKeys = pgTable(
  "api_keys",
  {
    ...tenantKey(),
    name: text("name").notNull(),
    /** The first characters of the key, shown in the dashboard to tell keys apart. */
    prefix: text("prefix").notNull(),
    /** SHA-256 (hex) of the secret; the secret itself is never stored. */
    keyHash: text("key_hash").notNull(),
    scopes: text("scopes")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    dailyLimit: integer("daily_limit").notNull().default(DEFAULT_DAILY_LIMIT),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.id] }),
    foreignKey({ columns: [t.companyId], foreignColumns: [companies.id] }).onDelete("cascade"),
    // Keys are looked up by hash alone (the key does not say its company). In a distributed
    // deployment this small table is a reference table, so a global unique index is fine.
    uniqueIndex("api_keys_key_hash_idx").on(t.keyHash),
  ],
);

/** Requests per key per UTC day; incremented atomically in the statement that checks the limit. */
export const apiKeyUsage = pgTable(
  "api_key_usage",
  {
    companyId: text("company_id").notNull(),
    keyId: text("key_id").notNull(),
    day: date("day").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.keyId, t.day] }),
    foreignKey({ columns: [t.companyId, t.keyId], foreignColumns: [apiKeys.companyId, apiKeys.id] }).onDelete(
      "cascade",
    ),
    index("api_key_usage_day_idx").on(t.day),
  ],
);

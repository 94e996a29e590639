import { asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { DbOrTx } from "@/lib/db/client";
import { auditLog } from "@/lib/db/schema";

/** The company's audit entries, oldest first (optionally of one kind). */
export async function auditEntries(db: DbOrTx, companyId: string, kind?: string) {
  const rows = await db
    .select()
    .from(auditLog)
    .where(eq(auditLog.companyId, companyId))
    .orderBy(asc(auditLog.at), asc(auditLog.id));
  return kind === undefined ? rows : rows.filter((row) => row.kind === kind);
}

/**
 * No entry has a field that names a secret, nor a secret-looking value (a webhook secret, a password
 * hash, a SHA-256 hex digest), nor any of the given secret values.
 */
export function expectNoSecretsIn(
  entries: readonly { changes: readonly { field: string }[] }[],
  secrets: readonly string[] = [],
): void {
  for (const entry of entries) {
    for (const change of entry.changes) expect(change.field).not.toMatch(/password|secret|hash|token|code/i);
  }
  const json = JSON.stringify(entries);
  expect(json).not.toMatch(/whsec_|\$argon2|scrypt\$|\b[0-9a-f]{64}\b/);
  for (const secret of secrets) expect(json).not.toContain(secret);
}

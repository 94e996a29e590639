import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "@/lib/db/client";
import { importClaims, type ImportRecordType } from "@/lib/db/schema";
import type { ImportMapping } from "@/lib/import/csv/mapping";
import { normalizeEmail, normalizePhone } from "@/lib/values/normalize";
import { importLockKey } from "./locks";
import { arrayLiteral } from "@/lib/db/array-literal";

/*
 * Identity claims (PostgreSQL): before an import's write transaction, the phones and emails of its
 * file are committed to import_claims. A create-or-update of a claimed identity waits for the
 * company's import lock (shared) and then matches, so it finds the record the import made instead
 * of making a second one. Writers that checked before the claims committed are waited for.
 */

const CLAIM_BATCH_ROWS = 10_000;
const DELETE_BATCH_ROWS = 20_000;
/**
 * Longest the run waits for writers that began before its claims committed: a create-or-update
 * ends within its request's few seconds; a longer writer (another company's import) is not one.
 */
const EARLIER_WRITERS_WAIT_MS = 5_000;

/** Claims the file's phones and emails for the run; answers the snapshot the claims committed at. */
export async function claimIdentities(
  db: Db,
  input: { companyId: string; importId: string; type: ImportRecordType; mapping: ImportMapping },
): Promise<{ snapshot: string }> {
  const { companyId, importId, type, mapping } = input;
  const phoneAt = mapping.indexOf("phone");
  const emailAt = mapping.indexOf("email");
  // PostgreSQL arrays count from 1; a missing column reads as null.
  const cell = (at: number) => (at < 0 ? sql`null::text` : sql`"values"[${at + 1}]`);
  if (phoneAt >= 0 || emailAt >= 0) {
    let last = 0;
    for (;;) {
      const { rows } = await db.execute<{ row: number; phone: string | null; email: string | null }>(
        sql`select "row", ${cell(phoneAt)} as phone, ${cell(emailAt)} as email from import_rows
          where company_id = ${companyId} and import_id = ${importId} and "row" > ${last}
          order by "row" limit ${CLAIM_BATCH_ROWS}`,
      );
      if (rows.length === 0) break;
      last = Number(rows[rows.length - 1]!.row);
      // Once each: one statement may not claim the same identity twice.
      const phones = new Set<string>();
      const emails = new Set<string>();
      for (const row of rows) {
        const phone = normalizePhone(row.phone);
        const email = normalizeEmail(row.email);
        if (phone) phones.add(phone);
        if (email) emails.add(email);
      }
      const kinds = [...[...phones].map(() => "phone"), ...[...emails].map(() => "email")];
      const values = [...phones, ...emails];
      if (values.length === 0) continue;
      await db.execute(sql`insert into ${importClaims} (company_id, record_type, kind, value, import_id)
        select ${companyId}, ${type}, u.kind, u.value, ${importId}
        from unnest(${arrayLiteral(kinds)}::text[], ${arrayLiteral(values)}::text[]) as u(kind, value)
        on conflict (company_id, record_type, kind, value) do update set import_id = excluded.import_id`);
    }
  }
  const { rows } = await db.execute<{ snapshot: string }>(
    sql`select pg_current_snapshot()::text as snapshot`,
  );
  return { snapshot: rows[0]!.snapshot };
}

/**
 * Waits (bounded) until the write transactions in progress when the claims committed have ended:
 * one of them may be creating a claimed identity it checked before the claim existed.
 */
export async function waitForEarlierWriters(tx: DbOrTx, snapshot: string): Promise<void> {
  const until = Date.now() + EARLIER_WRITERS_WAIT_MS;
  for (;;) {
    const { rows } = await tx.execute<{ running: number }>(
      // Only this database's writers matter (transaction ids are the whole server's).
      sql`select count(*)::int as running from pg_snapshot_xip(${snapshot}::pg_snapshot) as x(xid)
        where pg_xact_status(x.xid) = 'in progress' and exists (select from pg_stat_activity a
          where a.datname = current_database() and a.pid <> pg_backend_pid()
            and a.backend_xid::text::bigint = x.xid::text::bigint % 4294967296)`,
    );
    if (Number(rows[0]?.running ?? 0) === 0 || Date.now() > until) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Drops the run's claims, a slice per statement. */
export async function releaseClaims(db: Db, companyId: string, importId: string): Promise<void> {
  for (;;) {
    const { rows } = await db.execute<{ n: number }>(sql`with gone as (
        delete from ${importClaims} where ctid in (select ctid from ${importClaims}
          where company_id = ${companyId} and import_id = ${importId} limit ${DELETE_BATCH_ROWS})
        returning 1)
      select count(*)::int as n from gone`);
    if (Number(rows[0]?.n ?? 0) < DELETE_BATCH_ROWS) return;
  }
}

/** `(…)`: a claim of any of these identities (`c`: import_claims), or undefined for none. */
function claimedPredicate(identities: { phone: string | null; email: string | null }): SQL | undefined {
  const claimed: SQL[] = [];
  if (identities.phone) claimed.push(sql`(c.kind = 'phone' and c.value = ${identities.phone})`);
  if (identities.email) claimed.push(sql`(c.kind = 'email' and c.value = ${identities.email})`);
  return claimed.length === 0 ? undefined : sql`(${sql.join(claimed, sql` or `)})`;
}

/**
 * `(…)`: waits for the company's running import when it claimed one of these identities (a
 * create-or-update's identity lock statement evaluates it); nothing when none is claimed.
 */
export function claimedIdentityWait(
  recordType: string,
  companyId: string,
  identities: { phone: string | null; email: string | null },
): SQL | undefined {
  const claimed = claimedPredicate(identities);
  if (!claimed) return undefined;
  return sql`(select pg_advisory_xact_lock_shared(${importLockKey(companyId)}) from ${importClaims} c
    where c.company_id = ${companyId} and c.record_type = ${recordType}
      and ${claimed} limit 1)`;
}

/**
 * After a create-or-update failed on its identity lock statement: the running import that claimed
 * one of these identities (then it waited for that import past the statement timeout), if any.
 */
export async function importClaiming(
  db: Db,
  recordType: string,
  companyId: string,
  identities: { phone: string | null; email: string | null },
): Promise<string | undefined> {
  const claimed = claimedPredicate(identities);
  if (!claimed) return undefined;
  const { rows } = await db.execute<{ import_id: string }>(
    sql`select c.import_id from ${importClaims} c
      where c.company_id = ${companyId} and c.record_type = ${recordType}
        and ${claimed} limit 1`,
  );
  return rows[0]?.import_id;
}

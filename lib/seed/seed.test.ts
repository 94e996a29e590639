import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { checkApiKeyAndCountRequest } from "@/lib/auth/api-keys";
import { SCOPES } from "@/lib/values/scopes";
import { verifyPassword } from "@/lib/auth/secrets";
import { type Database } from "@/lib/db/client";
import { JOB_STATUSES, PLAN_FREQUENCIES, USER_ROLES } from "@/lib/db/schema";
import { snapshotHash, snapshotTables } from "@/lib/import/snapshot";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { AUSTIN_AREAS } from "./austin";
import {
  buildDemoDocument,
  DEMO_API_KEY,
  DEMO_COMPANIES,
  DEMO_PASSWORD,
  DEMO_USERS,
  isDatabaseEmpty,
  seedDemoData,
} from "./index";

// Password hashes are salted: equal passwords, different hashes. Everything else must be equal.
// The change-feed stamps name the writing transaction, which differs per database.
const OMIT = ["password_hash", "change_xid", "change_seq"];

const first = setupTestDatabase();
const second = setupTestDatabase();

const distinct = async (db: Database, query: ReturnType<typeof sql>) =>
  (await db.db.execute<{ v: string }>(query)).rows.map((r) => String(r.v));

// Four full seeds on a shared, busy machine: more time than the default.
describe(`demo data on ${testEngine()}`, { timeout: 180_000 }, () => {
  it("builds the same document every time", () => {
    expect(JSON.stringify(buildDemoDocument())).toBe(JSON.stringify(buildDemoDocument()));
  });

  it("seeds two fresh databases with identical contents, and seeding again changes nothing", async () => {
    expect(await isDatabaseEmpty(first.db)).toBe(true);
    await Promise.all([seedDemoData(first.db), seedDemoData(second.db)]);
    expect(await isDatabaseEmpty(first.db)).toBe(false);
    const a = await snapshotTables(first.db, { omit: OMIT });
    const b = await snapshotTables(second.db, { omit: OMIT });
    expect(a.leads.length).toBeGreaterThan(500);
    expect(snapshotHash(a)).toBe(snapshotHash(b));

    const again = await seedDemoData(first.db);
    for (const [section, count] of Object.entries(again.counts)) {
      if (typeof count === "number") continue;
      expect(count, section).toMatchObject({ inserted: 0, updated: 0, unchanged: count.total });
    }
    const withHashes = await snapshotTables(first.db);
    await seedDemoData(first.db);
    expect(await snapshotTables(first.db)).toEqual(withHashes);
  });

  it("has every role, frequency, job status and payment outcome, and about 2,000 pins", async () => {
    const db = first;
    expect(await distinct(db, sql`select distinct role as v from users order by 1`)).toEqual(
      [...USER_ROLES].sort(),
    );
    for (const company of Object.values(DEMO_COMPANIES)) {
      expect(
        await distinct(
          db,
          sql`select distinct frequency as v from service_plans where company_id = ${company.id}`,
        ),
      ).toHaveLength(PLAN_FREQUENCIES.length);
      expect(
        await distinct(
          db,
          sql`select distinct status as v from jobs where company_id = ${company.id} and not is_quote and not archived`,
        ),
      ).toHaveLength(JOB_STATUSES.length);
      expect(
        await distinct(db, sql`select id as v from pin_types where company_id = ${company.id}`),
      ).toHaveLength(5);
    }
    const [pins] = (
      await db.db.execute<{ n: number; creators: number }>(
        sql`select count(*)::int as n, count(distinct created_by)::int as creators from pins`,
      )
    ).rows;
    expect(Number(pins!.n)).toBe(2000);
    expect(Number(pins!.creators)).toBeGreaterThanOrEqual(4);
    expect(
      await distinct(
        db,
        sql`select distinct payment_type || ':' || status as v from job_payments order by 1`,
      ),
    ).toEqual(["payment:failed", "payment:pending", "payment:succeeded", "refund:succeeded"]);
    const [facts] = (
      await db.db.execute<Record<string, number>>(sql`select
        (select count(*)::int from customers where status = 'inactive') as inactive,
        (select count(*)::int from customers where archived) as archived_customers,
        (select count(*)::int from customers where is_auto_pay) as auto_pay,
        (select count(*)::int from customers where has_payment_method and not is_auto_pay) as card_on_file,
        (select count(*)::int from leads where archived) as archived_leads,
        (select count(distinct stage)::int from leads) as stages,
        (select count(*)::int from leads where cardinality(tags) > 0) as tagged,
        (select count(*)::int from jobs where is_quote) as quotes,
        (select count(*)::int from jobs where archived) as archived_jobs,
        (select count(*)::int from job_crew) as crew,
        (select count(*)::int from service_plans where frequency = 'Custom' and custom_frequency_label is null) as unlabeled`)
    ).rows;
    for (const key of [
      "inactive",
      "archived_customers",
      "auto_pay",
      "card_on_file",
      "archived_leads",
      "tagged",
      "quotes",
      "archived_jobs",
      "crew",
    ])
      expect(Number(facts![key]), key).toBeGreaterThan(0);
    expect(Number(facts!.stages)).toBe(5);
    expect(Number(facts!.unlabeled)).toBe(0);
  });

  it("keeps service_date at each job's earliest visit and every address in the Austin metro", async () => {
    const [wrong] = (
      await first.db.execute<{ n: number }>(sql`select count(*)::int as n from jobs j
          where j.service_date is distinct from (select min(v.starts_at) from job_visits v
            where v.company_id = j.company_id and v.job_id = j.id)`)
    ).rows;
    expect(Number(wrong!.n)).toBe(0);
    const [box] = (
      await first.db.execute<
        Record<string, number>
      >(sql`select min(latitude) as min_lat, max(latitude) as max_lat, min(longitude) as min_lng, max(longitude) as max_lng
          from (select latitude, longitude from pins union all select latitude, longitude from leads
                union all select latitude, longitude from customers) p where latitude is not null`)
    ).rows;
    expect(Number(box!.min_lat)).toBeGreaterThan(30.0);
    expect(Number(box!.max_lat)).toBeLessThan(30.7);
    expect(Number(box!.min_lng)).toBeGreaterThan(-98.1);
    expect(Number(box!.max_lng)).toBeLessThan(-97.5);
    const zips = new Set(AUSTIN_AREAS.map((a) => a.zip));
    for (const zip of await distinct(first, sql`select distinct property_zip as v from customers`))
      expect(zips).toContain(zip);
  });

  it("signs in every demo user with the documented password and accepts the demo key with every scope", async () => {
    const rows = (
      await first.db.execute<{ email: string; password_hash: string; active: boolean }>(
        sql`select email, password_hash, active from users order by email`,
      )
    ).rows;
    expect(rows.map((r) => r.email)).toEqual(DEMO_USERS.map((u) => u.email).sort());
    for (const row of rows) expect(await verifyPassword(DEMO_PASSWORD, row.password_hash)).toBe(true);
    expect(DEMO_API_KEY).toMatch(/^fcrm_live_[0-9A-Za-z]{43}$/);
    const check = await checkApiKeyAndCountRequest(first.db, DEMO_API_KEY);
    expect(check?.principal.companyId).toBe(DEMO_COMPANIES.pest.id);
    expect([...check!.principal.scopes].sort()).toEqual([...SCOPES].sort());
  });
});

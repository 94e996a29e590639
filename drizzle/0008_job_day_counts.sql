-- Exact totals of the job list with a service-date bound (GET /serviced-jobs?service_date_range_…),
-- kept in list_counts as 0006 and 0007 keep the others: counter rows per (UTC day of the service
-- date, status) of the listed jobs (never quotes nor archived) that have a service date, entity
-- 'job_days' (the table in lib/db/schema/list-counts.ts). A request reads the whole days inside
-- its bounds from these rows, and counts the jobs of the part-days at its ends (lib/domain/
-- list-counts.ts, jobDayCountSql; lib/domain/serviced-jobs/list.ts): a range of a month sums ~30
-- rows instead of counting ~20,000 jobs (bench/RESULTS.md).
--
-- The jobs table is locked against writes first (until the migration commits): replacing a
-- trigger function takes no lock on its table, and a write committed between the new function
-- and the backfill below would otherwise be counted by neither. Locked before list_counts is
-- altered, in the order writers take them (table, then list_counts).
LOCK TABLE "jobs" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
ALTER TABLE "list_counts" DROP CONSTRAINT "list_counts_entity_check";--> statement-breakpoint
ALTER TABLE "list_counts" ADD CONSTRAINT "list_counts_entity_check" CHECK ("list_counts"."entity" in ('leads', 'customers', 'service_plans', 'jobs', 'pins', 'lead_tags', 'customer_tags', 'job_days'));
--> statement-breakpoint
-- key1 of a day: the service date's UTC day as its Julian day number plus one, ten digits
-- ('0002461372' is 2026-11-26), so that the text order of the keys is the order of the days in any
-- collation (digits only, one width) over the whole range of timestamptz (4714 BC to 294276 AD);
-- -infinity and infinity sort before and after every day. NULL for a job without a service date:
-- such a job matches no bound and is not counted here.
CREATE OR REPLACE FUNCTION "job_day_key"(t timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN t = '-infinity'::timestamptz THEN '0000000000'
    WHEN t = 'infinity'::timestamptz THEN '9999999999'
    ELSE lpad(((t AT TIME ZONE 'UTC')::date - '4714-11-24 BC'::date + 1)::text, 10, '0')
  END
$fn$;
--> statement-breakpoint
-- TRUNCATE of jobs clears both of its lists.
DROP TRIGGER "jobs_list_counts_truncate" ON "jobs";
--> statement-breakpoint
CREATE TRIGGER "jobs_list_counts_truncate" AFTER TRUNCATE ON "jobs"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_clear"('jobs', 'job_days');
--> statement-breakpoint
-- The counters of jobs: 0006's function, unchanged for the 'jobs' rows (a delta row per touched
-- status, all of the tenant's rows folded one statement in 32), plus the day rows. A tenant has
-- thousands of (day, status) tuples (the bench tenant ~5,000), so these are folded as 0007 folds
-- the tag sets: every statement takes the current rows of the tuples it touched that no other
-- transaction holds (FOR UPDATE SKIP LOCKED: it never waits), deletes them by ctid and inserts one
-- row per tuple with their sum plus its change (none when that is zero). key1 = the day, key2 =
-- the status: the probe is an index equality on (company_id, entity, flag, key1). Most updates of
-- a job change none of the columns counted here (its money, kept on the row by the line item and
-- payment triggers): the day statement is skipped then.
CREATE OR REPLACE FUNCTION "jobs_keep_list_counts"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  added bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'jobs', false, "status", NULL::text, count(*)
    FROM new_rows WHERE NOT "is_quote" AND NOT "archived" GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    WITH delta AS (
      SELECT "company_id", false AS "flag", "job_day_key"("service_date") AS "key1", "status" AS "key2", count(*)::int AS "n"
      FROM new_rows
      WHERE NOT "is_quote" AND NOT "archived" AND "service_date" IS NOT NULL
      GROUP BY 1, 2, 3, 4
    ),
    folded AS (
      DELETE FROM "list_counts" c
      WHERE c.ctid = ANY (ARRAY(
        SELECT x.ctid FROM delta d, LATERAL (
          SELECT l.ctid FROM "list_counts" l
          WHERE l."company_id" = d."company_id" AND l."entity" = 'job_days' AND l."flag" = d."flag"
            AND l."key1" = d."key1" AND (l."key2" = d."key2" OR (l."key2" IS NULL AND d."key2" IS NULL))
          FOR UPDATE SKIP LOCKED
        ) x
      ))
      RETURNING c."company_id", c."flag", c."key1", c."key2", c."n"
    )
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'job_days', "flag", "key1", "key2", sum("n")
    FROM (SELECT * FROM delta UNION ALL SELECT * FROM folded) f
    GROUP BY 1, 3, 4, 5 HAVING sum("n") <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'jobs', false, "status", NULL::text, -count(*)
    FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id") AND NOT "is_quote" AND NOT "archived"
    GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    WITH delta AS (
      SELECT r."company_id", false AS "flag", "job_day_key"(r."service_date") AS "key1", r."status" AS "key2", -count(*)::int AS "n"
      FROM old_rows r
      WHERE NOT r."is_quote" AND NOT r."archived" AND r."service_date" IS NOT NULL
        AND EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
      GROUP BY 1, 2, 3, 4
    ),
    folded AS (
      DELETE FROM "list_counts" c
      WHERE c.ctid = ANY (ARRAY(
        SELECT x.ctid FROM delta d, LATERAL (
          SELECT l.ctid FROM "list_counts" l
          WHERE l."company_id" = d."company_id" AND l."entity" = 'job_days' AND l."flag" = d."flag"
            AND l."key1" = d."key1" AND (l."key2" = d."key2" OR (l."key2" IS NULL AND d."key2" IS NULL))
          FOR UPDATE SKIP LOCKED
        ) x
      ))
      RETURNING c."company_id", c."flag", c."key1", c."key2", c."n"
    )
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'job_days', "flag", "key1", "key2", sum("n")
    FROM (SELECT * FROM delta UNION ALL SELECT * FROM folded) f
    GROUP BY 1, 3, 4, 5 HAVING sum("n") <> 0;
  ELSE
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'jobs', false, "status", NULL::text, sum(sign)
    FROM (
      SELECT 1 AS sign, "company_id", "status", "is_quote", "archived" FROM new_rows
      UNION ALL SELECT -1, "company_id", "status", "is_quote", "archived" FROM old_rows
    ) changed
    WHERE NOT "is_quote" AND NOT "archived" GROUP BY 1, 3, 4, 5 HAVING sum(sign) <> 0;
    GET DIAGNOSTICS added = ROW_COUNT;
    IF EXISTS (SELECT "company_id", "status", "is_quote", "archived", "service_date" FROM new_rows
      EXCEPT ALL SELECT "company_id", "status", "is_quote", "archived", "service_date" FROM old_rows) THEN
      WITH changed AS (
        SELECT 1 AS sign, "company_id", "status", "service_date" FROM new_rows
        WHERE NOT "is_quote" AND NOT "archived" AND "service_date" IS NOT NULL
        UNION ALL
        SELECT -1, "company_id", "status", "service_date" FROM old_rows
        WHERE NOT "is_quote" AND NOT "archived" AND "service_date" IS NOT NULL
      ),
      delta AS (
        SELECT r."company_id", false AS "flag", "job_day_key"(r."service_date") AS "key1", r."status" AS "key2", sum(r.sign)::int AS "n"
        FROM changed r
        GROUP BY 1, 2, 3, 4 HAVING sum(r.sign) <> 0
      ),
      folded AS (
        DELETE FROM "list_counts" c
        WHERE c.ctid = ANY (ARRAY(
          SELECT x.ctid FROM delta d, LATERAL (
            SELECT l.ctid FROM "list_counts" l
            WHERE l."company_id" = d."company_id" AND l."entity" = 'job_days' AND l."flag" = d."flag"
              AND l."key1" = d."key1" AND (l."key2" = d."key2" OR (l."key2" IS NULL AND d."key2" IS NULL))
            FOR UPDATE SKIP LOCKED
          ) x
        ))
        RETURNING c."company_id", c."flag", c."key1", c."key2", c."n"
      )
      INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
      SELECT "company_id", 'job_days', "flag", "key1", "key2", sum("n")
      FROM (SELECT * FROM delta UNION ALL SELECT * FROM folded) f
      GROUP BY 1, 3, 4, 5 HAVING sum("n") <> 0;
    END IF;
  END IF;
  IF added > 0 AND random() < 1.0 / 32 THEN
    IF TG_OP = 'DELETE' THEN
      PERFORM "list_counts_compact"(c."id", 'jobs') FROM "companies" c
      WHERE c."id" IN (SELECT "company_id" FROM old_rows);
    ELSE
      PERFORM "list_counts_compact"(c."id", 'jobs') FROM "companies" c
      WHERE c."id" IN (SELECT "company_id" FROM new_rows);
    END IF;
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
-- Existing jobs: counted once, after the new function and under the table's lock taken above, so
-- no write falls between the two.
INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
SELECT "company_id", 'job_days', false, "job_day_key"("service_date"), "status", count(*)
FROM "jobs" WHERE NOT "is_quote" AND NOT "archived" AND "service_date" IS NOT NULL
GROUP BY 1, 3, 4, 5;

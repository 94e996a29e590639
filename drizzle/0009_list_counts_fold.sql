-- One function folds the per-tuple counter rows of the lists with thousands of tuples (the tag
-- sets of 0007, the days of 0008), instead of a copy of the same statement in every path of
-- their trigger functions (three in the jobs function, three in each of leads and customers).
-- What the counters hold and how a write folds them is unchanged (0007's comment says why):
--   list_counts_fold(list, deltas): deltas holds a statement's change per touched tuple of the
--   list (one row per (company_id, flag, key1, key2), n the change, never zero); it takes the
--   current rows of those tuples that no other transaction holds (FOR UPDATE SKIP LOCKED: it
--   never waits), deletes them by ctid and inserts one row per tuple with their sum plus its
--   change (none when that is zero), in one statement.
-- PL/pgSQL, not SQL: its statement is planned once per connection and its plan cached, as the
-- trigger functions' are (a SQL function's body is planned on every call before PostgreSQL 18).
-- The locking subquery stays LATERAL (a probe per tuple whatever plan is cached).
-- The trigger functions compute their deltas as before (same rows, same grouping) and pass them
-- as an array; an empty array (a statement touching no such tuple) returns at once.
--
-- Replacing the functions changes no counter row, so nothing is locked or backfilled: a write
-- running beside this migration counts the same under the old function and the new one.
CREATE TYPE "list_count_delta" AS ("company_id" text, "flag" boolean, "key1" text, "key2" text, "n" integer);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "list_counts_fold"(list text, deltas "list_count_delta"[]) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  IF coalesce(cardinality(deltas), 0) = 0 THEN
    RETURN;
  END IF;
  WITH delta AS (
    SELECT * FROM unnest(deltas)
  ),
  folded AS (
    DELETE FROM "list_counts" c
    WHERE c.ctid = ANY (ARRAY(
      SELECT x.ctid FROM delta d, LATERAL (
        SELECT l.ctid FROM "list_counts" l
        WHERE l."company_id" = d."company_id" AND l."entity" = list AND l."flag" = d."flag"
          AND l."key1" = d."key1" AND (l."key2" = d."key2" OR (l."key2" IS NULL AND d."key2" IS NULL))
        FOR UPDATE SKIP LOCKED
      ) x
    ))
    RETURNING c."company_id", c."flag", c."key1", c."key2", c."n"
  )
  INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
  SELECT "company_id", list, "flag", "key1", "key2", sum("n")
  FROM (SELECT * FROM delta UNION ALL SELECT * FROM folded) f
  GROUP BY 1, 3, 4, 5 HAVING sum("n") <> 0;
END $fn$;
--> statement-breakpoint
-- leads: 0007's function, the tag-set fold through list_counts_fold (flag = archived, key1 = the
-- canonical tag set, key2 = stage).
CREATE OR REPLACE FUNCTION "leads_keep_list_counts"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  added bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'leads', "archived", "stage", NULL::text, count(*)
    FROM new_rows GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    PERFORM "list_counts_fold"('lead_tags', ARRAY(
      SELECT (r."company_id", r."archived", s."tag_set", r."stage", count(*)::int)::"list_count_delta"
      FROM new_rows r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
        FROM unnest(r."tags") t WHERE t IS NOT NULL) s
      WHERE cardinality(r."tags") > 0 AND s."tag_set" IS NOT NULL
      GROUP BY r."company_id", r."archived", s."tag_set", r."stage"));
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'leads', "archived", "stage", NULL::text, -count(*)
    FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
    GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    PERFORM "list_counts_fold"('lead_tags', ARRAY(
      SELECT (r."company_id", r."archived", s."tag_set", r."stage", -count(*)::int)::"list_count_delta"
      FROM old_rows r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
        FROM unnest(r."tags") t WHERE t IS NOT NULL) s
      WHERE cardinality(r."tags") > 0 AND s."tag_set" IS NOT NULL
        AND EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
      GROUP BY r."company_id", r."archived", s."tag_set", r."stage"));
  ELSE
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'leads', "archived", "stage", NULL::text, sum(sign)
    FROM (
      SELECT 1 AS sign, "company_id", "archived", "stage" FROM new_rows
      UNION ALL SELECT -1, "company_id", "archived", "stage" FROM old_rows
    ) changed
    GROUP BY 1, 3, 4, 5 HAVING sum(sign) <> 0;
    GET DIAGNOSTICS added = ROW_COUNT;
    -- Most updates change none of the columns counted here: skip the statement then.
    IF EXISTS (SELECT "company_id", "archived", "stage", "tags" FROM new_rows
      EXCEPT ALL SELECT "company_id", "archived", "stage", "tags" FROM old_rows) THEN
      PERFORM "list_counts_fold"('lead_tags', ARRAY(
        SELECT (r."company_id", r."archived", s."tag_set", r."stage", sum(r.sign)::int)::"list_count_delta"
        FROM (
          SELECT 1 AS sign, "company_id", "archived", "stage", "tags" FROM new_rows WHERE cardinality("tags") > 0
          UNION ALL
          SELECT -1, "company_id", "archived", "stage", "tags" FROM old_rows WHERE cardinality("tags") > 0
        ) r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
        FROM unnest(r."tags") t WHERE t IS NOT NULL) s
        WHERE s."tag_set" IS NOT NULL
        GROUP BY r."company_id", r."archived", s."tag_set", r."stage" HAVING sum(r.sign) <> 0));
    END IF;
  END IF;
  IF added > 0 AND random() < 1.0 / 32 THEN
    IF TG_OP = 'DELETE' THEN
      PERFORM "list_counts_compact"(c."id", 'leads') FROM "companies" c
      WHERE c."id" IN (SELECT "company_id" FROM old_rows);
    ELSE
      PERFORM "list_counts_compact"(c."id", 'leads') FROM "companies" c
      WHERE c."id" IN (SELECT "company_id" FROM new_rows);
    END IF;
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
-- customers: the same (key2 = status).
CREATE OR REPLACE FUNCTION "customers_keep_list_counts"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  added bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'customers', "archived", "status", NULL::text, count(*)
    FROM new_rows GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    PERFORM "list_counts_fold"('customer_tags', ARRAY(
      SELECT (r."company_id", r."archived", s."tag_set", r."status", count(*)::int)::"list_count_delta"
      FROM new_rows r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
        FROM unnest(r."tags") t WHERE t IS NOT NULL) s
      WHERE cardinality(r."tags") > 0 AND s."tag_set" IS NOT NULL
      GROUP BY r."company_id", r."archived", s."tag_set", r."status"));
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'customers', "archived", "status", NULL::text, -count(*)
    FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
    GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    PERFORM "list_counts_fold"('customer_tags', ARRAY(
      SELECT (r."company_id", r."archived", s."tag_set", r."status", -count(*)::int)::"list_count_delta"
      FROM old_rows r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
        FROM unnest(r."tags") t WHERE t IS NOT NULL) s
      WHERE cardinality(r."tags") > 0 AND s."tag_set" IS NOT NULL
        AND EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
      GROUP BY r."company_id", r."archived", s."tag_set", r."status"));
  ELSE
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'customers', "archived", "status", NULL::text, sum(sign)
    FROM (
      SELECT 1 AS sign, "company_id", "archived", "status" FROM new_rows
      UNION ALL SELECT -1, "company_id", "archived", "status" FROM old_rows
    ) changed
    GROUP BY 1, 3, 4, 5 HAVING sum(sign) <> 0;
    GET DIAGNOSTICS added = ROW_COUNT;
    -- Most updates change none of the columns counted here: skip the statement then.
    IF EXISTS (SELECT "company_id", "archived", "status", "tags" FROM new_rows
      EXCEPT ALL SELECT "company_id", "archived", "status", "tags" FROM old_rows) THEN
      PERFORM "list_counts_fold"('customer_tags', ARRAY(
        SELECT (r."company_id", r."archived", s."tag_set", r."status", sum(r.sign)::int)::"list_count_delta"
        FROM (
          SELECT 1 AS sign, "company_id", "archived", "status", "tags" FROM new_rows WHERE cardinality("tags") > 0
          UNION ALL
          SELECT -1, "company_id", "archived", "status", "tags" FROM old_rows WHERE cardinality("tags") > 0
        ) r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
        FROM unnest(r."tags") t WHERE t IS NOT NULL) s
        WHERE s."tag_set" IS NOT NULL
        GROUP BY r."company_id", r."archived", s."tag_set", r."status" HAVING sum(r.sign) <> 0));
    END IF;
  END IF;
  IF added > 0 AND random() < 1.0 / 32 THEN
    IF TG_OP = 'DELETE' THEN
      PERFORM "list_counts_compact"(c."id", 'customers') FROM "companies" c
      WHERE c."id" IN (SELECT "company_id" FROM old_rows);
    ELSE
      PERFORM "list_counts_compact"(c."id", 'customers') FROM "companies" c
      WHERE c."id" IN (SELECT "company_id" FROM new_rows);
    END IF;
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
-- jobs: 0008's function, the day fold through list_counts_fold (flag = false, key1 = the day,
-- key2 = the status).
CREATE OR REPLACE FUNCTION "jobs_keep_list_counts"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  added bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'jobs', false, "status", NULL::text, count(*)
    FROM new_rows WHERE NOT "is_quote" AND NOT "archived" GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    PERFORM "list_counts_fold"('job_days', ARRAY(
      SELECT ("company_id", false, "job_day_key"("service_date"), "status", count(*)::int)::"list_count_delta"
      FROM new_rows
      WHERE NOT "is_quote" AND NOT "archived" AND "service_date" IS NOT NULL
      GROUP BY "company_id", "job_day_key"("service_date"), "status"));
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'jobs', false, "status", NULL::text, -count(*)
    FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id") AND NOT "is_quote" AND NOT "archived"
    GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    PERFORM "list_counts_fold"('job_days', ARRAY(
      SELECT (r."company_id", false, "job_day_key"(r."service_date"), r."status", -count(*)::int)::"list_count_delta"
      FROM old_rows r
      WHERE NOT r."is_quote" AND NOT r."archived" AND r."service_date" IS NOT NULL
        AND EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
      GROUP BY r."company_id", "job_day_key"(r."service_date"), r."status"));
  ELSE
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'jobs', false, "status", NULL::text, sum(sign)
    FROM (
      SELECT 1 AS sign, "company_id", "status", "is_quote", "archived" FROM new_rows
      UNION ALL SELECT -1, "company_id", "status", "is_quote", "archived" FROM old_rows
    ) changed
    WHERE NOT "is_quote" AND NOT "archived" GROUP BY 1, 3, 4, 5 HAVING sum(sign) <> 0;
    GET DIAGNOSTICS added = ROW_COUNT;
    -- Most updates change none of the columns counted here (a job's money, kept on the row by the
    -- line item and payment triggers): skip the statement then.
    IF EXISTS (SELECT "company_id", "status", "is_quote", "archived", "service_date" FROM new_rows
      EXCEPT ALL SELECT "company_id", "status", "is_quote", "archived", "service_date" FROM old_rows) THEN
      PERFORM "list_counts_fold"('job_days', ARRAY(
        SELECT (r."company_id", false, "job_day_key"(r."service_date"), r."status", sum(r.sign)::int)::"list_count_delta"
        FROM (
          SELECT 1 AS sign, "company_id", "status", "service_date" FROM new_rows
          WHERE NOT "is_quote" AND NOT "archived" AND "service_date" IS NOT NULL
          UNION ALL
          SELECT -1, "company_id", "status", "service_date" FROM old_rows
          WHERE NOT "is_quote" AND NOT "archived" AND "service_date" IS NOT NULL
        ) r
        GROUP BY r."company_id", "job_day_key"(r."service_date"), r."status" HAVING sum(r.sign) <> 0));
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

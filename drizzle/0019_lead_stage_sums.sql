-- Exact sums of the leads' projected_value beside their counts, for the leads board's per-stage
-- totals (GET /leads/stage-totals, lib/domain/leads/stage-totals.ts): the 'leads' and 'lead_tags'
-- rows of list_counts now carry `amount` (0018), the change of the summed projected_value (a
-- lead without one adds 0) with their change n, kept by the same statements: a board filtered
-- by archived, stage and tags sums a few counter rows per stage instead of reading every lead.
-- The other lists leave amount null.
--
-- An update that changes a lead's value but neither its archived, stage nor tags now writes a
-- delta row of n = 0 (before, such a row was not written), so a tuple's rows are kept (folded,
-- compacted) while their n or their amount sums to something: list_counts_compact keeps such a
-- tuple too. The tag-set fold goes through list_counts_fold_sums, 0009's list_counts_fold with
-- the amount (list_count_sum_delta); list_counts_fold itself (customer_tags, job_days) and its
-- type are unchanged.
--
-- The leads table is locked against writes first (until the migration commits), as in 0007:
-- replacing a trigger function takes no lock on its table, and a write committed between the
-- new function and the backfill below would otherwise be summed by neither.
LOCK TABLE "leads" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TYPE "list_count_sum_delta" AS ("company_id" text, "flag" boolean, "key1" text, "key2" text, "n" integer, "amount" numeric);
--> statement-breakpoint
-- 0006's compaction, carrying the amount: a tuple is kept while its n or its amount sums to
-- something (sum(amount) is null for the lists without one, so for those nothing changes).
CREATE OR REPLACE FUNCTION "list_counts_compact"(company text, list text) RETURNS void LANGUAGE sql AS $fn$
  WITH folded AS (
    DELETE FROM "list_counts" c
    WHERE c."company_id" = company AND c."id" IN (
      SELECT "id" FROM "list_counts" WHERE "company_id" = company AND "entity" = list
      FOR UPDATE SKIP LOCKED
    )
    RETURNING c."flag", c."key1", c."key2", c."n", c."amount"
  )
  INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n", "amount")
  SELECT company, list, "flag", "key1", "key2", sum("n"), sum("amount") FROM folded
  GROUP BY "flag", "key1", "key2" HAVING sum("n") <> 0 OR sum("amount") <> 0
$fn$;
--> statement-breakpoint
-- list_counts_fold (0009) with the amount: same locking, same single statement.
CREATE OR REPLACE FUNCTION "list_counts_fold_sums"(list text, deltas "list_count_sum_delta"[]) RETURNS void
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
    RETURNING c."company_id", c."flag", c."key1", c."key2", c."n", c."amount"
  )
  INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n", "amount")
  SELECT "company_id", list, "flag", "key1", "key2", sum("n"), sum("amount")
  FROM (SELECT * FROM delta UNION ALL SELECT * FROM folded) f
  GROUP BY 1, 3, 4, 5 HAVING sum("n") <> 0 OR sum("amount") <> 0;
END $fn$;
--> statement-breakpoint
-- leads: 0009's function with the amount (coalesce(projected_value, 0), signed as n is) on the
-- 'leads' rows and through list_counts_fold_sums on the 'lead_tags' rows. An update writes the
-- tuples whose n or amount changed, and folds the tag sets when a lead's value changed too.
CREATE OR REPLACE FUNCTION "leads_keep_list_counts"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  added bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n", "amount")
    SELECT "company_id", 'leads', "archived", "stage", NULL::text, count(*), coalesce(sum("projected_value"), 0)
    FROM new_rows GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    PERFORM "list_counts_fold_sums"('lead_tags', ARRAY(
      SELECT (r."company_id", r."archived", s."tag_set", r."stage", count(*)::int,
        coalesce(sum(r."projected_value"), 0))::"list_count_sum_delta"
      FROM new_rows r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
        FROM unnest(r."tags") t WHERE t IS NOT NULL) s
      WHERE cardinality(r."tags") > 0 AND s."tag_set" IS NOT NULL
      GROUP BY r."company_id", r."archived", s."tag_set", r."stage"));
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n", "amount")
    SELECT "company_id", 'leads', "archived", "stage", NULL::text, -count(*), -coalesce(sum("projected_value"), 0)
    FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
    GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    PERFORM "list_counts_fold_sums"('lead_tags', ARRAY(
      SELECT (r."company_id", r."archived", s."tag_set", r."stage", -count(*)::int,
        -coalesce(sum(r."projected_value"), 0))::"list_count_sum_delta"
      FROM old_rows r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
        FROM unnest(r."tags") t WHERE t IS NOT NULL) s
      WHERE cardinality(r."tags") > 0 AND s."tag_set" IS NOT NULL
        AND EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
      GROUP BY r."company_id", r."archived", s."tag_set", r."stage"));
  ELSE
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n", "amount")
    SELECT "company_id", 'leads', "archived", "stage", NULL::text, sum(sign), sum(sign * "amount")
    FROM (
      SELECT 1 AS sign, "company_id", "archived", "stage", coalesce("projected_value", 0) AS "amount" FROM new_rows
      UNION ALL SELECT -1, "company_id", "archived", "stage", coalesce("projected_value", 0) FROM old_rows
    ) changed
    GROUP BY 1, 3, 4, 5 HAVING sum(sign) <> 0 OR sum(sign * "amount") <> 0;
    GET DIAGNOSTICS added = ROW_COUNT;
    -- Most updates change none of the columns kept here: skip the statement then.
    IF EXISTS (SELECT "company_id", "archived", "stage", "tags", "projected_value" FROM new_rows
      EXCEPT ALL SELECT "company_id", "archived", "stage", "tags", "projected_value" FROM old_rows) THEN
      PERFORM "list_counts_fold_sums"('lead_tags', ARRAY(
        SELECT (r."company_id", r."archived", s."tag_set", r."stage", sum(r.sign)::int,
          sum(r.sign * r."amount"))::"list_count_sum_delta"
        FROM (
          SELECT 1 AS sign, "company_id", "archived", "stage", "tags", coalesce("projected_value", 0) AS "amount"
          FROM new_rows WHERE cardinality("tags") > 0
          UNION ALL
          SELECT -1, "company_id", "archived", "stage", "tags", coalesce("projected_value", 0)
          FROM old_rows WHERE cardinality("tags") > 0
        ) r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
        FROM unnest(r."tags") t WHERE t IS NOT NULL) s
        WHERE s."tag_set" IS NOT NULL
        GROUP BY r."company_id", r."archived", s."tag_set", r."stage"
        HAVING sum(r.sign) <> 0 OR sum(r.sign * r."amount") <> 0));
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
-- Existing data: the leads' counters are counted again with their sums, one row per tuple,
-- after the new function and under the lock taken above, so no write falls between the two.
DELETE FROM "list_counts" WHERE "entity" IN ('leads', 'lead_tags');
--> statement-breakpoint
INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n", "amount")
SELECT "company_id", 'leads', "archived", "stage", NULL::text, count(*), coalesce(sum("projected_value"), 0)
FROM "leads" GROUP BY 1, 3, 4, 5;
--> statement-breakpoint
INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n", "amount")
SELECT r."company_id", 'lead_tags', r."archived", s."tag_set", r."stage", count(*), coalesce(sum(r."projected_value"), 0)
FROM "leads" r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
  FROM unnest(r."tags") t WHERE t IS NOT NULL) s
WHERE cardinality(r."tags") > 0 AND s."tag_set" IS NOT NULL
GROUP BY 1, 3, 4, 5;

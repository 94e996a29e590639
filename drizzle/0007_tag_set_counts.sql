-- Exact totals of the tag-filtered lead and customer lists (GET /leads?tags=…, GET
-- /customers?tags=…), kept in list_counts as 0006 keeps the others: counter rows per (archived,
-- stage or status, canonical tag set) of the records that have at least one tag, entities
-- 'lead_tags' and 'customer_tags' (the table in lib/db/schema/list-counts.ts). A record is
-- counted once under its whole tag set, so "has any of the tags T" is exactly sum(n) over the
-- rows whose set overlaps T (lib/domain/list-counts.ts, listTagCountTotal).
--
-- The leads and customers tables are locked against writes first (until the migration commits):
-- replacing a trigger function takes no lock on its table, and a write committed between the new
-- functions and the backfill below would otherwise be counted by neither. Locked before
-- list_counts is altered, in the order writers take them (table, then list_counts).
LOCK TABLE "leads", "customers" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
ALTER TABLE "list_counts" DROP CONSTRAINT "list_counts_entity_check";
--> statement-breakpoint
ALTER TABLE "list_counts" ADD CONSTRAINT "list_counts_entity_check" CHECK ("list_counts"."entity" in ('leads', 'customers', 'service_plans', 'jobs', 'pins', 'lead_tags', 'customer_tags'));
--> statement-breakpoint
-- TRUNCATE removes every tenant's rows of a table: its counters go too (arguments: the lists).
-- Same function as 0006's for one argument; leads and customers now pass two.
CREATE OR REPLACE FUNCTION "list_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM "list_counts" WHERE "entity" = ANY (TG_ARGV);
  RETURN NULL;
END $fn$;
--> statement-breakpoint
DROP TRIGGER "leads_list_counts_truncate" ON "leads";
--> statement-breakpoint
CREATE TRIGGER "leads_list_counts_truncate" AFTER TRUNCATE ON "leads"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_clear"('leads', 'lead_tags');
--> statement-breakpoint
DROP TRIGGER "customers_list_counts_truncate" ON "customers";
--> statement-breakpoint
CREATE TRIGGER "customers_list_counts_truncate" AFTER TRUNCATE ON "customers"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_clear"('customers', 'customer_tags');
--> statement-breakpoint
-- The counters of leads and customers: 0006's functions, unchanged for the 'leads' and
-- 'customers' rows (a delta row per touched tuple, all of the tenant's rows folded one statement
-- in 32), plus the tag-set rows. Those are folded by every statement, scoped to the tuples it
-- touched: a tenant has thousands of tag sets (the bench tenant ~4,900 (archived, stage, set)
-- tuples), so folding all of them now and then would make that write slow, and folding only the
-- touched tuples now and then would leave up to ~32 delta rows on each busy tuple for every
-- reader to sum. So each statement takes its tuples' current rows that no other transaction holds
-- (FOR UPDATE SKIP LOCKED: it never waits), deletes them and inserts one row per tuple with their
-- sum plus its change (none when that is zero). A tuple keeps one row plus one per concurrent
-- writer; as in 0006 each row is folded by one transaction only (READ COMMITTED: a row deleted
-- since the statement's snapshot is skipped when locked) and the sum is the same in every
-- snapshot. The cost is an index probe per touched tuple, whatever the number of sets: the
-- locking subquery is LATERAL (never flattened into a join, so the cached plan stays a probe per
-- tuple whatever size of statement it was planned for), and the rows are deleted by ctid (a TID
-- scan; they are locked, and list_counts rows are never updated, so the ctid cannot change).
-- flag = archived, key1 = the canonical tag set, key2 = stage / status: the set, never null,
-- takes key1 so that the probe is an index equality on (company_id, entity, flag, key1) (a null
-- stage in key1 could not be one; key2 is checked among the set's few rows).
-- Rows that keep their tuple cancel out; rows of a tenant being deleted are not counted.
--
-- The canonical tag set of a record: its distinct non-null tags sorted bytewise (COLLATE "C",
-- the same on every server), as the text of that text[] ('{a,"b c","x,y"}'), which key1::text[]
-- reads back exactly whatever the tags hold (quotes, commas, braces, backslashes, "NULL").
-- NULL when the record has no tag: such records are not counted here (they match no tag filter).
-- The text is compared in the default collation (COLLATE "default"), the list_counts index's.
-- Written inline in the statements below (a LATERAL subquery): a SQL function with a FROM is
-- not inlined, and calling one per row costs more than the expression.
-- leads: stage.
CREATE OR REPLACE FUNCTION "leads_keep_list_counts"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  added bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'leads', "archived", "stage", NULL::text, count(*)
    FROM new_rows GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    WITH delta AS (
      SELECT r."company_id", r."archived" AS "flag", s."tag_set" AS "key1", r."stage" AS "key2", count(*)::int AS "n"
      FROM new_rows r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
        FROM unnest(r."tags") t WHERE t IS NOT NULL) s
      WHERE cardinality(r."tags") > 0 AND s."tag_set" IS NOT NULL
      GROUP BY 1, 2, 3, 4
    ),
    folded AS (
      DELETE FROM "list_counts" c
      WHERE c.ctid = ANY (ARRAY(
        SELECT x.ctid FROM delta d, LATERAL (
          SELECT l.ctid FROM "list_counts" l
          WHERE l."company_id" = d."company_id" AND l."entity" = 'lead_tags' AND l."flag" = d."flag"
            AND l."key1" = d."key1" AND (l."key2" = d."key2" OR (l."key2" IS NULL AND d."key2" IS NULL))
          FOR UPDATE SKIP LOCKED
        ) x
      ))
      RETURNING c."company_id", c."flag", c."key1", c."key2", c."n"
    )
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'lead_tags', "flag", "key1", "key2", sum("n")
    FROM (SELECT * FROM delta UNION ALL SELECT * FROM folded) f
    GROUP BY 1, 3, 4, 5 HAVING sum("n") <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'leads', "archived", "stage", NULL::text, -count(*)
    FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
    GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    WITH delta AS (
      SELECT r."company_id", r."archived" AS "flag", s."tag_set" AS "key1", r."stage" AS "key2", -count(*)::int AS "n"
      FROM old_rows r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
        FROM unnest(r."tags") t WHERE t IS NOT NULL) s
      WHERE cardinality(r."tags") > 0 AND s."tag_set" IS NOT NULL
        AND EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
      GROUP BY 1, 2, 3, 4
    ),
    folded AS (
      DELETE FROM "list_counts" c
      WHERE c.ctid = ANY (ARRAY(
        SELECT x.ctid FROM delta d, LATERAL (
          SELECT l.ctid FROM "list_counts" l
          WHERE l."company_id" = d."company_id" AND l."entity" = 'lead_tags' AND l."flag" = d."flag"
            AND l."key1" = d."key1" AND (l."key2" = d."key2" OR (l."key2" IS NULL AND d."key2" IS NULL))
          FOR UPDATE SKIP LOCKED
        ) x
      ))
      RETURNING c."company_id", c."flag", c."key1", c."key2", c."n"
    )
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'lead_tags', "flag", "key1", "key2", sum("n")
    FROM (SELECT * FROM delta UNION ALL SELECT * FROM folded) f
    GROUP BY 1, 3, 4, 5 HAVING sum("n") <> 0;
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
      WITH changed AS (
        SELECT 1 AS sign, "company_id", "archived", "stage", "tags" FROM new_rows WHERE cardinality("tags") > 0
        UNION ALL
        SELECT -1, "company_id", "archived", "stage", "tags" FROM old_rows WHERE cardinality("tags") > 0
      ),
      delta AS (
        SELECT r."company_id", r."archived" AS "flag", s."tag_set" AS "key1", r."stage" AS "key2", sum(r.sign)::int AS "n"
        FROM changed r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
          FROM unnest(r."tags") t WHERE t IS NOT NULL) s
        WHERE s."tag_set" IS NOT NULL
        GROUP BY 1, 2, 3, 4 HAVING sum(r.sign) <> 0
      ),
      folded AS (
        DELETE FROM "list_counts" c
        WHERE c.ctid = ANY (ARRAY(
          SELECT x.ctid FROM delta d, LATERAL (
            SELECT l.ctid FROM "list_counts" l
            WHERE l."company_id" = d."company_id" AND l."entity" = 'lead_tags' AND l."flag" = d."flag"
              AND l."key1" = d."key1" AND (l."key2" = d."key2" OR (l."key2" IS NULL AND d."key2" IS NULL))
            FOR UPDATE SKIP LOCKED
          ) x
        ))
        RETURNING c."company_id", c."flag", c."key1", c."key2", c."n"
      )
      INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
      SELECT "company_id", 'lead_tags', "flag", "key1", "key2", sum("n")
      FROM (SELECT * FROM delta UNION ALL SELECT * FROM folded) f
      GROUP BY 1, 3, 4, 5 HAVING sum("n") <> 0;
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
-- customers: status.
CREATE OR REPLACE FUNCTION "customers_keep_list_counts"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  added bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'customers', "archived", "status", NULL::text, count(*)
    FROM new_rows GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    WITH delta AS (
      SELECT r."company_id", r."archived" AS "flag", s."tag_set" AS "key1", r."status" AS "key2", count(*)::int AS "n"
      FROM new_rows r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
        FROM unnest(r."tags") t WHERE t IS NOT NULL) s
      WHERE cardinality(r."tags") > 0 AND s."tag_set" IS NOT NULL
      GROUP BY 1, 2, 3, 4
    ),
    folded AS (
      DELETE FROM "list_counts" c
      WHERE c.ctid = ANY (ARRAY(
        SELECT x.ctid FROM delta d, LATERAL (
          SELECT l.ctid FROM "list_counts" l
          WHERE l."company_id" = d."company_id" AND l."entity" = 'customer_tags' AND l."flag" = d."flag"
            AND l."key1" = d."key1" AND (l."key2" = d."key2" OR (l."key2" IS NULL AND d."key2" IS NULL))
          FOR UPDATE SKIP LOCKED
        ) x
      ))
      RETURNING c."company_id", c."flag", c."key1", c."key2", c."n"
    )
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'customer_tags', "flag", "key1", "key2", sum("n")
    FROM (SELECT * FROM delta UNION ALL SELECT * FROM folded) f
    GROUP BY 1, 3, 4, 5 HAVING sum("n") <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'customers', "archived", "status", NULL::text, -count(*)
    FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
    GROUP BY 1, 3, 4, 5;
    GET DIAGNOSTICS added = ROW_COUNT;
    WITH delta AS (
      SELECT r."company_id", r."archived" AS "flag", s."tag_set" AS "key1", r."status" AS "key2", -count(*)::int AS "n"
      FROM old_rows r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
        FROM unnest(r."tags") t WHERE t IS NOT NULL) s
      WHERE cardinality(r."tags") > 0 AND s."tag_set" IS NOT NULL
        AND EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
      GROUP BY 1, 2, 3, 4
    ),
    folded AS (
      DELETE FROM "list_counts" c
      WHERE c.ctid = ANY (ARRAY(
        SELECT x.ctid FROM delta d, LATERAL (
          SELECT l.ctid FROM "list_counts" l
          WHERE l."company_id" = d."company_id" AND l."entity" = 'customer_tags' AND l."flag" = d."flag"
            AND l."key1" = d."key1" AND (l."key2" = d."key2" OR (l."key2" IS NULL AND d."key2" IS NULL))
          FOR UPDATE SKIP LOCKED
        ) x
      ))
      RETURNING c."company_id", c."flag", c."key1", c."key2", c."n"
    )
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'customer_tags', "flag", "key1", "key2", sum("n")
    FROM (SELECT * FROM delta UNION ALL SELECT * FROM folded) f
    GROUP BY 1, 3, 4, 5 HAVING sum("n") <> 0;
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
      WITH changed AS (
        SELECT 1 AS sign, "company_id", "archived", "status", "tags" FROM new_rows WHERE cardinality("tags") > 0
        UNION ALL
        SELECT -1, "company_id", "archived", "status", "tags" FROM old_rows WHERE cardinality("tags") > 0
      ),
      delta AS (
        SELECT r."company_id", r."archived" AS "flag", s."tag_set" AS "key1", r."status" AS "key2", sum(r.sign)::int AS "n"
        FROM changed r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
          FROM unnest(r."tags") t WHERE t IS NOT NULL) s
        WHERE s."tag_set" IS NOT NULL
        GROUP BY 1, 2, 3, 4 HAVING sum(r.sign) <> 0
      ),
      folded AS (
        DELETE FROM "list_counts" c
        WHERE c.ctid = ANY (ARRAY(
          SELECT x.ctid FROM delta d, LATERAL (
            SELECT l.ctid FROM "list_counts" l
            WHERE l."company_id" = d."company_id" AND l."entity" = 'customer_tags' AND l."flag" = d."flag"
              AND l."key1" = d."key1" AND (l."key2" = d."key2" OR (l."key2" IS NULL AND d."key2" IS NULL))
            FOR UPDATE SKIP LOCKED
          ) x
        ))
        RETURNING c."company_id", c."flag", c."key1", c."key2", c."n"
      )
      INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
      SELECT "company_id", 'customer_tags', "flag", "key1", "key2", sum("n")
      FROM (SELECT * FROM delta UNION ALL SELECT * FROM folded) f
      GROUP BY 1, 3, 4, 5 HAVING sum("n") <> 0;
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
-- Existing data: counted once, after the new functions and under the tables' locks taken above,
-- so no write falls between the two.
INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
SELECT r."company_id", 'lead_tags', r."archived", s."tag_set", r."stage", count(*)
FROM "leads" r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
  FROM unnest(r."tags") t WHERE t IS NOT NULL) s
WHERE cardinality(r."tags") > 0 AND s."tag_set" IS NOT NULL
GROUP BY 1, 3, 4, 5;
--> statement-breakpoint
INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
SELECT r."company_id", 'customer_tags', r."archived", s."tag_set", r."status", count(*)
FROM "customers" r, LATERAL (SELECT array_agg(DISTINCT t COLLATE "C" ORDER BY t COLLATE "C")::text COLLATE "default" AS "tag_set"
  FROM unnest(r."tags") t WHERE t IS NOT NULL) s
WHERE cardinality(r."tags") > 0 AND s."tag_set" IS NOT NULL
GROUP BY 1, 3, 4, 5;

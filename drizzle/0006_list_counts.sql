CREATE TABLE "list_counts" (
	"company_id" text NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "list_counts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entity" text NOT NULL,
	"flag" boolean NOT NULL,
	"key1" text,
	"key2" text,
	"n" integer NOT NULL,
	CONSTRAINT "list_counts_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "list_counts_entity_check" CHECK ("list_counts"."entity" in ('leads', 'customers', 'service_plans', 'jobs', 'pins'))
);
--> statement-breakpoint
ALTER TABLE "list_counts" ADD CONSTRAINT "list_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "list_counts_entity_idx" ON "list_counts" USING btree ("company_id","entity","flag","key1","key2");--> statement-breakpoint
-- list_counts holds the exact row counts of the lists by their filter columns (the table in
-- lib/db/schema/list-counts.ts says which), kept by the statement-level triggers below: each
-- write statement inserts its grouped changes as delta rows (one per touched dimension tuple, n
-- = rows added minus rows removed), so concurrent writers of one tenant never update a shared
-- row. A list reads sum(n) over its tenant's matching rows (lib/domain/list-counts.ts).
--
-- Compaction folds a tenant's rows of one list into one row per tuple (zero tuples dropped). It
-- only takes rows no other transaction holds (SKIP LOCKED), so it never waits, and under READ
-- COMMITTED each row is folded by one transaction only: a row another compaction deleted after
-- this statement's snapshot is skipped when locked. Deleted and re-inserted in one transaction,
-- the sum is the same in every snapshot.
CREATE OR REPLACE FUNCTION "list_counts_compact"(company text, list text) RETURNS void LANGUAGE sql AS $fn$
  WITH folded AS (
    DELETE FROM "list_counts" c
    WHERE c."company_id" = company AND c."id" IN (
      SELECT "id" FROM "list_counts" WHERE "company_id" = company AND "entity" = list
      FOR UPDATE SKIP LOCKED
    )
    RETURNING c."flag", c."key1", c."key2", c."n"
  )
  INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
  SELECT company, list, "flag", "key1", "key2", sum("n") FROM folded
  GROUP BY "flag", "key1", "key2" HAVING sum("n") <> 0
$fn$;
--> statement-breakpoint
-- TRUNCATE removes every tenant's rows of a table: its counters go too (argument: the list).
CREATE OR REPLACE FUNCTION "list_counts_clear"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM "list_counts" WHERE "entity" = TG_ARGV[0];
  RETURN NULL;
END $fn$;
--> statement-breakpoint
-- The counters of one list, one function per counted table (static SQL: its plans are cached per
-- connection, where a dynamic statement would be planned on every write). A statement's rows
-- added count +1, its rows removed -1 (an UPDATE both: a row moving between tuples; rows that
-- keep their tuple cancel out and add nothing), grouped by tenant and tuple. Rows of a tenant
-- being deleted are not counted (companies cascade: its counters go with it). When a statement
-- added counter rows, one time in 32 it then compacts its tenants' rows of the list, which keeps
-- the rows a reader sums to the tuples plus a few dozen deltas.
-- leads: flag = archived, key1 = stage.
CREATE OR REPLACE FUNCTION "leads_keep_list_counts"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  added bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'leads', "archived", "stage", NULL::text, count(*)
    FROM new_rows GROUP BY 1, 3, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'leads', "archived", "stage", NULL::text, -count(*)
    FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
    GROUP BY 1, 3, 4, 5;
  ELSE
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'leads', "archived", "stage", NULL::text, sum(sign)
    FROM (
      SELECT 1 AS sign, "company_id", "archived", "stage" FROM new_rows
      UNION ALL SELECT -1, "company_id", "archived", "stage" FROM old_rows
    ) changed
    GROUP BY 1, 3, 4, 5 HAVING sum(sign) <> 0;
  END IF;
  GET DIAGNOSTICS added = ROW_COUNT;
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
-- customers: flag = archived, key1 = status.
CREATE OR REPLACE FUNCTION "customers_keep_list_counts"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  added bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'customers', "archived", "status", NULL::text, count(*)
    FROM new_rows GROUP BY 1, 3, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'customers', "archived", "status", NULL::text, -count(*)
    FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
    GROUP BY 1, 3, 4, 5;
  ELSE
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'customers', "archived", "status", NULL::text, sum(sign)
    FROM (
      SELECT 1 AS sign, "company_id", "archived", "status" FROM new_rows
      UNION ALL SELECT -1, "company_id", "archived", "status" FROM old_rows
    ) changed
    GROUP BY 1, 3, 4, 5 HAVING sum(sign) <> 0;
  END IF;
  GET DIAGNOSTICS added = ROW_COUNT;
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
-- service_plans: flag = active, key1 = frequency, key2 = service_type.
CREATE OR REPLACE FUNCTION "service_plans_keep_list_counts"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  added bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'service_plans', "active", "frequency", "service_type", count(*)
    FROM new_rows GROUP BY 1, 3, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'service_plans', "active", "frequency", "service_type", -count(*)
    FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
    GROUP BY 1, 3, 4, 5;
  ELSE
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'service_plans', "active", "frequency", "service_type", sum(sign)
    FROM (
      SELECT 1 AS sign, "company_id", "active", "frequency", "service_type" FROM new_rows
      UNION ALL SELECT -1, "company_id", "active", "frequency", "service_type" FROM old_rows
    ) changed
    GROUP BY 1, 3, 4, 5 HAVING sum(sign) <> 0;
  END IF;
  GET DIAGNOSTICS added = ROW_COUNT;
  IF added > 0 AND random() < 1.0 / 32 THEN
    IF TG_OP = 'DELETE' THEN
      PERFORM "list_counts_compact"(c."id", 'service_plans') FROM "companies" c
      WHERE c."id" IN (SELECT "company_id" FROM old_rows);
    ELSE
      PERFORM "list_counts_compact"(c."id", 'service_plans') FROM "companies" c
      WHERE c."id" IN (SELECT "company_id" FROM new_rows);
    END IF;
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
-- jobs: listable jobs only (never quotes nor archived, as the job list), key1 = status.
CREATE OR REPLACE FUNCTION "jobs_keep_list_counts"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  added bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'jobs', false, "status", NULL::text, count(*)
    FROM new_rows WHERE NOT "is_quote" AND NOT "archived" GROUP BY 1, 3, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'jobs', false, "status", NULL::text, -count(*)
    FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id") AND NOT "is_quote" AND NOT "archived"
    GROUP BY 1, 3, 4, 5;
  ELSE
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'jobs', false, "status", NULL::text, sum(sign)
    FROM (
      SELECT 1 AS sign, "company_id", "status", "is_quote", "archived" FROM new_rows
      UNION ALL SELECT -1, "company_id", "status", "is_quote", "archived" FROM old_rows
    ) changed
    WHERE NOT "is_quote" AND NOT "archived" GROUP BY 1, 3, 4, 5 HAVING sum(sign) <> 0;
  END IF;
  GET DIAGNOSTICS added = ROW_COUNT;
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
-- pins: key1 = pin_type_id.
CREATE OR REPLACE FUNCTION "pins_keep_list_counts"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  added bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'pins', false, "pin_type_id", NULL::text, count(*)
    FROM new_rows GROUP BY 1, 3, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'pins', false, "pin_type_id", NULL::text, -count(*)
    FROM old_rows r
    WHERE EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id")
    GROUP BY 1, 3, 4, 5;
  ELSE
    INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
    SELECT "company_id", 'pins', false, "pin_type_id", NULL::text, sum(sign)
    FROM (
      SELECT 1 AS sign, "company_id", "pin_type_id" FROM new_rows
      UNION ALL SELECT -1, "company_id", "pin_type_id" FROM old_rows
    ) changed
    GROUP BY 1, 3, 4, 5 HAVING sum(sign) <> 0;
  END IF;
  GET DIAGNOSTICS added = ROW_COUNT;
  IF added > 0 AND random() < 1.0 / 32 THEN
    IF TG_OP = 'DELETE' THEN
      PERFORM "list_counts_compact"(c."id", 'pins') FROM "companies" c
      WHERE c."id" IN (SELECT "company_id" FROM old_rows);
    ELSE
      PERFORM "list_counts_compact"(c."id", 'pins') FROM "companies" c
      WHERE c."id" IN (SELECT "company_id" FROM new_rows);
    END IF;
  END IF;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE TRIGGER "leads_list_counts_insert" AFTER INSERT ON "leads" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "leads_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "leads_list_counts_update" AFTER UPDATE ON "leads" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "leads_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "leads_list_counts_delete" AFTER DELETE ON "leads" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "leads_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "leads_list_counts_truncate" AFTER TRUNCATE ON "leads"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_clear"('leads');
--> statement-breakpoint
CREATE TRIGGER "customers_list_counts_insert" AFTER INSERT ON "customers" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "customers_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "customers_list_counts_update" AFTER UPDATE ON "customers" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "customers_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "customers_list_counts_delete" AFTER DELETE ON "customers" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "customers_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "customers_list_counts_truncate" AFTER TRUNCATE ON "customers"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_clear"('customers');
--> statement-breakpoint
CREATE TRIGGER "service_plans_list_counts_insert" AFTER INSERT ON "service_plans" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "service_plans_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "service_plans_list_counts_update" AFTER UPDATE ON "service_plans" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "service_plans_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "service_plans_list_counts_delete" AFTER DELETE ON "service_plans" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "service_plans_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "service_plans_list_counts_truncate" AFTER TRUNCATE ON "service_plans"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_clear"('service_plans');
--> statement-breakpoint
CREATE TRIGGER "jobs_list_counts_insert" AFTER INSERT ON "jobs" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "jobs_list_counts_update" AFTER UPDATE ON "jobs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "jobs_list_counts_delete" AFTER DELETE ON "jobs" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "jobs_list_counts_truncate" AFTER TRUNCATE ON "jobs"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_clear"('jobs');
--> statement-breakpoint
CREATE TRIGGER "pins_list_counts_insert" AFTER INSERT ON "pins" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "pins_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "pins_list_counts_update" AFTER UPDATE ON "pins" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "pins_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "pins_list_counts_delete" AFTER DELETE ON "pins" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "pins_keep_list_counts"();
--> statement-breakpoint
CREATE TRIGGER "pins_list_counts_truncate" AFTER TRUNCATE ON "pins"
  FOR EACH STATEMENT EXECUTE FUNCTION "list_counts_clear"('pins');
--> statement-breakpoint
-- Existing data: counted once, after the triggers exist and under their table locks (taken by
-- CREATE TRIGGER until the migration commits), so no write falls between the two.
INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
SELECT "company_id", 'leads', "archived", "stage", NULL::text, count(*)
FROM "leads" GROUP BY 1, 3, 4, 5;
--> statement-breakpoint
INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
SELECT "company_id", 'customers', "archived", "status", NULL::text, count(*)
FROM "customers" GROUP BY 1, 3, 4, 5;
--> statement-breakpoint
INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
SELECT "company_id", 'service_plans', "active", "frequency", "service_type", count(*)
FROM "service_plans" GROUP BY 1, 3, 4, 5;
--> statement-breakpoint
INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
SELECT "company_id", 'jobs', false, "status", NULL::text, count(*)
FROM "jobs" WHERE NOT "is_quote" AND NOT "archived" GROUP BY 1, 3, 4, 5;
--> statement-breakpoint
INSERT INTO "list_counts" ("company_id", "entity", "flag", "key1", "key2", "n")
SELECT "company_id", 'pins', false, "pin_type_id", NULL::text, count(*)
FROM "pins" GROUP BY 1, 3, 4, 5;

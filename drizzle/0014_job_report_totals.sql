-- The job report over all of a tenant's jobs from kept sums (bench/RESULTS.md).
-- GET /reports/serviced-jobs without a service-date bound read every listed job of the tenant and
-- joined every crew row (769,188 completed jobs and 374,341 crew rows in the bench's large
-- tenant: 1.0-1.1 s of one core, and past the 4 s statement timeout with two such requests on a
-- slow 2-core machine). Its numbers are sums, so they are kept as 0006-0009 keep the list
-- totals: job_report_totals holds delta rows per (tenant, kind, key, status), folded by every
-- write statement of jobs (lib/db/schema/job-report-totals.ts says what each kind holds).
--
-- A crew member's sums need the job's money and status, and a job's sums need its crew: when a
-- job is deleted its crew rows go by cascade, and neither table's trigger would see the other's
-- rows. So each job carries its crew's user ids (jobs.crew_user_ids, kept by the job_crew
-- triggers below, as 0001 keeps the money on the job row), and the jobs triggers alone keep the
-- sums: a job's old and new rows hold everything its sums depend on.
--
-- Both tables are locked against writes first (until the migration commits), in the order the
-- import writes them, so that no write falls between the new triggers and the backfills.
LOCK TABLE "jobs" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
LOCK TABLE "job_crew" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TABLE "job_report_totals" (
	"company_id" text NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "job_report_totals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"status" text NOT NULL,
	"job_count" integer NOT NULL,
	"total" numeric NOT NULL,
	"received" numeric NOT NULL,
	"outstanding" numeric NOT NULL,
	CONSTRAINT "job_report_totals_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "job_report_totals_kind_check" CHECK ("job_report_totals"."kind" in ('day', 'assigned', 'crew'))
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "crew_user_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "job_report_totals" ADD CONSTRAINT "job_report_totals_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_report_totals_tuple_idx" ON "job_report_totals" USING btree ("company_id","status","kind","key");
--> statement-breakpoint
-- jobs.crew_user_ids: the job's crew members' user ids in crew order (position, then id),
-- rewritten for every job a job_crew statement touched, and only where it changed. A job being
-- deleted (its crew rows going by cascade) is no longer there to update.
CREATE TYPE "job_ref" AS ("company_id" text, "job_id" text);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "jobs_keep_crew_user_ids"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  touched "job_ref"[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    touched := ARRAY(SELECT DISTINCT ("company_id", "job_id")::"job_ref" FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    touched := ARRAY(SELECT DISTINCT ("company_id", "job_id")::"job_ref" FROM old_rows);
  ELSE
    touched := ARRAY(SELECT ("company_id", "job_id")::"job_ref" FROM new_rows
      UNION SELECT ("company_id", "job_id")::"job_ref" FROM old_rows);
  END IF;
  UPDATE "jobs" j SET "crew_user_ids" = c."ids"
  FROM unnest(touched) t, LATERAL (
    SELECT ARRAY(
      SELECT m."user_id" FROM "job_crew" m
      WHERE m."company_id" = t."company_id" AND m."job_id" = t."job_id"
      ORDER BY m."position", m."id"
    ) AS "ids"
  ) c
  WHERE j."company_id" = t."company_id" AND j."id" = t."job_id" AND j."crew_user_ids" IS DISTINCT FROM c."ids";
  RETURN NULL;
END $fn$;
--> statement-breakpoint
-- TRUNCATE of job_crew alone empties every job's crew.
CREATE OR REPLACE FUNCTION "jobs_clear_crew_user_ids"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE "jobs" SET "crew_user_ids" = '{}'::text[] WHERE "crew_user_ids" <> '{}'::text[];
  RETURN NULL;
END $fn$;
--> statement-breakpoint
-- Existing crews, before the sums are counted below.
UPDATE "jobs" j SET "crew_user_ids" = c."ids"
FROM (
  SELECT "company_id", "job_id", array_agg("user_id" ORDER BY "position", "id") AS "ids"
  FROM "job_crew" GROUP BY 1, 2
) c
WHERE j."company_id" = c."company_id" AND j."id" = c."job_id";
--> statement-breakpoint
CREATE TRIGGER "job_crew_user_ids_insert" AFTER INSERT ON "job_crew"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_crew_user_ids"();
--> statement-breakpoint
CREATE TRIGGER "job_crew_user_ids_update" AFTER UPDATE ON "job_crew"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_crew_user_ids"();
--> statement-breakpoint
CREATE TRIGGER "job_crew_user_ids_delete" AFTER DELETE ON "job_crew"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_crew_user_ids"();
--> statement-breakpoint
CREATE TRIGGER "job_crew_user_ids_truncate" AFTER TRUNCATE ON "job_crew"
  FOR EACH STATEMENT EXECUTE FUNCTION "jobs_clear_crew_user_ids"();
--> statement-breakpoint
-- job_report_totals_fold(deltas): as list_counts_fold (0009) for list_counts. deltas holds a
-- statement's change per touched tuple (company_id, kind, key, status); it takes the current rows
-- of those tuples that no other transaction holds (FOR UPDATE SKIP LOCKED: it never waits),
-- deletes them by ctid and inserts one row per tuple with their sum plus its change (none when
-- everything sums to zero), in one statement.
CREATE TYPE "job_report_delta" AS (
  "company_id" text, "kind" text, "key" text, "status" text,
  "job_count" integer, "total" numeric, "received" numeric, "outstanding" numeric
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "job_report_totals_fold"(deltas "job_report_delta"[]) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  IF coalesce(cardinality(deltas), 0) = 0 THEN
    RETURN;
  END IF;
  WITH delta AS (
    SELECT * FROM unnest(deltas)
  ),
  folded AS (
    DELETE FROM "job_report_totals" t
    WHERE t.ctid = ANY (ARRAY(
      SELECT x.ctid FROM delta d, LATERAL (
        SELECT l.ctid FROM "job_report_totals" l
        WHERE l."company_id" = d."company_id" AND l."status" = d."status" AND l."kind" = d."kind"
          AND l."key" = d."key"
        FOR UPDATE SKIP LOCKED
      ) x
    ))
    RETURNING t."company_id", t."kind", t."key", t."status", t."job_count", t."total", t."received",
      t."outstanding"
  )
  INSERT INTO "job_report_totals" ("company_id", "kind", "key", "status", "job_count", "total", "received", "outstanding")
  SELECT "company_id", "kind", "key", "status", sum("job_count"), sum("total"), sum("received"), sum("outstanding")
  FROM (SELECT * FROM delta UNION ALL SELECT * FROM folded) f
  GROUP BY 1, 2, 3, 4
  HAVING sum("job_count") <> 0 OR sum("total") <> 0 OR sum("received") <> 0 OR sum("outstanding") <> 0;
END $fn$;
--> statement-breakpoint
-- A job's part of the sums, signed: +1 for a row added, -1 for a row removed (an UPDATE both;
-- what did not move cancels out). Only listed jobs (never quotes nor archived) count.
CREATE TYPE "job_report_change" AS (
  "sign" integer, "company_id" text, "status" text, "service_date" timestamptz, "assigned_to" text,
  "crew_user_ids" text[], "total" numeric, "received" numeric
);
--> statement-breakpoint
-- The tuples a listed job counts under (lib/db/schema/job-report-totals.ts): its day of service
-- ('' without a service date), its assigned user ('' when unassigned) and each crew member other
-- than the assigned user (a user is on a job's crew once: job_crew_member_idx).
CREATE OR REPLACE FUNCTION "job_report_keys"(service_date timestamptz, assigned_to text, crew_user_ids text[])
RETURNS TABLE ("kind" text, "key" text) LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT 'day', coalesce("job_day_key"(service_date), '')
  UNION ALL SELECT 'assigned', coalesce(assigned_to, '')
  UNION ALL SELECT 'crew', u FROM unnest(crew_user_ids) u WHERE u IS DISTINCT FROM assigned_to
$fn$;
--> statement-breakpoint
-- The change of the sums a statement's job changes make, per touched tuple.
CREATE OR REPLACE FUNCTION "job_report_deltas"(changes "job_report_change"[]) RETURNS "job_report_delta"[]
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT ARRAY(
    SELECT (c."company_id", k."kind", k."key", c."status", sum(c."sign")::int, sum(c."sign" * c."total"),
      sum(c."sign" * c."received"), sum(c."sign" * greatest(c."total" - c."received", 0)))::"job_report_delta"
    FROM unnest(changes) c, LATERAL "job_report_keys"(c."service_date", c."assigned_to", c."crew_user_ids") k
    GROUP BY c."company_id", k."kind", k."key", c."status"
    HAVING sum(c."sign") <> 0 OR sum(c."sign" * c."total") <> 0 OR sum(c."sign" * c."received") <> 0
      OR sum(c."sign" * greatest(c."total" - c."received", 0)) <> 0
  )
$fn$;
--> statement-breakpoint
-- The jobs' triggers. Rows of a tenant being deleted are not counted (companies cascade: its
-- sums go with it). Most updates of a job (an import re-writing it unchanged) change none of the
-- columns summed here: the statement stops at the check then.
CREATE OR REPLACE FUNCTION "jobs_keep_report_totals"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  changes "job_report_change"[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    changes := ARRAY(
      SELECT (1, "company_id", "status", "service_date", "assigned_to", "crew_user_ids", "line_items_total",
        "total_received")::"job_report_change"
      FROM new_rows WHERE NOT "is_quote" AND NOT "archived");
  ELSIF TG_OP = 'DELETE' THEN
    changes := ARRAY(
      SELECT (-1, r."company_id", r."status", r."service_date", r."assigned_to", r."crew_user_ids",
        r."line_items_total", r."total_received")::"job_report_change"
      FROM old_rows r
      WHERE NOT r."is_quote" AND NOT r."archived"
        AND EXISTS (SELECT 1 FROM "companies" c WHERE c."id" = r."company_id"));
  ELSE
    IF NOT EXISTS (
      SELECT "company_id", "status", "is_quote", "archived", "service_date", "assigned_to", "crew_user_ids",
        "line_items_total", "total_received" FROM new_rows
      EXCEPT ALL
      SELECT "company_id", "status", "is_quote", "archived", "service_date", "assigned_to", "crew_user_ids",
        "line_items_total", "total_received" FROM old_rows
    ) THEN
      RETURN NULL;
    END IF;
    changes := ARRAY(
      SELECT (1, "company_id", "status", "service_date", "assigned_to", "crew_user_ids", "line_items_total",
        "total_received")::"job_report_change"
      FROM new_rows WHERE NOT "is_quote" AND NOT "archived"
      UNION ALL
      SELECT (-1, "company_id", "status", "service_date", "assigned_to", "crew_user_ids", "line_items_total",
        "total_received")::"job_report_change"
      FROM old_rows WHERE NOT "is_quote" AND NOT "archived");
  END IF;
  PERFORM "job_report_totals_fold"("job_report_deltas"(changes));
  RETURN NULL;
END $fn$;
--> statement-breakpoint
-- TRUNCATE of jobs (every tenant's) clears every sum.
CREATE OR REPLACE FUNCTION "job_report_totals_clear"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM "job_report_totals";
  RETURN NULL;
END $fn$;
--> statement-breakpoint
-- Existing jobs: summed once, under the locks taken above, before the triggers exist.
INSERT INTO "job_report_totals" ("company_id", "kind", "key", "status", "job_count", "total", "received", "outstanding")
SELECT j."company_id", k."kind", k."key", j."status", count(*), sum(j."line_items_total"), sum(j."total_received"),
  sum(greatest(j."line_items_total" - j."total_received", 0))
FROM "jobs" j, LATERAL "job_report_keys"(j."service_date", j."assigned_to", j."crew_user_ids") k
WHERE NOT j."is_quote" AND NOT j."archived"
GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE TRIGGER "jobs_report_totals_insert" AFTER INSERT ON "jobs"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_report_totals"();
--> statement-breakpoint
CREATE TRIGGER "jobs_report_totals_update" AFTER UPDATE ON "jobs"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_report_totals"();
--> statement-breakpoint
CREATE TRIGGER "jobs_report_totals_delete" AFTER DELETE ON "jobs"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_report_totals"();
--> statement-breakpoint
CREATE TRIGGER "jobs_report_totals_truncate" AFTER TRUNCATE ON "jobs"
  FOR EACH STATEMENT EXECUTE FUNCTION "job_report_totals_clear"();

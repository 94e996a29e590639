DROP INDEX "jobs_listed_service_date_idx";--> statement-breakpoint
DROP INDEX "jobs_plan_idx";--> statement-breakpoint
DROP INDEX "jobs_completed_service_date_idx";--> statement-breakpoint
ALTER TABLE "service_plans" ADD COLUMN "jobs_completed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "service_plans" ADD COLUMN "jobs_scheduled" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "service_plans" ADD COLUMN "jobs_not_cancelled" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "service_plans" ADD COLUMN "not_cancelled_line_items_total" numeric(12, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "service_plans" ADD COLUMN "jobs_received" numeric(12, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "jobs_listed_service_date_idx" ON "jobs" USING btree ("company_id","service_date","created_at","id","assigned_to","line_items_total","total_received") WHERE not "jobs"."is_quote" and not "jobs"."archived";--> statement-breakpoint
CREATE INDEX "jobs_plan_idx" ON "jobs" USING btree ("company_id","service_plan_id","status") WHERE not "jobs"."is_quote" and not "jobs"."archived";--> statement-breakpoint
CREATE INDEX "jobs_completed_service_date_idx" ON "jobs" USING btree ("company_id","service_date","created_at","id","assigned_to","line_items_total","total_received") WHERE not "jobs"."is_quote" and not "jobs"."archived" and "jobs"."status" = 'Completed';--> statement-breakpoint
-- service_plans.jobs_* and not_cancelled_line_items_total are sums over the plan's jobs (never
-- quotes nor archived), kept by this statement-level trigger on jobs: the rows a statement
-- removes count negatively, the rows it adds positively, one aggregated UPDATE per statement.
-- Money changes reach it too: the job money triggers of 0001 update the job rows.
-- lib/domain/service-plans/numbers.ts turns the sums into the plan numbers.
CREATE OR REPLACE FUNCTION "service_plans_keep_job_totals"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_rows'
    ELSE 'SELECT 1 AS sign, * FROM new_rows UNION ALL SELECT -1 AS sign, * FROM old_rows'
  END;
BEGIN
  -- Dynamic because a trigger only sees the transition tables of its own event.
  EXECUTE format($sql$
    WITH changed AS (%s),
    delta AS (
      SELECT "company_id", "service_plan_id",
        coalesce(sum(sign) FILTER (WHERE "status" = 'Completed'), 0) AS completed,
        coalesce(sum(sign) FILTER (WHERE "status" IN ('Scheduled', 'In Progress', 'Completed')), 0) AS scheduled,
        coalesce(sum(sign) FILTER (WHERE "status" <> 'Cancelled'), 0) AS not_cancelled,
        coalesce(sum(sign * "line_items_total") FILTER (WHERE "status" <> 'Cancelled'), 0) AS line_items_total,
        coalesce(sum(sign * "total_received"), 0) AS received
      FROM changed
      WHERE "service_plan_id" IS NOT NULL AND NOT "is_quote" AND NOT "archived"
      GROUP BY 1, 2
    )
    UPDATE "service_plans" p SET
      "jobs_completed" = p."jobs_completed" + d.completed,
      "jobs_scheduled" = p."jobs_scheduled" + d.scheduled,
      "jobs_not_cancelled" = p."jobs_not_cancelled" + d.not_cancelled,
      "not_cancelled_line_items_total" = p."not_cancelled_line_items_total" + d.line_items_total,
      "jobs_received" = p."jobs_received" + d.received
    FROM delta d
    WHERE p."company_id" = d."company_id" AND p."id" = d."service_plan_id"
      AND (d.completed <> 0 OR d.scheduled <> 0 OR d.not_cancelled <> 0 OR d.line_items_total <> 0
        OR d.received <> 0)
  $sql$, changed);
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE TRIGGER "jobs_plan_totals_insert" AFTER INSERT ON "jobs"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "service_plans_keep_job_totals"();
--> statement-breakpoint
CREATE TRIGGER "jobs_plan_totals_update" AFTER UPDATE ON "jobs"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "service_plans_keep_job_totals"();
--> statement-breakpoint
CREATE TRIGGER "jobs_plan_totals_delete" AFTER DELETE ON "jobs"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "service_plans_keep_job_totals"();
--> statement-breakpoint
-- Existing data: compute the sums once.
UPDATE "service_plans" p SET
  "jobs_completed" = s.completed,
  "jobs_scheduled" = s.scheduled,
  "jobs_not_cancelled" = s.not_cancelled,
  "not_cancelled_line_items_total" = s.line_items_total,
  "jobs_received" = s.received
FROM (
  SELECT "company_id", "service_plan_id",
    count(*) FILTER (WHERE "status" = 'Completed') AS completed,
    count(*) FILTER (WHERE "status" IN ('Scheduled', 'In Progress', 'Completed')) AS scheduled,
    count(*) FILTER (WHERE "status" <> 'Cancelled') AS not_cancelled,
    coalesce(sum("line_items_total") FILTER (WHERE "status" <> 'Cancelled'), 0) AS line_items_total,
    coalesce(sum("total_received"), 0) AS received
  FROM "jobs"
  WHERE "service_plan_id" IS NOT NULL AND NOT "is_quote" AND NOT "archived"
  GROUP BY 1, 2
) s
WHERE p."company_id" = s."company_id" AND p."id" = s."service_plan_id";

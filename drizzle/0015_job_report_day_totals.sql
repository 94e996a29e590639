-- The job report over whole days of service from kept sums (bench/RESULTS.md).
-- GET /reports/serviced-jobs with a service-date range read the range's jobs and joined every crew
-- row of the tenant (a sequential scan of 374,341 crew rows in the bench's large tenant: ~100 ms
-- for a month, ~500 ms for a year). 0014 keeps the sums per day and per technician, but not per
-- technician and day, which a range's breakdown by technician needs. So job_report_keys now also
-- counts a job under its day and assigned user ('assigned_day') and under its day and each crew
-- member other than the assigned user ('crew_day'), keyed by the day's key, ':' and the user id:
-- the keys of a range of days are a range of keys (lib/db/schema/job-report-totals.ts).
--
-- The jobs triggers of 0014 fold whatever job_report_keys returns, so only the function changes,
-- and the existing jobs are summed under the new kinds once. Jobs are locked against writes first
-- (until the migration commits; job_crew writes reach the sums only through jobs), so that no
-- write falls between the new keys and the backfill.
LOCK TABLE "jobs" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
ALTER TABLE "job_report_totals" DROP CONSTRAINT "job_report_totals_kind_check";--> statement-breakpoint
ALTER TABLE "job_report_totals" ADD CONSTRAINT "job_report_totals_kind_check" CHECK ("job_report_totals"."kind" in ('day', 'assigned', 'crew', 'assigned_day', 'crew_day'));
--> statement-breakpoint
-- The tuples a listed job counts under: its day of service ('' without a service date), its
-- assigned user ('' when unassigned), each crew member other than the assigned user (a user is
-- on a job's crew once: job_crew_member_idx), and, when it has a service date, its day with its
-- assigned user (when it has one) and with each of those crew members.
CREATE OR REPLACE FUNCTION "job_report_keys"(service_date timestamptz, assigned_to text, crew_user_ids text[])
RETURNS TABLE ("kind" text, "key" text) LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT 'day', coalesce("job_day_key"(service_date), '')
  UNION ALL SELECT 'assigned', coalesce(assigned_to, '')
  UNION ALL SELECT 'crew', u FROM unnest(crew_user_ids) u WHERE u IS DISTINCT FROM assigned_to
  UNION ALL SELECT 'assigned_day', "job_day_key"(service_date) || ':' || assigned_to
    WHERE service_date IS NOT NULL AND assigned_to IS NOT NULL
  UNION ALL SELECT 'crew_day', "job_day_key"(service_date) || ':' || u
    FROM unnest(crew_user_ids) u WHERE service_date IS NOT NULL AND u IS DISTINCT FROM assigned_to
$fn$;
--> statement-breakpoint
-- Existing jobs: summed once under the new kinds.
INSERT INTO "job_report_totals" ("company_id", "kind", "key", "status", "job_count", "total", "received", "outstanding")
SELECT j."company_id", k."kind", k."key", j."status", count(*), sum(j."line_items_total"), sum(j."total_received"),
  sum(greatest(j."line_items_total" - j."total_received", 0))
FROM "jobs" j, LATERAL "job_report_keys"(j."service_date", j."assigned_to", j."crew_user_ids") k
WHERE NOT j."is_quote" AND NOT j."archived" AND k."kind" IN ('assigned_day', 'crew_day')
GROUP BY 1, 2, 3, 4;

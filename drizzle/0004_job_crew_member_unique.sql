-- A user listed twice on one job's crew keeps their first place only (technicians count once).
DELETE FROM "job_crew" c USING "job_crew" d
WHERE c."company_id" = d."company_id" AND c."job_id" = d."job_id" AND c."user_id" = d."user_id"
  AND (d."position", d."id") < (c."position", c."id");--> statement-breakpoint
CREATE UNIQUE INDEX "job_crew_member_idx" ON "job_crew" USING btree ("company_id","job_id","user_id");

DROP INDEX "jobs_listed_service_date_idx";--> statement-breakpoint
DROP INDEX "jobs_completed_service_date_idx";--> statement-breakpoint
CREATE INDEX "jobs_listed_service_date_idx" ON "jobs" USING btree ("company_id","service_date","created_at","id") WHERE not "jobs"."is_quote" and not "jobs"."archived";--> statement-breakpoint
CREATE INDEX "jobs_completed_service_date_idx" ON "jobs" USING btree ("company_id","service_date","created_at","id") WHERE not "jobs"."is_quote" and not "jobs"."archived" and "jobs"."status" = 'Completed';
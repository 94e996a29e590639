-- The date-bounded job page, day by day (bench/RESULTS.md). A page of the jobs whose
-- service date lies in a range, newest created first, had to read every job of the range from the
-- service-date index and sort them (~21,700 for a month of the bench's large tenant): the order
-- is by creation, the bound by service date. This index keys the listed jobs by the UTC day of
-- their service date (job_day_key, the day counters' key of 0008) and then by the list order, so
-- the page reads at most its own length from each day of the range that has jobs (the day
-- counters name those days) and merges them. status and service_date trail the key: the page's
-- filters are read from the index alone.
CREATE INDEX "jobs_listed_day_created_idx" ON "jobs" USING btree ("company_id",job_day_key("service_date"),"created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"status","service_date") WHERE not "jobs"."is_quote" and not "jobs"."archived";
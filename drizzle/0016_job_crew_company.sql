-- A company's deletion in one statement: job_crew refers to its user without a cascade
-- (job_crew_user_fk; users are deactivated, never deleted) and reached its company only through
-- its job. Deleting a company ran its first cascades (users, jobs, ...) and then the checks and
-- cascades they queued in turn, in order: the deleted users' check found their crew rows before
-- the jobs' cascade reached them, and the statement failed. With its own cascade from companies,
-- a company's crew rows go among the first cascades, before any check of the users.
ALTER TABLE "job_crew" ADD CONSTRAINT "job_crew_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;

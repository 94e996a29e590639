DROP INDEX "jobs_plan_idx";--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "line_items_total" numeric(12, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "total_received" numeric(12, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "jobs_listed_count_idx" ON "jobs" USING btree ("company_id") WHERE not "jobs"."is_quote" and not "jobs"."archived";--> statement-breakpoint
CREATE INDEX "jobs_completed_count_idx" ON "jobs" USING btree ("company_id") WHERE not "jobs"."is_quote" and not "jobs"."archived" and "jobs"."status" = 'Completed';--> statement-breakpoint
CREATE INDEX "jobs_completed_service_date_idx" ON "jobs" USING btree ("company_id","service_date") WHERE not "jobs"."is_quote" and not "jobs"."archived" and "jobs"."status" = 'Completed';--> statement-breakpoint
CREATE INDEX "jobs_plan_idx" ON "jobs" USING btree ("company_id","service_plan_id","status","line_items_total","total_received") WHERE not "jobs"."is_quote" and not "jobs"."archived";--> statement-breakpoint
-- jobs.line_items_total and jobs.total_received are kept by these statement-level triggers (one
-- aggregated UPDATE of the touched jobs per statement, so bulk imports stay fast). The rules
-- (contract section 7): total = sum of the line items' total_price; received = succeeded
-- payments minus succeeded refunds. lib/domain/serviced-jobs/money.ts documents and tests them.
CREATE OR REPLACE FUNCTION "jobs_keep_line_items_total"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "jobs" j SET "line_items_total" = j."line_items_total" + d.delta
    FROM (SELECT "company_id", "job_id", sum("total_price") AS delta FROM new_rows GROUP BY 1, 2) d
    WHERE j."company_id" = d."company_id" AND j."id" = d."job_id" AND d.delta <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "jobs" j SET "line_items_total" = j."line_items_total" - d.delta
    FROM (SELECT "company_id", "job_id", sum("total_price") AS delta FROM old_rows GROUP BY 1, 2) d
    WHERE j."company_id" = d."company_id" AND j."id" = d."job_id" AND d.delta <> 0;
  ELSE
    UPDATE "jobs" j SET "line_items_total" = j."line_items_total" + d.delta
    FROM (
      SELECT "company_id", "job_id", sum(v) AS delta FROM (
        SELECT "company_id", "job_id", "total_price" AS v FROM new_rows
        UNION ALL
        SELECT "company_id", "job_id", -"total_price" FROM old_rows
      ) x GROUP BY 1, 2
    ) d
    WHERE j."company_id" = d."company_id" AND j."id" = d."job_id" AND d.delta <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "jobs_keep_total_received"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "jobs" j SET "total_received" = j."total_received" + d.delta
    FROM (
      SELECT "company_id", "job_id",
        sum(CASE WHEN "payment_type" = 'refund' THEN -"amount" ELSE "amount" END) AS delta
      FROM new_rows WHERE "status" = 'succeeded' GROUP BY 1, 2
    ) d
    WHERE j."company_id" = d."company_id" AND j."id" = d."job_id" AND d.delta <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "jobs" j SET "total_received" = j."total_received" - d.delta
    FROM (
      SELECT "company_id", "job_id",
        sum(CASE WHEN "payment_type" = 'refund' THEN -"amount" ELSE "amount" END) AS delta
      FROM old_rows WHERE "status" = 'succeeded' GROUP BY 1, 2
    ) d
    WHERE j."company_id" = d."company_id" AND j."id" = d."job_id" AND d.delta <> 0;
  ELSE
    UPDATE "jobs" j SET "total_received" = j."total_received" + d.delta
    FROM (
      SELECT "company_id", "job_id", sum(v) AS delta FROM (
        SELECT "company_id", "job_id",
          CASE WHEN "payment_type" = 'refund' THEN -"amount" ELSE "amount" END AS v
        FROM new_rows WHERE "status" = 'succeeded'
        UNION ALL
        SELECT "company_id", "job_id",
          CASE WHEN "payment_type" = 'refund' THEN "amount" ELSE -"amount" END
        FROM old_rows WHERE "status" = 'succeeded'
      ) x GROUP BY 1, 2
    ) d
    WHERE j."company_id" = d."company_id" AND j."id" = d."job_id" AND d.delta <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "job_line_items_total_insert" AFTER INSERT ON "job_line_items"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_line_items_total"();
--> statement-breakpoint
CREATE TRIGGER "job_line_items_total_update" AFTER UPDATE ON "job_line_items"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_line_items_total"();
--> statement-breakpoint
CREATE TRIGGER "job_line_items_total_delete" AFTER DELETE ON "job_line_items"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_line_items_total"();
--> statement-breakpoint
CREATE TRIGGER "job_payments_received_insert" AFTER INSERT ON "job_payments"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_total_received"();
--> statement-breakpoint
CREATE TRIGGER "job_payments_received_update" AFTER UPDATE ON "job_payments"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_total_received"();
--> statement-breakpoint
CREATE TRIGGER "job_payments_received_delete" AFTER DELETE ON "job_payments"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "jobs_keep_total_received"();
--> statement-breakpoint
-- Existing data: compute the totals once.
UPDATE "jobs" j SET "line_items_total" = s.total
FROM (SELECT "company_id", "job_id", sum("total_price") AS total FROM "job_line_items" GROUP BY 1, 2) s
WHERE j."company_id" = s."company_id" AND j."id" = s."job_id";
--> statement-breakpoint
UPDATE "jobs" j SET "total_received" = s.received
FROM (
  SELECT "company_id", "job_id",
    sum(CASE WHEN "payment_type" = 'refund' THEN -"amount" ELSE "amount" END) AS received
  FROM "job_payments" WHERE "status" = 'succeeded' GROUP BY 1, 2
) s
WHERE j."company_id" = s."company_id" AND j."id" = s."job_id";

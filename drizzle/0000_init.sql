-- Search indexes need pg_trgm (trigrams) and btree_gin (company_id inside a GIN index).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE TABLE "companies" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"user_agent" text,
	CONSTRAINT "sessions_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "sign_in_attempts" (
	"email_normalized" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_normalized" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "users_role_check" CHECK ("users"."role" in ('admin', 'manager', 'sales_rep', 'technician'))
);
--> statement-breakpoint
CREATE TABLE "api_key_usage" (
	"company_id" text NOT NULL,
	"key_id" text NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "api_key_usage_company_id_key_id_day_pk" PRIMARY KEY("company_id","key_id","day")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"daily_limit" integer DEFAULT 1000 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "api_keys_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text,
	"email" text,
	"email_normalized" text,
	"phone" text,
	"phone_normalized" text,
	"property_street1" text,
	"property_street2" text,
	"property_city" text,
	"property_state" text,
	"property_zip" text,
	"property_country" text,
	"priority" text,
	"projected_value" numeric(12, 2),
	"value_score" double precision,
	"service_type" text,
	"lead_source" text,
	"stage" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"notes" text,
	"follow_up_date" timestamp with time zone,
	"assigned_to" text,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	CONSTRAINT "leads_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "leads_priority_check" CHECK ("leads"."priority" is null or "leads"."priority" in ('low', 'medium', 'high'))
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"company_name" text,
	"email" text,
	"email_normalized" text,
	"phone" text,
	"phone_normalized" text,
	"notes" text,
	"source" text,
	"property_street1" text,
	"property_street2" text,
	"property_city" text,
	"property_state" text,
	"property_zip" text,
	"property_country" text,
	"billing_street1" text,
	"billing_street2" text,
	"billing_city" text,
	"billing_state" text,
	"billing_zip" text,
	"billing_country" text,
	"billing_same_as_property" boolean DEFAULT false NOT NULL,
	"service_frequency" text,
	"service_type" text,
	"status" text DEFAULT 'active' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone,
	"is_auto_pay" boolean DEFAULT false NOT NULL,
	"has_payment_method" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	CONSTRAINT "customers_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "customers_status_check" CHECK ("customers"."status" in ('active', 'inactive'))
);
--> statement-breakpoint
CREATE TABLE "service_plans" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"customer_id" text NOT NULL,
	"sold_by" text,
	"frequency" text NOT NULL,
	"custom_frequency_label" text,
	"service_type" text,
	"start_date" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL,
	"total_visits" integer,
	"price_per_visit" numeric(12, 2) DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_plans_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "service_plans_frequency_check" CHECK ("service_plans"."frequency" in ('One-Time', 'Annual', 'Semi-Annual', 'Tri-Annual', 'Quarterly', 'Bi-Monthly', 'Monthly', 'Bi-Weekly', 'Weekly', 'Custom')),
	CONSTRAINT "service_plans_custom_visits_check" CHECK ("service_plans"."frequency" <> 'Custom' or "service_plans"."total_visits" is not null),
	CONSTRAINT "service_plans_total_visits_check" CHECK ("service_plans"."total_visits" is null or "service_plans"."total_visits" >= 0)
);
--> statement-breakpoint
CREATE TABLE "job_crew" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"job_id" text NOT NULL,
	"user_id" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "job_crew_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "job_line_items" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"job_id" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"total_price" numeric(12, 2) DEFAULT 0 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "job_line_items_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "job_payments" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"job_id" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"payment_date" timestamp with time zone,
	"payment_method" text NOT NULL,
	"payment_type" text NOT NULL,
	"status" text NOT NULL,
	CONSTRAINT "job_payments_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "job_payments_type_check" CHECK ("job_payments"."payment_type" in ('payment', 'refund')),
	CONSTRAINT "job_payments_status_check" CHECK ("job_payments"."status" in ('succeeded', 'pending', 'failed')),
	CONSTRAINT "job_payments_method_check" CHECK ("job_payments"."payment_method" in ('card', 'ach', 'cash', 'check', 'other'))
);
--> statement-breakpoint
CREATE TABLE "job_visits" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"job_id" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	CONSTRAINT "job_visits_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"customer_id" text NOT NULL,
	"service_plan_id" text,
	"status" text NOT NULL,
	"is_quote" boolean DEFAULT false NOT NULL,
	"archived" boolean DEFAULT false NOT NULL,
	"assigned_to" text,
	"service_date" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "jobs_status_check" CHECK ("jobs"."status" in ('Unscheduled', 'Scheduled', 'In Progress', 'Completed', 'Cancelled'))
);
--> statement-breakpoint
CREATE TABLE "pin_types" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"label" text NOT NULL,
	"color" text NOT NULL,
	CONSTRAINT "pin_types_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "pin_types_color_check" CHECK ("pin_types"."color" ~ '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$')
);
--> statement-breakpoint
CREATE TABLE "pins" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"pin_type_id" text NOT NULL,
	"created_by" text NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pins_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "pins_latitude_check" CHECK ("pins"."latitude" between -90 and 90),
	CONSTRAINT "pins_longitude_check" CHECK ("pins"."longitude" between -180 and 180)
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_company_id_user_id_users_company_id_id_fk" FOREIGN KEY ("company_id","user_id") REFERENCES "public"."users"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key_usage" ADD CONSTRAINT "api_key_usage_company_id_key_id_api_keys_company_id_id_fk" FOREIGN KEY ("company_id","key_id") REFERENCES "public"."api_keys"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_assigned_to_fk" FOREIGN KEY ("company_id","assigned_to") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_plans" ADD CONSTRAINT "service_plans_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_plans" ADD CONSTRAINT "service_plans_customer_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_plans" ADD CONSTRAINT "service_plans_sold_by_fk" FOREIGN KEY ("company_id","sold_by") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_crew" ADD CONSTRAINT "job_crew_company_id_job_id_jobs_company_id_id_fk" FOREIGN KEY ("company_id","job_id") REFERENCES "public"."jobs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_crew" ADD CONSTRAINT "job_crew_user_fk" FOREIGN KEY ("company_id","user_id") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_line_items" ADD CONSTRAINT "job_line_items_company_id_job_id_jobs_company_id_id_fk" FOREIGN KEY ("company_id","job_id") REFERENCES "public"."jobs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_payments" ADD CONSTRAINT "job_payments_company_id_job_id_jobs_company_id_id_fk" FOREIGN KEY ("company_id","job_id") REFERENCES "public"."jobs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_visits" ADD CONSTRAINT "job_visits_company_id_job_id_jobs_company_id_id_fk" FOREIGN KEY ("company_id","job_id") REFERENCES "public"."jobs"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_customer_fk" FOREIGN KEY ("company_id","customer_id") REFERENCES "public"."customers"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_service_plan_fk" FOREIGN KEY ("company_id","service_plan_id") REFERENCES "public"."service_plans"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_assigned_to_fk" FOREIGN KEY ("company_id","assigned_to") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pin_types" ADD CONSTRAINT "pin_types_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pins" ADD CONSTRAINT "pins_pin_type_fk" FOREIGN KEY ("company_id","pin_type_id") REFERENCES "public"."pin_types"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pins" ADD CONSTRAINT "pins_created_by_fk" FOREIGN KEY ("company_id","created_by") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_token_hash_idx" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "users_email_idx" ON "users" USING btree ("email_normalized");--> statement-breakpoint
CREATE INDEX "api_key_usage_day_idx" ON "api_key_usage" USING btree ("day");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_idx" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "leads_created_idx" ON "leads" USING btree ("company_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_active_created_idx" ON "leads" USING btree ("company_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "leads"."archived";--> statement-breakpoint
CREATE INDEX "leads_stage_created_idx" ON "leads" USING btree ("company_id","stage","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_tags_idx" ON "leads" USING gin ("company_id","tags");--> statement-breakpoint
CREATE INDEX "leads_phone_idx" ON "leads" USING btree ("company_id","phone_normalized");--> statement-breakpoint
CREATE INDEX "leads_email_idx" ON "leads" USING btree ("company_id","email_normalized");--> statement-breakpoint
CREATE INDEX "leads_name_trgm_idx" ON "leads" USING gin ("company_id",lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_email_trgm_idx" ON "leads" USING gin ("company_id","email_normalized" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_phone_trgm_idx" ON "leads" USING gin ("company_id",lower("phone") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_phone_digits_trgm_idx" ON "leads" USING gin ("company_id","phone_normalized" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_created_idx" ON "customers" USING btree ("company_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "customers_active_created_idx" ON "customers" USING btree ("company_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "customers"."archived";--> statement-breakpoint
CREATE INDEX "customers_status_created_idx" ON "customers" USING btree ("company_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "customers_tags_idx" ON "customers" USING gin ("company_id","tags");--> statement-breakpoint
CREATE INDEX "customers_phone_idx" ON "customers" USING btree ("company_id","phone_normalized");--> statement-breakpoint
CREATE INDEX "customers_email_idx" ON "customers" USING btree ("company_id","email_normalized");--> statement-breakpoint
CREATE INDEX "customers_full_name_trgm_idx" ON "customers" USING gin ("company_id",lower(coalesce("first_name", '') || ' ' || coalesce("last_name", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_company_name_trgm_idx" ON "customers" USING gin ("company_id",lower("company_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_email_trgm_idx" ON "customers" USING gin ("company_id","email_normalized" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_phone_trgm_idx" ON "customers" USING gin ("company_id",lower("phone") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_phone_digits_trgm_idx" ON "customers" USING gin ("company_id","phone_normalized" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "service_plans_created_idx" ON "service_plans" USING btree ("company_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "service_plans_active_created_idx" ON "service_plans" USING btree ("company_id","active","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "service_plans_frequency_created_idx" ON "service_plans" USING btree ("company_id","frequency","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "service_plans_type_created_idx" ON "service_plans" USING btree ("company_id","service_type","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "service_plans_sold_by_created_idx" ON "service_plans" USING btree ("company_id","sold_by","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "service_plans_customer_idx" ON "service_plans" USING btree ("company_id","customer_id");--> statement-breakpoint
CREATE INDEX "job_crew_job_idx" ON "job_crew" USING btree ("company_id","job_id","position");--> statement-breakpoint
CREATE INDEX "job_crew_user_idx" ON "job_crew" USING btree ("company_id","user_id");--> statement-breakpoint
CREATE INDEX "job_line_items_job_idx" ON "job_line_items" USING btree ("company_id","job_id","position");--> statement-breakpoint
CREATE INDEX "job_payments_job_idx" ON "job_payments" USING btree ("company_id","job_id","payment_date");--> statement-breakpoint
CREATE INDEX "job_visits_job_idx" ON "job_visits" USING btree ("company_id","job_id","starts_at");--> statement-breakpoint
CREATE INDEX "jobs_listed_created_idx" ON "jobs" USING btree ("company_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "jobs"."is_quote" and not "jobs"."archived";--> statement-breakpoint
CREATE INDEX "jobs_completed_created_idx" ON "jobs" USING btree ("company_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "jobs"."is_quote" and not "jobs"."archived" and "jobs"."status" = 'Completed';--> statement-breakpoint
CREATE INDEX "jobs_listed_service_date_idx" ON "jobs" USING btree ("company_id","service_date") WHERE not "jobs"."is_quote" and not "jobs"."archived";--> statement-breakpoint
CREATE INDEX "jobs_plan_idx" ON "jobs" USING btree ("company_id","service_plan_id","status") WHERE not "jobs"."is_quote" and not "jobs"."archived";--> statement-breakpoint
CREATE INDEX "pin_types_label_idx" ON "pin_types" USING btree ("company_id","label","id");--> statement-breakpoint
CREATE INDEX "pins_created_idx" ON "pins" USING btree ("company_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "pins_type_created_idx" ON "pins" USING btree ("company_id","pin_type_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "pins_user_created_idx" ON "pins" USING btree ("company_id","created_by","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
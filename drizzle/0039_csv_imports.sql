CREATE TABLE "import_claims" (
	"company_id" text NOT NULL,
	"record_type" text NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"import_id" text NOT NULL,
	CONSTRAINT "import_claims_company_id_record_type_kind_value_pk" PRIMARY KEY("company_id","record_type","kind","value")
);
--> statement-breakpoint
CREATE TABLE "import_problems" (
	"company_id" text NOT NULL,
	"import_id" text NOT NULL,
	"seq" integer NOT NULL,
	"row" integer NOT NULL,
	"column" text,
	"field" text,
	"reason" text NOT NULL,
	CONSTRAINT "import_problems_company_id_import_id_seq_pk" PRIMARY KEY("company_id","import_id","seq")
);
--> statement-breakpoint
CREATE TABLE "import_rows" (
	"company_id" text NOT NULL,
	"import_id" text NOT NULL,
	"row" integer NOT NULL,
	"values" text[] NOT NULL,
	CONSTRAINT "import_rows_company_id_import_id_row_pk" PRIMARY KEY("company_id","import_id","row")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"type" text NOT NULL,
	"file_name" text NOT NULL,
	"status" text DEFAULT 'uploaded' NOT NULL,
	"encoding" text NOT NULL,
	"delimiter" text NOT NULL,
	"headers" text[] NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"mapping" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"result" jsonb,
	"problem_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	CONSTRAINT "imports_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "imports_type_check" CHECK ("imports"."type" in ('leads', 'customers')),
	CONSTRAINT "imports_status_check" CHECK ("imports"."status" in ('uploaded', 'checking', 'checked', 'importing', 'done', 'failed', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "import_claims" ADD CONSTRAINT "import_claims_company_id_import_id_imports_company_id_id_fk" FOREIGN KEY ("company_id","import_id") REFERENCES "public"."imports"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_problems" ADD CONSTRAINT "import_problems_company_id_import_id_imports_company_id_id_fk" FOREIGN KEY ("company_id","import_id") REFERENCES "public"."imports"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_company_id_import_id_imports_company_id_id_fk" FOREIGN KEY ("company_id","import_id") REFERENCES "public"."imports"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_claims_import_idx" ON "import_claims" USING btree ("company_id","import_id");--> statement-breakpoint
CREATE INDEX "imports_created_idx" ON "imports" USING btree ("company_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- CSV import runs (lib/domain/imports/queue.ts): a run records its own failure, so no retry; the
-- prune of old staged rows runs daily.
SELECT pgboss.create_queue('import-run', '{"policy":"standard","retryLimit":0,"expireInSeconds":14400,"retentionMinutes":1440}'::json);
--> statement-breakpoint
SELECT pgboss.create_queue('import-prune', '{"policy":"singleton","retryLimit":2,"retryDelay":600,"expireInSeconds":3600,"retentionMinutes":1440}'::json);

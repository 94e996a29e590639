CREATE TABLE "lead_bulk_changes" (
	"company_id" text NOT NULL,
	"operation_id" text NOT NULL,
	"lead_id" text NOT NULL,
	"assigned_to" text,
	"stage" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"archived" boolean NOT NULL,
	"archived_at" timestamp with time zone,
	CONSTRAINT "lead_bulk_changes_company_id_operation_id_lead_id_pk" PRIMARY KEY("company_id","operation_id","lead_id")
);
--> statement-breakpoint
CREATE TABLE "lead_bulk_operations" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"action" jsonb NOT NULL,
	"changed" integer NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_at" timestamp with time zone,
	CONSTRAINT "lead_bulk_operations_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
ALTER TABLE "lead_bulk_changes" ADD CONSTRAINT "lead_bulk_changes_company_id_operation_id_lead_bulk_operations_company_id_id_fk" FOREIGN KEY ("company_id","operation_id") REFERENCES "public"."lead_bulk_operations"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_bulk_operations" ADD CONSTRAINT "lead_bulk_operations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leads_assigned_created_idx" ON "leads" USING btree ("company_id","assigned_to","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_active_assigned_created_idx" ON "leads" USING btree ("company_id","assigned_to","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "leads"."archived";
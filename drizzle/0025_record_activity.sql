CREATE TABLE "record_activity" (
	"company_id" text NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "record_activity_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"record_type" text NOT NULL,
	"record_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"type" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"note" text,
	"related_id" text,
	CONSTRAINT "record_activity_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "record_activity_record_type_check" CHECK ("record_activity"."record_type" in ('lead', 'customer')),
	CONSTRAINT "record_activity_type_check" CHECK ("record_activity"."type" in ('created', 'updated', 'archived', 'unarchived', 'note', 'converted')),
	CONSTRAINT "record_activity_actor_kind_check" CHECK ("record_activity"."actor_kind" in ('user', 'api_key', 'import'))
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "customer_id" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "lead_id" text;--> statement-breakpoint
ALTER TABLE "record_activity" ADD CONSTRAINT "record_activity_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_activity_record_idx" ON "record_activity" USING btree ("company_id","record_type","record_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "record_activity_notes_idx" ON "record_activity" USING btree ("company_id","record_type","record_id") WHERE "record_activity"."type" = 'note';
-- Pins and leads are found by place in a GiST index that also holds company_id (btree_gist).
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
CREATE TABLE "pin_visits" (
	"company_id" text NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "pin_visits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"pin_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" text NOT NULL,
	"pin_type_id" text NOT NULL,
	CONSTRAINT "pin_visits_company_id_id_pk" PRIMARY KEY("company_id","id")
);
--> statement-breakpoint
CREATE TABLE "territories" (
	"company_id" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"polygon" jsonb NOT NULL,
	"area" "polygon" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "territories_company_id_id_pk" PRIMARY KEY("company_id","id"),
	CONSTRAINT "territories_color_check" CHECK ("territories"."color" ~ '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$')
);
--> statement-breakpoint
CREATE TABLE "territory_assignees" (
	"company_id" text NOT NULL,
	"territory_id" text NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "territory_assignees_company_id_territory_id_user_id_pk" PRIMARY KEY("company_id","territory_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "pin_types" ADD COLUMN "position" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "street1" text;--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "state" text;--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "zip" text;--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "notes" text;--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "lead_id" text;--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "visit_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "last_visit_at" timestamp with time zone;--> statement-breakpoint
-- Every pin already stored was dropped by a knock: it gets that visit, and its type order follows the labels.
-- The update changes no counted column: the list counters' update trigger would only add rows to fold.
ALTER TABLE "pins" DISABLE TRIGGER "pins_list_counts_update";--> statement-breakpoint
UPDATE "pins" SET "updated_at" = "created_at", "visit_count" = 1, "last_visit_at" = "created_at";--> statement-breakpoint
ALTER TABLE "pins" ENABLE TRIGGER "pins_list_counts_update";--> statement-breakpoint
INSERT INTO "pin_visits" ("company_id", "pin_id", "at", "user_id", "pin_type_id")
  SELECT "company_id", "id", "created_at", "created_by", "pin_type_id" FROM "pins" ORDER BY "company_id", "created_at", "id";--> statement-breakpoint
UPDATE "pin_types" t SET "position" = o."position"
  FROM (SELECT "company_id", "id", (row_number() OVER (PARTITION BY "company_id" ORDER BY "label", "id"))::int - 1 AS "position" FROM "pin_types") o
  WHERE t."company_id" = o."company_id" AND t."id" = o."id";--> statement-breakpoint
ALTER TABLE "pin_visits" ADD CONSTRAINT "pin_visits_pin_fk" FOREIGN KEY ("company_id","pin_id") REFERENCES "public"."pins"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pin_visits" ADD CONSTRAINT "pin_visits_user_fk" FOREIGN KEY ("company_id","user_id") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pin_visits" ADD CONSTRAINT "pin_visits_pin_type_fk" FOREIGN KEY ("company_id","pin_type_id") REFERENCES "public"."pin_types"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "territories" ADD CONSTRAINT "territories_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "territory_assignees" ADD CONSTRAINT "territory_assignees_territory_fk" FOREIGN KEY ("company_id","territory_id") REFERENCES "public"."territories"("company_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "territory_assignees" ADD CONSTRAINT "territory_assignees_user_fk" FOREIGN KEY ("company_id","user_id") REFERENCES "public"."users"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pin_visits_pin_idx" ON "pin_visits" USING btree ("company_id","pin_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "pin_visits_at_idx" ON "pin_visits" USING btree ("company_id","at","user_id","pin_type_id");--> statement-breakpoint
CREATE INDEX "territories_name_idx" ON "territories" USING btree ("company_id","name","id");--> statement-breakpoint
CREATE INDEX "territory_assignees_user_idx" ON "territory_assignees" USING btree ("company_id","user_id");--> statement-breakpoint
ALTER TABLE "pins" ADD CONSTRAINT "pins_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pins" ADD CONSTRAINT "pins_lead_fk" FOREIGN KEY ("company_id","lead_id") REFERENCES "public"."leads"("company_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leads_location_idx" ON "leads" USING gist ("company_id",point("longitude", "latitude")) WHERE "leads"."latitude" is not null;--> statement-breakpoint
CREATE INDEX "pins_location_idx" ON "pins" USING gist ("company_id",point("longitude", "latitude"));--> statement-breakpoint
CREATE INDEX "pins_updated_idx" ON "pins" USING btree ("company_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "pins_lead_idx" ON "pins" USING btree ("company_id","lead_id") WHERE "pins"."lead_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "pins_client_id_idx" ON "pins" USING btree ("company_id","client_id") WHERE "pins"."client_id" is not null;
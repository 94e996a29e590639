-- The change feed (extensions.md E10): every insert and update of a lead, customer or pin, from
-- whatever path (API, dashboard, bulk, undo, conversion, import), takes the writing transaction's
-- id and a sequence number: an insert as its columns' defaults, an update from the trigger below.
-- A walk hands out only rows whose transaction is older than its snapshot's xmin, so a
-- transaction still open when the walk passes waits for a later page.
-- Existing rows get constant defaults first (0, 0: no table rewrite), then the real defaults.
CREATE SEQUENCE IF NOT EXISTS "record_change_seq";--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "change_xid" "xid8" DEFAULT '0'::xid8 NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "change_xid" "xid8" DEFAULT '0'::xid8 NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "change_xid" "xid8" DEFAULT '0'::xid8 NOT NULL;--> statement-breakpoint
ALTER TABLE "pins" ADD COLUMN "change_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "leads" ALTER COLUMN "change_xid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
ALTER TABLE "leads" ALTER COLUMN "change_seq" SET DEFAULT nextval('record_change_seq');--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "change_xid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "change_seq" SET DEFAULT nextval('record_change_seq');--> statement-breakpoint
ALTER TABLE "pins" ALTER COLUMN "change_xid" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
ALTER TABLE "pins" ALTER COLUMN "change_seq" SET DEFAULT nextval('record_change_seq');--> statement-breakpoint
CREATE INDEX "leads_change_idx" ON "leads" USING btree ("company_id","change_xid","change_seq","id");--> statement-breakpoint
CREATE INDEX "customers_change_idx" ON "customers" USING btree ("company_id","change_xid","change_seq","id");--> statement-breakpoint
CREATE INDEX "pins_change_idx" ON "pins" USING btree ("company_id","change_xid","change_seq","id");--> statement-breakpoint
CREATE OR REPLACE FUNCTION "record_change_stamp"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  -- An update that changes nothing keeps its place: a walk shows a record again only if it changed.
  IF NEW IS DISTINCT FROM OLD THEN
    NEW."change_xid" := pg_current_xact_id();
    NEW."change_seq" := nextval('record_change_seq');
  END IF;
  RETURN NEW;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER "leads_change_stamp" BEFORE UPDATE ON "leads"
  FOR EACH ROW EXECUTE FUNCTION "record_change_stamp"();--> statement-breakpoint
CREATE TRIGGER "customers_change_stamp" BEFORE UPDATE ON "customers"
  FOR EACH ROW EXECUTE FUNCTION "record_change_stamp"();--> statement-breakpoint
CREATE TRIGGER "pins_change_stamp" BEFORE UPDATE ON "pins"
  FOR EACH ROW EXECUTE FUNCTION "record_change_stamp"();

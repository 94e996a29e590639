-- The events written before the relay already have their deliveries: they count as relayed (a
-- constant default fills the existing rows without rewriting the table; new rows get null).
ALTER TABLE "webhook_events" ADD COLUMN "relayed_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "webhook_events" ALTER COLUMN "relayed_at" DROP DEFAULT;--> statement-breakpoint
CREATE INDEX "webhook_events_unrelayed_idx" ON "webhook_events" USING btree ("created_at") WHERE "webhook_events"."relayed_at" is null;

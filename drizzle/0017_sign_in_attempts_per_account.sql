-- Failed sign-ins are counted per account (or per unknown email) from now on, no longer per email:
-- the per-email counts are dropped (a lock lasts 15 minutes at most) and the key becomes the subject.
DELETE FROM "sign_in_attempts";--> statement-breakpoint
ALTER TABLE "sign_in_attempts" DROP COLUMN "email_normalized";--> statement-breakpoint
ALTER TABLE "sign_in_attempts" ADD COLUMN "subject" text PRIMARY KEY NOT NULL;

-- One trigram index per list over its search document (lib/db/schema/columns.ts searchDocument):
-- the searched fields lower-cased in one text, separated by chr(1). A search reads one index
-- instead of one per field (4 for leads, 5 for customers): each of those scans read the tenant's
-- whole entry of its index, so a search of phone digits took four such scans (bench/RESULTS.md).
-- Writes keep one search index per row instead of four or five.
DROP INDEX "leads_name_trgm_idx";--> statement-breakpoint
DROP INDEX "leads_email_trgm_idx";--> statement-breakpoint
DROP INDEX "leads_phone_trgm_idx";--> statement-breakpoint
DROP INDEX "leads_phone_digits_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_full_name_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_company_name_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_email_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_phone_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_phone_digits_trgm_idx";--> statement-breakpoint
CREATE INDEX "leads_search_trgm_idx" ON "leads" USING gin ("company_id",lower(coalesce("name", '') || chr(1) || coalesce("email_normalized", '') || chr(1) || coalesce("phone", '') || chr(1) || coalesce("phone_normalized", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_search_trgm_idx" ON "customers" USING gin ("company_id",lower(coalesce("first_name", '') || ' ' || coalesce("last_name", '') || chr(1) || coalesce("company_name", '') || chr(1) || coalesce("email_normalized", '') || chr(1) || coalesce("phone", '') || chr(1) || coalesce("phone_normalized", '')) gin_trgm_ops);
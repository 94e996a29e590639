-- The search index by tenant without a company_id entry (bench/RESULTS.md).
-- 0010's index held trigrams (pg_trgm) and company_id (btree_gin) as separate keys of one GIN
-- index: every search read the tenant's whole company_id entry and intersected it with the
-- trigrams' postings, ~1M postings for the large tenant whatever the term finds (7.7 ms of the
-- 7.8 ms a phone search's count took). Here each key is a gram of the document hashed with its tenant
-- (search_grams), so a search reads the postings of its own grams in its own tenant, nothing else.
--   search_grams(tenant, text): the hash (hashtextextended, seeded by the tenant's) of every run
--   of 3 characters of the text (SEARCH_GRAM_LENGTH in lib/db/schema/columns.ts), in order,
--   repeats kept (GIN keeps each key once); none for a text of fewer than 3 characters. A text
--   containing a term holds every gram of the term, so `search_grams(co, document) @>
--   search_grams(co, term)` finds a superset of the term's matches in the tenant; the LIKE on the
--   document beside it is what makes the search exact (a hash shared by two grams or two tenants
--   only adds a candidate, which the LIKE and company_id drop).
-- hashtextextended is the hash that hash partitioning of text keys stores on disk, so PostgreSQL
-- keeps it the same across versions and platforms, as an index of it needs.
-- PL/pgSQL, not SQL: its statement is planned once per connection (a SQL function's body with a
-- FROM is planned on every call before PostgreSQL 18, once per row written).
-- Like the earlier migrations, the indexes are built inside the migration's transaction: lead and
-- customer writes wait while they build (2.5 minutes for 1M leads and 260k customers on a slow
-- 2-core machine).
CREATE OR REPLACE FUNCTION "search_grams"(tenant text, body text) RETURNS bigint[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
DECLARE
  seed bigint := hashtextextended(tenant, 0);
BEGIN
  RETURN ARRAY(SELECT hashtextextended(substr(body, i, 3), seed) FROM generate_series(1, length(body) - 2) AS i);
END $fn$;--> statement-breakpoint
DROP INDEX "leads_search_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "leads_search_grams_idx" ON "leads" USING gin (search_grams("company_id", lower(coalesce("name", '') || chr(1) || coalesce("email_normalized", '') || chr(1) || coalesce("phone", '') || chr(1) || coalesce("phone_normalized", ''))));--> statement-breakpoint
CREATE INDEX "customers_search_grams_idx" ON "customers" USING gin (search_grams("company_id", lower(coalesce("first_name", '') || ' ' || coalesce("last_name", '') || chr(1) || coalesce("company_name", '') || chr(1) || coalesce("email_normalized", '') || chr(1) || coalesce("phone", '') || chr(1) || coalesce("phone_normalized", ''))));
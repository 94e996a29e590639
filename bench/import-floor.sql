-- The database's own insert of 1,000,000 leads: the floor of any importer that keeps the schema's
-- indexes and triggers (bench/RESULTS.md, the floor section). One statement, no client work, no
-- parsing, no ON CONFLICT: the large tenant's own leads copied under new ids, timed, rolled back.
-- Run it on the large bench database after `npm run bench -- --scale large`, on a quiet machine:
--
--   psql postgres://postgres@127.0.0.1:5432/fcrm_bench_large -f bench/import-floor.sql
--
-- The tenant is the one with the most leads, or the one given with `-v company=<id>`.
--
-- The rolled-back rows leave the table and its indexes bloated: the script rewrites the table
-- before and after, so each run starts as the bench's import does (it rewrites `leads` after
-- its run) and leaves the table as it found it.
\set ON_ERROR_STOP on
-- psql has no "if not": the tenant is looked up only when -v company did not name one.
\if :{?company}
\else
select company_id as company from leads group by company_id order by count(*) desc limit 1 \gset
\endif
\echo copying the leads of :company
vacuum (full, analyze) leads;
\timing on
begin;
insert into leads (company_id, id, name, email, email_normalized, phone, phone_normalized,
  property_street1, property_street2, property_city, property_state, property_zip,
  property_country, priority, projected_value, value_score, service_type, lead_source, stage,
  tags, notes, follow_up_date, assigned_to, archived, archived_at, created_at, updated_at,
  latitude, longitude)
select company_id, 'lead_floor_' || id, name, email, email_normalized, phone, phone_normalized,
  property_street1, property_street2, property_city, property_state, property_zip,
  property_country, priority, projected_value, value_score, service_type, lead_source, stage,
  tags, notes, follow_up_date, assigned_to, archived, archived_at, created_at, updated_at,
  latitude, longitude
from leads
where company_id = :'company'
limit 1000000;
rollback;
\timing off
vacuum (full, analyze) leads;

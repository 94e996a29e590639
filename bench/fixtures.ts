import { walkCursorAt } from "@/lib/domain/lists/change-feed";
import { SCOPES } from "@/lib/values/scopes";
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from "@/lib/auth/secrets";
import { ID_PREFIX, newId } from "@/lib/ids";
import { buildCases, type BenchCase, type Fixtures } from "./cases";
import { ANCHOR_MS } from "./data/sql";
import { CITIES } from "./data/vocabulary";
import type { RawDb } from "./db";

const FIRST_CITY = CITIES[0]!;

/** Name of the keys the bench makes (the previous run's are deleted first). */
const KEY_NAME = "bench";

/**
 * Removes what earlier runs wrote through the API (leads created after the data's anchor, the
 * bench keys and their usage), so that every run starts from the generated data.
 */
export async function cleanUpEarlierRuns(db: RawDb, companyId: string): Promise<number> {
  const removed = await db.query<{ n: number }>(
    `with d as (delete from leads where company_id = $1 and created_at > $2 returning 1) select count(*)::int as n from d`,
    [companyId, new Date(ANCHOR_MS).toISOString()],
  );
  await db.query(`delete from api_keys where company_id = $1 and name = $2`, [companyId, KEY_NAME]);
  // Knocks logged by earlier runs (their visits go with them).
  await db.query(`delete from pins where company_id = $1 and created_at > $2`, [
    companyId,
    new Date(ANCHOR_MS).toISOString(),
  ]);
  // The activity entries of earlier runs' writes; the history the fixtures made stays (before the anchor).
  await db.query(`delete from record_activity where company_id = $1 and at > $2`, [
    companyId,
    new Date(ANCHOR_MS).toISOString(),
  ]);
  // Earlier runs leave dead rows and pages no longer all-visible, and autovacuum may be off or late,
  // so every run starts from vacuumed tables.
  for (const table of [
    "leads",
    "list_counts",
    "job_report_totals",
    "api_keys",
    "api_key_usage",
    "record_activity",
    "pins",
    "pin_visits",
  ])
    await db.query(`vacuum (analyze) ${table}`);
  return removed[0]?.n ?? 0;
}

/** An all-scopes key whose daily limit never interferes with a load. */
export async function createBenchKey(db: RawDb, companyId: string, name = KEY_NAME): Promise<string> {
  const key = generateApiKey();
  await db.query(
    `insert into api_keys (company_id, id, name, prefix, key_hash, scopes, daily_limit)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [companyId, newId(ID_PREFIX.apiKey), name, apiKeyDisplayPrefix(key), hashApiKey(key), [...SCOPES], 1e9],
  );
  return key;
}

/** The ids and values the cases need, read from the generated data of the large tenant. */
export async function readFixtures(db: RawDb, companyId: string, runTag: string): Promise<Fixtures> {
  const one = async (text: string): Promise<string> => {
    const rows = await db.query<{ v: string }>(text, [companyId]);
    const value = rows[0]?.v;
    if (!value) throw new Error(`bench fixtures: nothing found for ${text.replace(/\s+/g, " ")}`);
    return value;
  };
  // Ids spread over the whole table (every k-th row by its number, the id's last 12 hex digits).
  const spread = async (table: string, count: number): Promise<string[]> => {
    const [total] = await db.query<{ n: number }>(
      `select count(*)::int as n from ${table} where company_id = $1`,
      [companyId],
    );
    const step = Math.max(1, Math.floor((total?.n ?? 0) / count));
    const rows = await db.query<{ id: string }>(
      `select id from ${table} where company_id = $1 and id ~ '^[a-z]+_[0-9a-f]{26}$'
         and ('x' || right(id, 12))::bit(48)::bigint % $2 = 0
       order by id limit $3`,
      [companyId, step, count],
    );
    return rows.map((r) => r.id);
  };
  return {
    companyId,
    leadIds: await spread("leads", 1000),
    bulkLeadIds: await spread("leads", 10_000),
    customerIds: await spread("customers", 1000),
    // Seven digits in the middle of a real phone: found on digits alone, in the lead's own formatting.
    phoneDigits: await one(
      `select substr(phone_normalized, 3, 7) as v from leads
       where company_id = $1 and phone_normalized is not null and not archived order by id limit 1`,
    ),
    salesRepId: await one(
      `select sold_by as v from service_plans where company_id = $1 and sold_by is not null
       group by sold_by order by count(*) desc, sold_by limit 1`,
    ),
    pinTypeId: await one(`select id as v from pin_types where company_id = $1 and label = 'Callback'`),
    // The centre of the first city the generated pins are spread around.
    pinPoint: [FIRST_CITY[3], FIRST_CITY[4]],
    pinUserId: await one(
      `select created_by as v from pins where company_id = $1 group by created_by order by count(*) desc, created_by limit 1`,
    ),
    historyLeadId: await longHistory(db, companyId),
    leadFeedCursors: await feedCursors(db, companyId),
    runTag,
  };
}

/**
 * Change-feed cursors at 100 leads' places, spread over the walk (every k-th lead in change
 * order), as a page ending there would give them: the feed case reads the page after each.
 */
async function feedCursors(db: RawDb, companyId: string): Promise<string[]> {
  const rows = await db.query<{ xid: string; seq: string; id: string }>(
    `select xid, seq, id from (
       select change_xid::text as xid, change_seq::text as seq, id,
         row_number() over (order by change_xid, change_seq, id) as n,
         count(*) over () as total
       from leads where company_id = $1
     ) placed where n % greatest(total / 100, 1) = 0 limit 100`,
    [companyId],
  );
  return rows.map((at) => walkCursorAt("leads", {}, at));
}

/** The entries of the lead whose long history the activity case pages through. */
export const HISTORY_ENTRIES = 10_000;

/**
 * A lead with HISTORY_ENTRIES activity entries (notes, dated before the data's anchor so that a
 * run's clean-up keeps them), made once: the generated data has a created entry per lead at most.
 */
async function longHistory(db: RawDb, companyId: string): Promise<string> {
  const [lead] = await db.query<{ id: string; n: number }>(
    `select l.id, (select count(*)::int from record_activity a
       where a.company_id = l.company_id and a.record_type = 'lead' and a.record_id = l.id) as n
     from leads l where l.company_id = $1 order by l.created_at, l.id limit 1`,
    [companyId],
  );
  if (!lead) throw new Error("bench fixtures: no lead for the long history");
  if (lead.n < HISTORY_ENTRIES) {
    await db.query(
      `insert into record_activity (company_id, record_type, record_id, at, type, actor_kind, note)
       select $1, 'lead', $2, $3::timestamptz - make_interval(mins => g), 'note', 'import', 'Bench note ' || g
       from generate_series(1, $4::int) g`,
      [companyId, lead.id, new Date(ANCHOR_MS).toISOString(), HISTORY_ENTRIES - lead.n],
    );
    await db.query(`vacuum (analyze) record_activity`);
  }
  return lead.id;
}

/** Two digits the leads a run creates carry in their phones and emails, so that runs differ. */
export function newRunTag(): string {
  return String(Math.floor(Math.random() * 90) + 10);
}

/**
 * How every run on the bench data starts: what earlier runs wrote removed, a fresh bench key, and
 * the cases built on the data's fixtures (only those named in `only`, when given).
 */
export async function startRun(
  db: RawDb,
  companyId: string,
  runTag: string,
  only?: readonly string[],
): Promise<{ key: string; cases: BenchCase[]; removed: number }> {
  const removed = await cleanUpEarlierRuns(db, companyId);
  const key = await createBenchKey(db, companyId);
  const cases = buildCases(await readFixtures(db, companyId, runTag)).filter(
    (c) => !only || only.includes(c.id),
  );
  return { key, cases, removed };
}

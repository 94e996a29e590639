import type { RawDb } from "../db";
import { Progress } from "../progress";
import { SCALES, userTotal, type ScaleName, type TenantSize } from "../scales";
import { HELPER_FUNCTIONS_SQL } from "./sql";
import { TenantSql } from "./tenant-sql";

/** Bump when the generated data changes: a re-run then regenerates instead of re-using. */
export const GENERATOR_VERSION = 4;

/** The tables the generator fills (children first where it matters for truncation). */
export const DATA_TABLES = [
  "job_crew",
  "job_payments",
  "job_line_items",
  "job_visits",
  "jobs",
  "service_plans",
  "pin_visits",
  "pins",
  "pin_types",
  "leads",
  "customers",
  "api_key_usage",
  "api_keys",
  "sessions",
  "users",
  "companies",
] as const;

/**
 * The tables vacuumed after the load: the data tables and the numbers the schema's triggers keep
 * from them (list totals, the job report's sums).
 */
const VACUUMED_TABLES = [...DATA_TABLES, "list_counts", "job_report_totals"] as const;

/** Tables whose secondary indexes are dropped during the load and built once at the end (much faster). */
const INDEXED_TABLES = [
  "leads",
  "customers",
  "service_plans",
  "jobs",
  "job_visits",
  "job_line_items",
  "job_payments",
  "job_crew",
  "pins",
  "pin_visits",
];

export interface GenerateResult {
  reused: boolean;
  seconds: number;
  counts: Record<string, number>;
}

const META_SQL = [
  `create table if not exists bench.meta (
     scale text primary key, version int not null, generated_at timestamptz not null default now(),
     seconds double precision not null, counts jsonb not null)`,
  // Index definitions dropped for the load; a crashed load leaves them here to be rebuilt.
  `create table if not exists bench.dropped_indexes (name text primary key, def text not null)`,
];

const BATCH = 50_000;

function tenants(scaleName: ScaleName): TenantSql[] {
  const scale = SCALES[scaleName];
  const list = [new TenantSql(0, scale.large)];
  for (let t = 1; t <= scale.smallTenants; t++) list.push(new TenantSql(t, scale.small));
  return list;
}

/** The large tenant's statements and ids (the one the cases load). */
export function largeTenant(scaleName: ScaleName): TenantSql {
  return new TenantSql(0, SCALES[scaleName].large);
}

function mainRows(size: TenantSize): number {
  return size.leads + size.customers + size.servicePlans + size.jobs + size.pins;
}

async function rebuildDroppedIndexes(db: RawDb, progress?: Progress): Promise<void> {
  const dropped = await db.query<{ name: string; def: string }>(
    `select name, def from bench.dropped_indexes order by name`,
  );
  for (const { name, def } of dropped) {
    progress?.tick(0, `index ${name}`);
    const exists = await db.query(`select 1 from pg_indexes where schemaname = 'public' and indexname = $1`, [
      name,
    ]);
    if (exists.length === 0) await db.query(def);
    await db.query(`delete from bench.dropped_indexes where name = $1`, [name]);
    progress?.tick(1, `index ${name}`);
  }
}

async function dropSecondaryIndexes(db: RawDb): Promise<void> {
  const indexes = await db.query<{ name: string; def: string }>(
    `select i.relname as name, pg_get_indexdef(x.indexrelid) as def
       from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
       join pg_namespace s on s.oid = t.relnamespace
      where s.nspname = 'public' and t.relname = any($1) and not x.indisprimary and not x.indisunique`,
    [INDEXED_TABLES],
  );
  for (const { name, def } of indexes) {
    await db.query(`insert into bench.dropped_indexes (name, def) values ($1, $2) on conflict do nothing`, [
      name,
      def,
    ]);
    await db.query(`drop index if exists "${name}"`);
  }
}

/**
 * Fills a scale's bench database unless a run of the same generator version did. INSERT … SELECT
 * with foreign-key triggers off and indexes built at the end, then VACUUM ANALYZE.
 */
export async function generate(
  db: RawDb,
  scaleName: ScaleName,
  options: { quiet?: boolean } = {},
): Promise<GenerateResult> {
  const out = options.quiet ? quietStream() : process.stderr;
  const started = performance.now();
  for (const statement of [...HELPER_FUNCTIONS_SQL, ...META_SQL]) await db.query(statement);
  await rebuildDroppedIndexes(db);
  const marker = await db.query<{ version: number; seconds: number; counts: Record<string, number> }>(
    `select version, seconds, counts from bench.meta where scale = $1`,
    [scaleName],
  );
  if (marker[0] && marker[0].version === GENERATOR_VERSION) {
    return { reused: true, seconds: marker[0].seconds, counts: marker[0].counts };
  }

  await db.query(`delete from bench.meta`);
  await db.query(`truncate ${DATA_TABLES.join(", ")} cascade`);
  await dropSecondaryIndexes(db);
  if (db.engine === "postgres") {
    await db.query(`set synchronous_commit = off`);
    await db.query(`set maintenance_work_mem = '256MB'`);
  }
  // Foreign-key checks off (replica role: the data is consistent by construction), but the
  // schema's own triggers on (ENABLE ALWAYS): they keep derived columns such as the job totals.
  const triggers = await db.query<{ tbl: string; name: string }>(
    `select c.relname as tbl, t.tgname as name from pg_trigger t
       join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and not t.tgisinternal and t.tgenabled = 'O' and c.relname = any($1)`,
    [[...DATA_TABLES]],
  );
  for (const t of triggers) await db.query(`alter table "${t.tbl}" enable always trigger "${t.name}"`);
  await db.query(`set session_replication_role = replica`);

  const all = tenants(scaleName);
  const total = all.reduce((sum, t) => sum + mainRows(t.size), 0);
  const progress = new Progress(`generate ${scaleName}`, total, "rows", out);
  try {
    for (const tenant of all) {
      const label = tenant.tenant === 0 ? "large tenant" : `tenant ${tenant.tenant}`;
      await db.query(tenant.company());
      await db.query(tenant.users());
      await db.query(tenant.pinTypes());
      const s = tenant.size;
      const tables: [string, number, (lo: number, hi: number) => string[]][] = [
        ["leads", s.leads, (lo, hi) => [tenant.leads(lo, hi)]],
        ["customers", s.customers, (lo, hi) => [tenant.customers(lo, hi)]],
        ["service plans", s.servicePlans, (lo, hi) => [tenant.servicePlans(lo, hi)]],
        [
          "jobs",
          s.jobs,
          (lo, hi) => [
            tenant.jobs(lo, hi),
            tenant.jobVisits(lo, hi),
            tenant.jobLineItems(lo, hi),
            tenant.jobPayments(lo, hi),
            tenant.jobCrew(lo, hi),
          ],
        ],
        ["pins", s.pins, (lo, hi) => [tenant.pins(lo, hi)]],
      ];
      for (const [name, count, statements] of tables) {
        const batch = name === "jobs" ? BATCH / 2 : BATCH;
        for (let lo = 1; lo <= count; lo += batch) {
          const hi = Math.min(count, lo + batch - 1);
          progress.tick(0, `${label}: ${name}`);
          for (const statement of statements(lo, hi)) await db.query(statement);
          progress.tick(hi - lo + 1, `${label}: ${name}`);
        }
      }
    }
  } finally {
    await db.query(`set session_replication_role = origin`);
    for (const t of triggers) await db.query(`alter table "${t.tbl}" enable trigger "${t.name}"`);
  }
  progress.finish("rows written");
  // The triggers left dead rows behind the folded counters and sums: rewrite the tables compactly,
  // as a restored database would be, before the indexes are built.
  for (const table of VACUUMED_TABLES) await db.query(`vacuum (full) ${table}`);

  const [pending] = await db.query<{ n: number }>(`select count(*)::int as n from bench.dropped_indexes`);
  const indexes = new Progress(`indexes ${scaleName}`, pending?.n ?? 0, "indexes", out);
  await rebuildDroppedIndexes(db, indexes);
  indexes.finish("built");
  for (const table of VACUUMED_TABLES) await db.query(`vacuum (analyze) ${table}`);

  const counts: Record<string, number> = {};
  for (const table of DATA_TABLES) {
    const [row] = await db.query<{ n: string }>(`select count(*)::text as n from ${table}`);
    counts[table] = Number(row?.n ?? 0);
  }
  const seconds = (performance.now() - started) / 1000;
  await db.query(`insert into bench.meta (scale, version, seconds, counts) values ($1, $2, $3, $4)`, [
    scaleName,
    GENERATOR_VERSION,
    seconds,
    JSON.stringify(counts),
  ]);
  return { reused: false, seconds, counts };
}

/** A stream that drops what it is given (tests). */
function quietStream(): NodeJS.WriteStream {
  return { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;
}

/** Expected user count of the large tenant (fixtures check it). */
export function largeTenantUsers(scaleName: ScaleName): number {
  return userTotal(SCALES[scaleName].large.users);
}

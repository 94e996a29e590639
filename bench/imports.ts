// Only the bench's import measurements, without the data set, the cases or the servers:
//   npx tsx --conditions=react-server bench/imports.ts [--leads n] [--csv-leads n] [--database-url url]
// --leads 0 or --csv-leads 0 skips that one. The database (default fcrm_bench_imports on the local
// server, made when missing) is migrated first; each import goes into its own tenant, removed after.
import { parseArgs } from "node:util";
import pg from "pg";
import { measureCsvImport } from "./csv-import-bench";
import { DEFAULT_SERVER_URL, openRawDb } from "./db";
import { measureImport } from "./import-bench";
import { uptime } from "./machine";

async function ensureDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const server = new URL(url);
  server.pathname = "/postgres";
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query(`select 1 from pg_database where datname = $1`, [name]);
    if (rowCount === 0) await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      leads: { type: "string", default: "1000000" },
      "csv-leads": { type: "string" },
      "database-url": { type: "string" },
    },
    strict: true,
  });
  const count = (name: string, value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
    return n;
  };
  const leads = count("leads", values.leads);
  const csvLeads = count("csv-leads", values["csv-leads"] ?? values.leads);
  const url =
    values["database-url"] ??
    process.env.BENCH_DATABASE_URL ??
    DEFAULT_SERVER_URL.replace(/\/postgres$/, "/fcrm_bench_imports");
  await ensureDatabase(url);
  const raw = await openRawDb({ kind: "postgres", url });
  try {
    const loadBefore = uptime();
    const json = leads > 0 ? await measureImport(raw.database.db, raw, leads) : undefined;
    const csv = csvLeads > 0 ? await measureCsvImport(raw.database.db, raw, csvLeads) : undefined;
    console.log(
      JSON.stringify({ date: new Date().toISOString(), loadBefore, loadAfter: uptime(), json, csv }, null, 2),
    );
    return csv?.note ? 1 : 0;
  } finally {
    await raw.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

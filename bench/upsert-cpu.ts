// CPU and statements per create-or-update call, in-process, calling upsertLead and upsertCustomer
// directly on a fresh tenant; a tool for comparing data-layer versions, not part of `npm run bench`.
//
//   npx tsx --conditions=react-server bench/upsert-cpu.ts                      # PGlite in memory
//   npx tsx --conditions=react-server bench/upsert-cpu.ts postgres://postgres@127.0.0.1:5432/postgres  # own temp database
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import type { PGlite } from "@electric-sql/pglite";
import { openDatabase, type Database, type Db } from "@/lib/db/client";
import { upsertCustomer } from "@/lib/domain/customers";
import { upsertLead } from "@/lib/domain/leads";
import { upsertCustomerBodySchema } from "@/lib/schemas/customers";
import { upsertLeadBodySchema } from "@/lib/schemas/leads";
import { createCompany, testKeyPrincipal } from "@/lib/testing/factories";
import { StatementRecorder, capturingDatabase } from "./capture";
import { median } from "./load";

type Kind = "create" | "update-id" | "update-phone" | "update-email";
const KINDS: Kind[] = ["create", "update-id", "update-phone", "update-email"];
/** Calls per kind and resource: 2,000 lead calls, 1,000 customer calls. */
const CALLS: Record<Kind, number> = {
  create: 800,
  "update-id": 400,
  "update-phone": 400,
  "update-email": 400,
};
const CUSTOMER_SHARE = 0.5;
const ROUNDS = 8;
const ms = (value: number) => value.toFixed(3);

interface Made {
  id: string;
  digits: string;
  email: string;
}

async function open(
  serverUrl: string | undefined,
): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (!serverUrl) {
    const database = await openDatabase({ kind: "pglite-memory" });
    await database.migrate();
    return { database, drop: () => database.close() };
  }
  const name = `upsert_cpu_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString() });
  await database.migrate();
  return {
    database,
    async drop() {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}

type Resource = "leads" | "customers";

/**
 * PostgreSQL only: the CPU time of the database's server processes serving our pool (from
 * /proc/<pid>/stat, clock ticks: 10 ms resolution, so it is summed over all rounds of a kind).
 */
async function backendCpu(database: Database) {
  if (database.target.kind !== "postgres") return undefined;
  const admin = new pg.Client({ connectionString: database.target.url });
  await admin.connect();
  const tick = 1000 / 100;
  const cpuMs = async (): Promise<Map<number, number>> => {
    const { rows } = await admin.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    const out = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        out.set(pid, (Number(fields[11]) + Number(fields[12])) * tick);
      } catch {
        // The backend ended meanwhile.
      }
    }
    return out;
  };
  return {
    cpuMs,
    since(before: Map<number, number>, after: Map<number, number>): number {
      let sum = 0;
      for (const [pid, value] of after) sum += value - (before.get(pid) ?? value);
      return sum;
    },
    close: () => admin.end(),
  };
}

function bodyFor(resource: Resource, kind: Kind, i: number, made: Made[], run: string): unknown {
  const target = made[i % Math.max(made.length, 1)];
  const digits = `7${run}${String(i).padStart(6, "0")}`;
  switch (kind) {
    case "create": {
      const email = `cpu.${run}.${i}@bench.example`;
      const phone = `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
      return resource === "leads"
        ? {
            name: `Cpu Lead ${i}`,
            phone,
            email,
            source: "Website",
            stage: "new",
            service_type: "General Pest",
            tags: ["bench"],
            address_city: "Austin",
            address_state: "TX",
          }
        : {
            first_name: "Cpu",
            last_name: `Customer ${i}`,
            phone,
            email,
            source: "Website",
            property_city: "Austin",
            property_state: "TX",
            billing_same_as_property: i % 2 === 0,
            tags: ["bench"],
          };
    }
    case "update-id":
      return { id: target!.id, tags: ["bench-updated"], stage: "contacted", notes: `n${i}` };
    case "update-phone":
      return { phone: `+1 ${target!.digits}`, tags: [`p${i % 3}`], notes: `p${i}` };
    case "update-email":
      return { email: target!.email.toUpperCase(), tags: ["e"], notes: `e${i}` };
  }
}

async function call(db: Db, companyId: string, resource: Resource, body: unknown): Promise<Made> {
  if (resource === "leads") {
    const { lead } = await upsertLead({
      ctx: { db, companyId, principal: testKeyPrincipal(companyId) },
      input: upsertLeadBodySchema.parse(body),
    });
    return { id: lead.id, digits: (lead.phone ?? "").replace(/\D/g, ""), email: lead.email ?? "" };
  }
  const input = upsertCustomerBodySchema.parse(body);
  const { customer } = await upsertCustomer({
    ctx: { db, companyId, principal: testKeyPrincipal(companyId) },
    input,
  });
  return { id: customer.id, digits: (customer.phone ?? "").replace(/\D/g, ""), email: customer.email ?? "" };
}

async function main(): Promise<void> {
  process.env.LOG_LEVEL = "silent";
  const serverUrl = process.argv[2];
  const { database, drop } = await open(serverUrl);
  try {
    const { id: companyId } = await createCompany(database.db);
    const run = String(Date.now() % 1000).padStart(3, "0");
    const rows: string[] = [];
    const backends = serverUrl ? await backendCpu(database) : undefined;
    for (const resource of ["leads", "customers"] as const) {
      const scale = resource === "leads" ? 1 : CUSTOMER_SHARE;
      const made: Made[] = [];
      // Warm-up: JIT, pool connections, plan caches (not measured).
      for (let i = 0; i < 200; i++)
        await call(database.db, companyId, resource, bodyFor(resource, "create", 900_000 + i, made, run));
      // Rounds of every kind, one after the other: a busy machine slows some rounds; the best
      // and the median round are reported.
      const perCall: Record<Kind, { cpu: number[]; wall: number[]; dbMs: number }> = {
        create: { cpu: [], wall: [], dbMs: 0 },
        "update-id": { cpu: [], wall: [], dbMs: 0 },
        "update-phone": { cpu: [], wall: [], dbMs: 0 },
        "update-email": { cpu: [], wall: [], dbMs: 0 },
      };
      for (let round = 0; round < ROUNDS; round++) {
        for (const kind of KINDS) {
          const n = Math.round((CALLS[kind] * scale) / ROUNDS);
          const offset = round * 100_000;
          const bodies = Array.from({ length: n }, (_, i) => bodyFor(resource, kind, offset + i, made, run));
          const dbBefore = await backends?.cpuMs();
          const cpu = process.cpuUsage();
          const started = performance.now();
          for (const body of bodies) {
            const result = await call(database.db, companyId, resource, body);
            if (kind === "create") made.push(result);
          }
          const wall = performance.now() - started;
          const used = process.cpuUsage(cpu);
          if (backends && dbBefore) perCall[kind].dbMs += backends.since(dbBefore, await backends.cpuMs());
          perCall[kind].cpu.push((used.user + used.system) / 1000 / n);
          perCall[kind].wall.push(wall / n);
        }
      }
      for (const kind of KINDS) {
        const { cpu, wall, dbMs } = perCall[kind];
        const n = Math.round(CALLS[kind] * scale);
        const db = backends ? ms(dbMs / (Math.round((CALLS[kind] * scale) / ROUNDS) * ROUNDS)) : "-";
        rows.push(
          `| ${database.engine} | ${resource} | ${kind} | ${n} | ${ms(Math.min(...cpu))} | ${ms(median(cpu))} | ${ms(median(wall))} | ${db} |`,
        );
      }
      // Statements per call, untimed: the same kinds of calls through a recording driver.
      const recorder = new StatementRecorder();
      const pglite = (database.db as unknown as { $client: PGlite }).$client;
      const capturing = await capturingDatabase(
        database.target,
        recorder,
        database.engine === "pglite" ? pglite : undefined,
      );
      try {
        for (const kind of KINDS) {
          const { statements } = await recorder.record(() =>
            call(capturing.db, companyId, resource, bodyFor(resource, kind, 5_000 + made.length, made, run)),
          );
          rows.push(
            `|  | ${resource} | ${kind}: statements | ${statements.length} | ${statements.map((s) => s.text.trim().split(/\s+/)[0]).join(" ")} | | | |`,
          );
        }
      } finally {
        await capturing.close();
      }
    }
    console.log(
      "| engine | resource | kind | calls | CPU ms/call, best round | median round | wall ms/call, median | DB backend CPU ms/call |",
    );
    console.log("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |");
    for (const row of rows) console.log(row);
    await backends?.close();
  } finally {
    await drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

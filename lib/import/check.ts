import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/lib/db/client";
import {
  apiKeys,
  companies,
  customers,
  jobLineItems,
  jobPayments,
  pinTypes,
  servicePlans,
  users,
} from "@/lib/db/schema";
import { normalizeEmail } from "@/lib/values/normalize";
import type { ParsedDocument, SectionName } from "./format";
import type { ParsedRecords } from "./parse";
import type { ImportProblem, ProblemPath } from "./problems";
import { apiKeyRowId, childId, type PreparedIds } from "./ids";

/** Kinds of record that other records refer to, with the words used in messages. */
const TARGETS = {
  companies: { noun: "company", table: companies, idColumn: companies.id, companyColumn: companies.id },
  users: { noun: "user", table: users, idColumn: users.id, companyColumn: users.companyId },
  customers: {
    noun: "customer",
    table: customers,
    idColumn: customers.id,
    companyColumn: customers.companyId,
  },
  service_plans: {
    noun: "service plan",
    table: servicePlans,
    idColumn: servicePlans.id,
    companyColumn: servicePlans.companyId,
  },
  pin_types: { noun: "pin type", table: pinTypes, idColumn: pinTypes.id, companyColumn: pinTypes.companyId },
} as const;
type Target = keyof typeof TARGETS;

/** Fields that name another record of the same company (`crew` is a list of them). */
const REFERENCES: Partial<Record<SectionName, { field: string; target: Target }[]>> = {
  pins: [
    { field: "pin_type_id", target: "pin_types" },
    { field: "created_by", target: "users" },
  ],
  leads: [{ field: "assigned_to", target: "users" }],
  service_plans: [
    { field: "customer_id", target: "customers" },
    { field: "sold_by", target: "users" },
  ],
  jobs: [
    { field: "customer_id", target: "customers" },
    { field: "service_plan_id", target: "service_plans" },
    { field: "assigned_to", target: "users" },
    { field: "crew", target: "users" },
  ],
};

const LOOKUP_CHUNK = 5000;

async function lookup(
  db: DbOrTx,
  table: PgTable,
  idColumn: PgColumn,
  companyColumn: PgColumn,
  ids: string[],
): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += LOOKUP_CHUNK) {
    const rows = await db
      .select({ id: idColumn, companyId: companyColumn })
      .from(table)
      .where(inArray(idColumn, unique.slice(i, i + LOOKUP_CHUNK)));
    for (const row of rows) {
      const id = String(row.id);
      if (!found.has(id)) found.set(id, new Set());
      found.get(id)!.add(String(row.companyId));
    }
  }
  return found;
}

interface PendingRef {
  target: Target;
  companyId: string;
  id: string;
  path: ProblemPath;
}

/**
 * Checks what shape alone cannot: duplicate ids, same-company references, unique emails and keys.
 * Runs in file order inside the import's transaction, so a reference meets every earlier record.
 */
export class DocumentChecker {
  // (company, id) of every record of the file so far, by kind; invalid records count as present.
  private readonly inFile = new Map<Target, Map<string, Set<string>>>(
    (Object.keys(TARGETS) as Target[]).map((t) => [t, new Map()]),
  );
  // Duplicate ids within a section: the first index of each (company, id).
  private readonly seen = new Map<SectionName, Map<string, number>>();

  constructor(
    private readonly db: DbOrTx,
    private readonly ids: PreparedIds,
    private readonly beforeQuery: () => Promise<void> = async () => {},
  ) {}

  private addToFile(target: Target, companyId: string, id: string) {
    const byId = this.inFile.get(target)!;
    if (!byId.has(id)) byId.set(id, new Set());
    byId.get(id)!.add(companyId);
  }

  async check(parsed: ParsedRecords): Promise<ImportProblem[]> {
    const { section } = parsed;
    const problems: ImportProblem[] = [];
    for (const record of parsed.invalidRecords) {
      if (record.section in TARGETS) this.addToFile(record.section as Target, record.companyId, record.id);
    }
    if (section === "companies")
      for (const { record } of parsed.entries as ParsedDocument["companies"])
        this.addToFile("companies", record.id, record.id);

    if (section !== "api_keys") {
      let seen = this.seen.get(section);
      if (!seen) this.seen.set(section, (seen = new Map()));
      for (const { index, record } of parsed.entries as ParsedDocument[IdSection]) {
        const companyId = "company_id" in record ? record.company_id : record.id;
        const id = this.ids.recordId(section, index);
        const key = `${companyId}\u0000${id}`;
        const first = seen.get(key);
        if (first !== undefined)
          problems.push({ path: [section, index, "id"], message: `duplicate of ${section}[${first}]` });
        else seen.set(key, index);
        if (section !== "companies" && section in TARGETS) this.addToFile(section as Target, companyId, id);
      }
    }

    const pending: PendingRef[] = [];
    const ref = (target: Target, companyId: string, id: string | null | undefined, path: ProblemPath) => {
      if (id == null) return;
      if (this.inFile.get(target)!.get(id)?.has(companyId)) return;
      pending.push({ target, companyId, id, path });
    };
    for (const r of parsed.references) {
      ref("companies", r.companyId, r.companyId, [r.section, r.index, "company_id"]);
      for (const { field, target } of REFERENCES[r.section] ?? []) {
        if (r.failed.has(field)) continue;
        const value = r.fields[field];
        if (typeof value === "string") ref(target, r.companyId, value.trim(), [r.section, r.index, field]);
        else if (Array.isArray(value))
          value.forEach((v: unknown, i) => {
            if (typeof v === "string") ref(target, r.companyId, v.trim(), [r.section, r.index, field, i]);
          });
      }
    }
    const special = section === "users" || section === "api_keys" || section === "jobs";
    if (pending.length === 0 && !(special && parsed.entries.length > 0)) return problems;
    await this.beforeQuery();

    // What the file does not hold is looked up in the database, one query per kind and chunk.
    for (const target of Object.keys(TARGETS) as Target[]) {
      const refs = pending.filter((p) => p.target === target);
      if (refs.length === 0) continue;
      const { table, idColumn, companyColumn, noun } = TARGETS[target];
      const inDb = await lookup(
        this.db,
        table,
        idColumn,
        companyColumn,
        refs.map((r) => r.id),
      );
      for (const r of refs) {
        if (inDb.get(r.id)?.has(r.companyId)) continue;
        const elsewhere = inDb.has(r.id) || this.inFile.get(target)!.has(r.id);
        problems.push({
          path: r.path,
          message: elsewhere ? `${noun} "${r.id}" belongs to another company` : `${noun} "${r.id}" not found`,
        });
      }
    }

    // These look at a whole section: importDocument never slices users, api_keys or jobs.
    let found: ImportProblem[] = [];
    if (section === "users")
      found = await checkUserEmails(this.db, parsed.entries as ParsedDocument["users"], this.ids);
    else if (section === "api_keys")
      found = await checkApiKeys(this.db, parsed.entries as ParsedDocument["api_keys"], this.ids);
    else if (section === "jobs")
      found = await checkJobChildren(this.db, parsed.entries as ParsedDocument["jobs"], this.ids);
    for (const problem of found) problems.push(problem);
    return problems;
  }
}

type IdSection = Exclude<SectionName, "api_keys">;

/** A user's email signs them in: one user per email, across companies. */
async function checkUserEmails(
  db: DbOrTx,
  entries: ParsedDocument["users"],
  ids: PreparedIds,
): Promise<ImportProblem[]> {
  const problems: ImportProblem[] = [];
  const owners = new Map<string, { index: number; companyId: string; id: string }>();
  for (const { index, record } of entries) {
    const email = normalizeEmail(record.email)!;
    const id = ids.recordId("users", index);
    const first = owners.get(email);
    if (first && (first.companyId !== record.company_id || first.id !== id))
      problems.push({ path: ["users", index, "email"], message: `already used by users[${first.index}]` });
    else if (!first) owners.set(email, { index, companyId: record.company_id, id });
  }
  const emails = [...owners.keys()];
  for (let i = 0; i < emails.length; i += LOOKUP_CHUNK) {
    const rows = await db
      .select({ companyId: users.companyId, id: users.id, email: users.emailNormalized })
      .from(users)
      .where(inArray(users.emailNormalized, emails.slice(i, i + LOOKUP_CHUNK)));
    for (const row of rows) {
      const owner = owners.get(row.email);
      if (owner && (owner.companyId !== row.companyId || owner.id !== row.id))
        problems.push({
          path: ["users", owner.index, "email"],
          message: `already used by another user ("${row.id}")`,
        });
    }
  }
  return problems;
}

/**
 * Keys are found by their hash alone, so a key may exist once. A key already stored for the same
 * company (for instance made by apikey:create) is updated in place.
 */
async function checkApiKeys(
  db: DbOrTx,
  entries: ParsedDocument["api_keys"],
  ids: PreparedIds,
): Promise<ImportProblem[]> {
  const problems: ImportProblem[] = [];
  const seen = new Map<string, number>();
  for (const { index } of entries) {
    const hash = ids.apiKeyHash(index);
    const first = seen.get(hash);
    if (first !== undefined)
      problems.push({ path: ["api_keys", index, "key"], message: `same key as api_keys[${first}]` });
    else seen.set(hash, index);
  }
  const hashes = [...seen.keys()];
  for (let i = 0; i < hashes.length; i += LOOKUP_CHUNK) {
    const rows = await db
      .select({ companyId: apiKeys.companyId, id: apiKeys.id, keyHash: apiKeys.keyHash })
      .from(apiKeys)
      .where(inArray(apiKeys.keyHash, hashes.slice(i, i + LOOKUP_CHUNK)));
    for (const row of rows) {
      const index = seen.get(row.keyHash)!;
      const record = entries.find((k) => k.index === index)!.record;
      if (row.companyId !== record.company_id)
        problems.push({ path: ["api_keys", index, "key"], message: "already in use by another company" });
      else if (row.id !== apiKeyRowId(row.keyHash)) ids.useExistingApiKeyId(index, row.id);
    }
  }
  return problems;
}

/**
 * Line items and payments may carry their own ids. A job's children are replaced on import, so an
 * id may move within the file's jobs, but not take over a row of a job the file does not replace.
 */
async function checkJobChildren(
  db: DbOrTx,
  entries: ParsedDocument["jobs"],
  ids: PreparedIds,
): Promise<ImportProblem[]> {
  const problems: ImportProblem[] = [];
  for (const [kind, table] of [
    ["line_items", jobLineItems],
    ["payments", jobPayments],
  ] as const) {
    const seen = new Map<string, string>();
    const byCompany = new Map<string, { id: string; path: ProblemPath }[]>();
    const replaced = new Set<string>();
    for (const { index, record: job } of entries) {
      const jobId = ids.recordId("jobs", index);
      const children = job[kind];
      if (!children) continue;
      replaced.add(`${job.company_id}\u0000${jobId}`);
      children.forEach((child, i) => {
        const id = child.id ?? childId(jobId, kind, i);
        const key = `${job.company_id}\u0000${id}`;
        const path: ProblemPath = ["jobs", index, kind, i, "id"];
        const first = seen.get(key);
        if (first !== undefined) {
          problems.push({ path, message: `duplicate of ${first}` });
          return;
        }
        seen.set(key, `jobs[${index}].${kind}[${i}]`);
        if (child.id) {
          if (!byCompany.has(job.company_id)) byCompany.set(job.company_id, []);
          byCompany.get(job.company_id)!.push({ id, path });
        }
      });
    }
    for (const [companyId, wanted] of byCompany) {
      for (let i = 0; i < wanted.length; i += LOOKUP_CHUNK) {
        const chunk = wanted.slice(i, i + LOOKUP_CHUNK);
        const rows = await db
          .select({ id: table.id, jobId: table.jobId })
          .from(table)
          .where(
            and(
              eq(table.companyId, companyId),
              inArray(
                table.id,
                chunk.map((c) => c.id),
              ),
            ),
          );
        const owner = new Map(rows.map((r) => [r.id, r.jobId]));
        for (const c of chunk) {
          const jobId = owner.get(c.id);
          if (jobId !== undefined && !replaced.has(`${companyId}\u0000${jobId}`))
            problems.push({ path: c.path, message: `already used by job "${jobId}"` });
        }
      }
    }
  }
  return problems;
}

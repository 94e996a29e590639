import "server-only";
import { getTableColumns } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { customers, leads, type ImportRecordType } from "@/lib/db/schema";
import {
  billingAfterUpdate,
  customerColumns,
  newCustomerColumns,
  toCustomerDetail,
  type DetailedCustomerRow,
} from "@/lib/domain/customers/customer-record";
import { CUSTOMER_ACTIVITY_IGNORED, NEW_CUSTOMER_NEEDS } from "@/lib/domain/customers/upsert-customer";
import { leadColumns, toLead, type LeadRecordRow } from "@/lib/domain/leads/lead-record";
import {
  fieldsOfBody,
  LEAD_ACTIVITY_IGNORED,
  NEW_LEAD_NEEDS,
  withStageOf,
} from "@/lib/domain/leads/upsert-lead";
import type { MatchKeys } from "@/lib/domain/upsert/upsert-record";
import type { UpsertCustomerBody } from "@/lib/schemas/customers";
import type { UpsertLeadBody } from "@/lib/schemas/leads";
import type { Stage } from "@/lib/schemas/pipeline";
import { TAGS_MAX } from "@/lib/schemas/upsert-fields";
import { normalizeEmail, normalizePhone, uniqueTags } from "@/lib/values/normalize";

/*
 * A CSV row as POST /leads or POST /customers would take it: the same column builders and the same
 * refusals, so an import stores exactly what the same rows sent one by one would.
 */

/** A stored (or to be stored) lead or customer, by Drizzle column key. */
export type RecordState = Record<string, unknown> & {
  id: string;
  phoneNormalized: string | null;
  emailNormalized: string | null;
  tags: string[];
};

/** What a row asks: how it matches, what an update sets, what a create inserts, the tags it adds. */
export interface PreparedRow {
  keys: MatchKeys;
  /** The columns of the fields present in the row. */
  update: Record<string, unknown>;
  /** Every column of a new record (absent fields null), id, company and tags left out. */
  create: Record<string, unknown>;
  tags: string[];
}

/** A refusal of the row as the API would refuse the same body: the field and why. */
export interface FieldRefusal {
  field: string | null;
  reason: string;
}

export interface RecordKind {
  type: ImportRecordType;
  table: typeof leads | typeof customers;
  recordType: "lead" | "customer";
  noun: "lead" | "customer";
  /** Columns a create or update writes besides company, id, tags and times. */
  columns: readonly string[];
  prepare(input: unknown): PreparedRow | FieldRefusal[];
  /** The record after an update of `stored` with a row's `update` columns (tags merged). */
  updated(stored: RecordState, row: PreparedRow): RecordState | FieldRefusal[];
  /** The record as its API answers it (what activity compares). */
  answer(state: RecordState): Record<string, unknown>;
  /** Answer fields an update's activity leaves out. */
  ignore: ReadonlySet<string>;
}

/** What the lead rules need of the company: its pipeline and its users. */
export interface CompanyRules {
  pipeline: readonly Stage[];
  userIds: ReadonlySet<string>;
}

/** Dollars as numeric(12,2) stores them: rounded to cents, half away from zero. */
export function moneyAsStored(value: number): number {
  const text = Math.abs(value).toFixed(6);
  const [whole, fraction = ""] = text.split(".");
  let cents = BigInt(whole!) * 100n + BigInt(fraction.slice(0, 2).padEnd(2, "0"));
  if (Number(fraction[2] ?? "0") >= 5) cents += 1n;
  const rounded = Number(cents) / 100;
  return value < 0 ? -rounded : rounded;
}

/** The columns of a table's record under their SQL names, as recordFields selects them. */
function sqlNamed(table: typeof leads | typeof customers) {
  const names = Object.entries(getTableColumns(table) as Record<string, PgColumn>).map(
    ([key, column]) => [key, column.name] as const,
  );
  return (state: RecordState) => {
    const row: Record<string, unknown> = {};
    for (const [key, name] of names) row[name] = state[key] ?? null;
    return row;
  };
}

/** Tags merged as create-or-update merges them, or the refusal when they would be too many. */
function mergeTags(
  stored: readonly string[],
  added: readonly string[],
  noun: string,
): { tags: string[] } | { refusals: FieldRefusal[] } {
  const merged = [...stored, ...added.filter((tag) => !stored.includes(tag))];
  if (merged.length <= TAGS_MAX) return { tags: merged };
  const reason = `a ${noun} can have at most ${TAGS_MAX} tags (${merged.length} after merging)`;
  return { refusals: [{ field: "tags", reason }] };
}

function leadKind(rules: CompanyRules): RecordKind {
  const named = sqlNamed(leads);
  const allFields = Object.keys(leadColumns({}, "null"));
  return {
    type: "leads",
    table: leads,
    recordType: "lead",
    noun: "lead",
    columns: allFields,
    prepare(raw) {
      const input = raw as UpsertLeadBody;
      const keys = { id: input.id, phone: normalizePhone(input.phone), email: normalizeEmail(input.email) };
      const given = fieldsOfBody(input);
      const fields = given.stage !== undefined ? withStageOf(rules.pipeline, given) : given;
      const update: Record<string, unknown> = leadColumns(fields, "kept");
      const refusals: FieldRefusal[] = [];
      if (keys.id === undefined && !keys.phone && !keys.email && !update.name && !input.phone) {
        refusals.push({ field: null, reason: NEW_LEAD_NEEDS });
      }
      if (input.assigned_to != null && !rules.userIds.has(input.assigned_to)) {
        refusals.push({ field: "assigned_to", reason: "must be a user id of the company or null" });
      }
      if (refusals.length > 0) return refusals;
      const create: Record<string, unknown> = leadColumns(fields, "null");
      for (const values of [update, create]) {
        if (typeof values.projectedValue === "number") {
          values.projectedValue = moneyAsStored(values.projectedValue);
        }
      }
      return { keys, update, create, tags: uniqueTags(input.tags ?? []) };
    },
    updated(stored, row) {
      const merged = mergeTags(stored.tags, row.tags, "lead");
      if ("refusals" in merged) return merged.refusals;
      return { ...stored, ...row.update, tags: merged.tags };
    },
    answer: (state) => toLead(named(state) as unknown as LeadRecordRow) as Record<string, unknown>,
    ignore: LEAD_ACTIVITY_IGNORED,
  };
}

function customerKind(): RecordKind {
  const named = sqlNamed(customers);
  const allFields = Object.keys(customerColumns({}, "null"));
  return {
    type: "customers",
    table: customers,
    recordType: "customer",
    noun: "customer",
    columns: allFields,
    prepare(raw) {
      const input = raw as UpsertCustomerBody;
      const keys = { id: input.id, phone: normalizePhone(input.phone), email: normalizeEmail(input.email) };
      const update: Record<string, unknown> = customerColumns(input, "kept");
      if (
        keys.id === undefined &&
        !keys.phone &&
        !keys.email &&
        !update.firstName &&
        !update.lastName &&
        !update.companyName &&
        !input.phone
      ) {
        return [{ field: null, reason: NEW_CUSTOMER_NEEDS }];
      }
      const create: Record<string, unknown> = newCustomerColumns(input);
      return { keys, update, create, tags: uniqueTags(input.tags ?? []) };
    },
    updated(stored, row) {
      const merged = mergeTags(stored.tags, row.tags, "customer");
      if ("refusals" in merged) return merged.refusals;
      const billing = billingAfterUpdate(row.update, stored as unknown as typeof customers.$inferSelect);
      return { ...stored, ...row.update, ...billing, tags: merged.tags };
    },
    answer: (state) =>
      toCustomerDetail(named(state) as unknown as DetailedCustomerRow) as unknown as Record<string, unknown>,
    ignore: CUSTOMER_ACTIVITY_IGNORED,
  };
}

/** The rules of the import's type. */
export function recordKind(type: ImportRecordType, rules: CompanyRules): RecordKind {
  return type === "leads" ? leadKind(rules) : customerKind();
}

/** Whether two column values are the same stored value (dates by instant, arrays by content). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a == null || b == null) return a == null && b == null;
  if (a instanceof Date || b instanceof Date) {
    const time = (v: unknown) => (v instanceof Date ? v.getTime() : new Date(String(v)).getTime());
    return time(a) === time(b);
  }
  if (typeof a === "number" || typeof b === "number") return Number(a) === Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((value, i) => sameValue(value, b[i]));
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

import "server-only";
import type { z } from "zod";
import { upsertCustomerBodySchema, type UpsertCustomerBody } from "@/lib/schemas/customers";
import { upsertLeadBodySchema, type UpsertLeadBody } from "@/lib/schemas/leads";
import { CUSTOMER_STATUSES, LEAD_PRIORITIES } from "@/lib/values/enums";
import type { ImportMapping, ImportType } from "./mapping";
import type { CsvRecord } from "./read";

/**
 * One CSV row into the create-or-update body of POST /leads or POST /customers, checked by the
 * same schema: spreadsheet habits (amounts with currency signs, US and written-out dates, tag
 * lists, Yes/No) become the API's values first. An empty cell is an absent field, so an import
 * never clears what a record holds.
 */

export interface RowProblem {
  row: number;
  /** The header of the column at fault; null for the row as a whole. */
  column: string | null;
  field: string | null;
  reason: string;
}

export type ConvertedRow<T> =
  { row: number; ok: true; input: T } | { row: number; ok: false; problems: RowProblem[] };

type Kind =
  | "text"
  | "amount"
  | "date"
  | "tags"
  | "priority"
  | "status"
  | "boolean"
  | "first_name"
  | "last_name"
  | "full_name";

/** How a cell becomes a field's value; fields not listed are text. */
const KINDS: Record<ImportType, Record<string, Kind>> = {
  leads: {
    projected_value: "amount",
    follow_up_date: "date",
    tags: "tags",
    priority: "priority",
    first_name: "first_name",
    last_name: "last_name",
  },
  customers: { tags: "tags", status: "status", billing_same_as_property: "boolean", name: "full_name" },
};

const SCHEMAS = { leads: upsertLeadBodySchema, customers: upsertCustomerBodySchema } as const;

/** What a row needs, without an id, to be matched or created (the domain's own rule, said early). */
const NEEDS: Record<ImportType, { fields: readonly string[]; reason: string }> = {
  leads: { fields: ["name", "email", "phone"], reason: "a new lead needs a name, an email or a phone" },
  customers: {
    fields: ["first_name", "last_name", "company_name", "email", "phone"],
    reason: "a new customer needs a first name, last name, company name, email or phone",
  },
};

interface Plan {
  headers: readonly string[];
  columns: { index: number; field: string; kind: Kind }[];
  /** The column a field's value came from, to name it in a problem. */
  columnOf: Map<string, number>;
}

// The engine converts every row of a file with one mapping: its plan is made once.
const plans = new WeakMap<ImportMapping, Plan>();

function planOf(type: ImportType, headers: readonly string[], mapping: ImportMapping): Plan {
  const cached = plans.get(mapping);
  if (cached && cached.headers === headers) return cached;
  const kinds = KINDS[type];
  const columns: Plan["columns"] = [];
  const columnOf = new Map<string, number>();
  mapping.forEach((field, index) => {
    if (field === null || index >= headers.length) return;
    columns.push({ index, field, kind: kinds[field] ?? "text" });
    if (!columnOf.has(field)) columnOf.set(field, index);
  });
  // A lead's name can come from its first and last name columns, a customer's names from a full name.
  if (type === "leads" && !columnOf.has("name")) {
    const from = columnOf.get("first_name") ?? columnOf.get("last_name");
    if (from !== undefined) columnOf.set("name", from);
  }
  if (type === "customers") {
    const full = columnOf.get("name");
    if (full !== undefined)
      for (const field of ["first_name", "last_name"]) if (!columnOf.has(field)) columnOf.set(field, full);
  }
  const plan = { headers, columns, columnOf };
  plans.set(mapping, plan);
  return plan;
}

/** One record into the create-or-update body, validated with the schema POST /leads (or /customers) uses. */
export function convertRow(
  type: "leads",
  headers: readonly string[],
  mapping: ImportMapping,
  record: CsvRecord,
): ConvertedRow<UpsertLeadBody>;
export function convertRow(
  type: "customers",
  headers: readonly string[],
  mapping: ImportMapping,
  record: CsvRecord,
): ConvertedRow<UpsertCustomerBody>;
export function convertRow(
  type: ImportType,
  headers: readonly string[],
  mapping: ImportMapping,
  record: CsvRecord,
): ConvertedRow<UpsertLeadBody | UpsertCustomerBody>;
export function convertRow(
  type: ImportType,
  headers: readonly string[],
  mapping: ImportMapping,
  record: CsvRecord,
): ConvertedRow<UpsertLeadBody | UpsertCustomerBody> {
  const plan = planOf(type, headers, mapping);
  const { row, values } = record;
  let problems: RowProblem[] | undefined;
  const refuse = (index: number | null, field: string | null, reason: string) => {
    (problems ??= []).push({ row, column: index === null ? null : (headers[index] ?? null), field, reason });
  };

  for (let i = headers.length; i < values.length; i++)
    if (values[i]!.trim() !== "") {
      refuse(
        null,
        null,
        `has ${values.length} values but the header names ${headers.length} columns (value "${clip(values[i]!)}" in column ${i + 1})`,
      );
      break;
    }

  const body: Record<string, unknown> = {};
  let firstName: string | undefined;
  let lastName: string | undefined;
  let fullName: string | undefined;
  for (const { index, field, kind } of plan.columns) {
    const cell = values[index];
    if (cell === undefined || isEmpty(cell)) continue;
    switch (kind) {
      case "text":
        body[field] = cell;
        break;
      case "amount": {
        const amount = parseAmount(cell);
        if (amount === null) refuse(index, field, "must be an amount such as 1200.50 or $1,200.50");
        else body[field] = amount;
        break;
      }
      case "date": {
        const date = spreadsheetDate(cell);
        if (date === null) refuse(index, field, "must be a date such as 2026-03-31 or 3/31/2026");
        else body[field] = date;
        break;
      }
      case "tags": {
        const tags = splitTags(cell);
        if (tags.length > 0) body[field] = tags;
        break;
      }
      case "priority": {
        const priority = PRIORITY_WORDS.get(cell.trim().toLowerCase());
        if (priority === undefined) refuse(index, field, "must be low, medium or high");
        else body[field] = priority;
        break;
      }
      case "status": {
        const status = cell.trim().toLowerCase();
        if (!(CUSTOMER_STATUSES as readonly string[]).includes(status))
          refuse(index, field, `must be ${CUSTOMER_STATUSES.join(" or ")}`);
        else body[field] = status;
        break;
      }
      case "boolean": {
        const flag = BOOLEAN_WORDS.get(cell.trim().toLowerCase());
        if (flag === undefined) refuse(index, field, "must be yes or no");
        else body[field] = flag;
        break;
      }
      case "first_name":
        firstName = cell.trim();
        break;
      case "last_name":
        lastName = cell.trim();
        break;
      case "full_name":
        fullName = cell.trim();
        break;
    }
  }
  if (type === "leads" && body.name === undefined && (firstName || lastName))
    body.name = firstName && lastName ? `${firstName} ${lastName}` : (firstName ?? lastName);
  if (type === "customers" && fullName && body.first_name === undefined && body.last_name === undefined)
    Object.assign(body, splitName(fullName));

  const needs = NEEDS[type];
  if (body.id === undefined && !needs.fields.some((field) => body[field] !== undefined))
    refuse(null, null, needs.reason);

  const parsed = SCHEMAS[type].safeParse(body);
  if (!parsed.success) addIssues(parsed.error.issues, plan, refuse);
  if (problems || !parsed.success) return { row, ok: false, problems: byColumn(problems ?? [], headers) };
  return { row, ok: true, input: parsed.data };
}

/** The row's own problems first, then the columns' from left to right. */
function byColumn(problems: RowProblem[], headers: readonly string[]): RowProblem[] {
  const position = (p: RowProblem) => (p.column === null ? -1 : headers.indexOf(p.column));
  return problems.sort((a, b) => position(a) - position(b));
}

function addIssues(
  issues: readonly z.core.$ZodIssue[],
  plan: Plan,
  refuse: (index: number | null, field: string | null, reason: string) => void,
) {
  const seen = new Set<string>();
  for (const issue of issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : null;
    const key = `${field}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const index = field === null ? undefined : plan.columnOf.get(field);
    refuse(index ?? null, field, issue.message);
  }
}

const WHITESPACE_ONLY = /^\s*$/;
const isEmpty = (cell: string) => cell === "" || WHITESPACE_ONLY.test(cell);
const clip = (value: string) => (value.length > 40 ? `${value.slice(0, 40)}…` : value);

const PRIORITY_WORDS = new Map<string, string>([
  ...LEAD_PRIORITIES.map((p) => [p, p] as const),
  // Salesforce's rating and other common words for the same three levels.
  ["hot", "high"],
  ["warm", "medium"],
  ["cold", "low"],
  ["med", "medium"],
  ["normal", "medium"],
]);

const BOOLEAN_WORDS = new Map<string, boolean>([
  ...["yes", "y", "true", "t", "1", "x", "checked"].map((w) => [w, true] as const),
  ...["no", "n", "false", "f", "0", "unchecked"].map((w) => [w, false] as const),
]);

const TAG_SEPARATOR = /[,;]/;

/** Tags of one cell, split on commas or semicolons, trimmed, without repeats. */
export function splitTags(cell: string): string[] {
  const tags: string[] = [];
  for (const part of cell.split(TAG_SEPARATOR)) {
    const tag = part.trim();
    if (tag !== "" && !tags.includes(tag)) tags.push(tag);
  }
  return tags;
}

/** "Smith, Mary" or "Mary Ann Smith": the last word is the last name. */
export function splitName(full: string): { first_name?: string; last_name?: string } {
  const comma = full.indexOf(",");
  if (comma >= 0) {
    const last = full.slice(0, comma).trim();
    const first = full.slice(comma + 1).trim();
    return { ...(first && { first_name: first }), ...(last && { last_name: last }) };
  }
  const space = full.lastIndexOf(" ");
  if (space < 0) return { first_name: full };
  return { first_name: full.slice(0, space).trim(), last_name: full.slice(space + 1) };
}

const PLAIN_AMOUNT = /^\d+(?:\.\d+)?$/;
const AMOUNT_NOISE = /[\s\u00a0\u202f$€£¥']|usd|eur|gbp|cad|aud/gi;
const COMMA_THOUSANDS = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const DOT_THOUSANDS = /^\d{1,3}(?:\.\d{3})+,\d+$|^\d{1,3}(?:\.\d{3}){2,}$/;
const DECIMAL_COMMA = /^\d+,\d+$/;
const COMMA = /,/g;
const DOT = /\./g;

/**
 * "$1,200.50", "1200.5", "1.200,50 €", "(300)": the number, or null. A lone comma group
 * ("1,200") is thousands, as US spreadsheets write it.
 */
export function parseAmount(cell: string): number | null {
  let text = cell.trim();
  if (PLAIN_AMOUNT.test(text)) return Number(text);
  text = text.replace(AMOUNT_NOISE, "");
  let negative = false;
  if (text.startsWith("(") && text.endsWith(")")) {
    negative = true;
    text = text.slice(1, -1);
  } else if (text.startsWith("-")) {
    negative = true;
    text = text.slice(1);
  }
  if (COMMA_THOUSANDS.test(text)) text = text.replace(COMMA, "");
  else if (DOT_THOUSANDS.test(text)) text = text.replace(DOT, "").replace(",", ".");
  else if (DECIMAL_COMMA.test(text)) text = text.replace(",", ".");
  if (!PLAIN_AMOUNT.test(text)) return null;
  const amount = Number(text);
  return negative ? -amount : amount;
}

const ISO_LIKE =
  /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;
const NUMERIC_DATE =
  /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(?:([ap])\.?m\.?)?)?$/i;
const MONTH_FIRST = /^(?:[a-z]+\.?,?\s+)?([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/i;
const DAY_FIRST = /^(\d{1,2})(?:st|nd|rd|th)?[\s-]+([a-z]{3,9})\.?[\s,-]+(\d{4}|\d{2})$/i;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * A date as spreadsheets write it, as the ISO 8601 text the API takes: 2026-03-31 (with a time and
 * an offset kept), 3/31/2026 (month first, as in the US, unless the first number cannot be a
 * month), 31.03.2026, Mar 31, 2026, 31-Mar-26. A time without an offset is read as UTC. Null if
 * it is none of these or not a real date.
 */
export function spreadsheetDate(cell: string): string | null {
  const text = cell.trim();
  let match = ISO_LIKE.exec(text);
  if (match) {
    const [, y, m, d, hh, mm, ss, zone] = match;
    return isoText(Number(y), Number(m), Number(d), hh, mm, ss, undefined, zone);
  }
  match = NUMERIC_DATE.exec(text);
  if (match) {
    const [, a, separator, b, y, hh, mm, ss, half] = match;
    const [first, second] = [Number(a), Number(b)];
    const dayFirst = separator === "." || first > 12;
    const [month, day] = dayFirst ? [second, first] : [first, second];
    return isoText(fullYear(y!), month, day, hh, mm, ss, half);
  }
  match = MONTH_FIRST.exec(text);
  if (match) return isoText(Number(match[3]), monthNumber(match[1]!), Number(match[2]));
  match = DAY_FIRST.exec(text);
  if (match) return isoText(fullYear(match[3]!), monthNumber(match[2]!), Number(match[1]));
  return null;
}

/** Two-digit years as Excel reads them: 00–29 this century, 30–99 the last. */
function fullYear(year: string): number {
  const value = Number(year);
  if (year.length > 2) return value;
  return value < 30 ? 2000 + value : 1900 + value;
}

function monthNumber(name: string): number {
  const index = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  return index < 0 ? 0 : index + 1;
}

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

function isoText(
  year: number,
  month: number,
  day: number,
  hours?: string,
  minutes?: string,
  seconds?: string,
  half?: string,
  zone?: string,
): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const check = new Date(0);
  check.setUTCFullYear(year, month - 1, day);
  if (check.getUTCMonth() !== month - 1) return null;
  const date = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  if (hours === undefined) return date;
  let hour = Number(hours);
  if (half) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (half.toLowerCase() === "p" ? 12 : 0);
  }
  if (hour > 23 || Number(minutes) > 59 || Number(seconds ?? 0) > 59) return null;
  return `${date}T${pad(hour)}:${minutes}:${seconds ?? "00"}${zone ?? "Z"}`;
}

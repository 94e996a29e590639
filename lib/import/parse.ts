import "server-only";
import { SECTION_NAMES, SECTION_SCHEMAS, type ParsedDocument, type SectionName } from "./format";
import { describeIssue, type ImportProblem } from "./problems";
import { isPlainObject } from "@/lib/values/objects";

export interface RecordReferences {
  section: SectionName;
  index: number;
  companyId: string;
  fields: Record<string, unknown>;
  failed: ReadonlySet<string>;
}

/** Records of one section (all of it, or a slice of a large one) after validation. */
export interface ParsedRecords<S extends SectionName = SectionName> {
  section: S;
  entries: ParsedDocument[S];
  problems: ImportProblem[];
  /**
   * Records that failed validation but name their id and company: references to them are not
   * reported again as "not found" (one mistake, one problem).
   */
  invalidRecords: { section: SectionName; companyId: string; id: string }[];
  /**
   * Every record that names its company, invalid ones too (less their failed fields), so the
   * file's every problem is listed at once.
   */
  references: RecordReferences[];
  /** Records and job children: the size of the work, for progress reports. */
  recordCount: number;
}

/** A file's sections, not yet validated. */
export interface DocumentSections {
  records: Partial<Record<SectionName, readonly unknown[]>>;
  /** Problems of the file's shape: not an object, unknown sections, sections that are not arrays. */
  problems: ImportProblem[];
  /** Records and job children given: the size of the work, for progress reports. */
  recordCount: number;
}

const NO_FAILURES: ReadonlySet<string> = new Set();

/** Finds the file's sections; the records themselves are validated by parseRecords. */
export function readSections(input: unknown): DocumentSections {
  const records: DocumentSections["records"] = {};
  const problems: ImportProblem[] = [];
  let recordCount = 0;
  if (!isPlainObject(input)) {
    problems.push({ path: [], message: "the file must be one JSON object with arrays of records" });
    return { records, problems, recordCount };
  }
  for (const key of Object.keys(input)) {
    if (!(SECTION_NAMES as string[]).includes(key))
      problems.push({ path: [key], message: `unknown section (expected ${SECTION_NAMES.join(", ")})` });
  }
  for (const section of SECTION_NAMES) {
    const given = input[section];
    if (given === undefined || given === null) continue;
    if (!Array.isArray(given)) {
      problems.push({ path: [section], message: "expected an array of records" });
      continue;
    }
    records[section] = given;
    recordCount += given.length;
    if (section === "jobs") for (const job of given) recordCount += childCount(job);
  }
  return { records, problems, recordCount };
}

/**
 * Validates records `start` to `end` one by one, so every problem is listed and valid records
 * still get their references checked.
 */
export function parseRecords<S extends SectionName>(
  section: S,
  records: readonly unknown[],
  start = 0,
  end = records.length,
): ParsedRecords<S> {
  const entries = [] as unknown as ParsedDocument[S];
  const problems: ImportProblem[] = [];
  const invalidRecords: ParsedRecords["invalidRecords"] = [];
  const references: RecordReferences[] = [];
  let recordCount = 0;
  const schema = SECTION_SCHEMAS[section];
  for (let index = start; index < end; index++) {
    if (!(index in records)) continue; // a hole of a sparse array, as forEach would skip it
    const record: unknown = records[index];
    // PostgreSQL text cannot hold the NUL character; say where it is rather than fail mid-write.
    const nul = containsNul(record) ? findNul(record, []) : null;
    if (nul)
      problems.push({
        path: [section, index, ...nul],
        message: "must not contain the NUL character (\\u0000)",
      });
    // Messages are only needed for a record that fails: the error map slows every parse down.
    let result = schema.safeParse(record);
    if (!result.success) result = schema.safeParse(record, { error: describeIssue });
    if (result.success && !nul) {
      (entries as { index: number; record: unknown }[]).push({ index, record: result.data });
      recordCount += 1 + childCount(result.data);
      const fields = result.data as Record<string, unknown>;
      if (section !== "companies")
        references.push({
          section,
          index,
          companyId: String(fields.company_id),
          fields,
          failed: NO_FAILURES,
        });
      continue;
    }
    const issues = result.success ? [] : result.error.issues;
    for (const issue of issues)
      problems.push({ path: [section, index, ...issue.path.map(pathPart)], message: issue.message });
    if (!isPlainObject(record)) continue;
    if (section === "companies") {
      if (typeof record.id === "string")
        invalidRecords.push({ section, companyId: record.id.trim(), id: record.id.trim() });
      continue;
    }
    if (typeof record.company_id !== "string" || !record.company_id.trim()) continue;
    const companyId = record.company_id.trim();
    if (typeof record.id === "string") invalidRecords.push({ section, companyId, id: record.id.trim() });
    const failed = new Set(issues.map((issue) => String(issue.path[0])));
    if (nul?.[0] !== undefined) failed.add(String(nul[0]));
    if (!failed.has("company_id")) references.push({ section, index, companyId, fields: record, failed });
  }
  return { section, entries, problems, invalidRecords, references, recordCount };
}

function pathPart(part: PropertyKey): string | number {
  return typeof part === "number" ? part : String(part);
}

function childCount(record: unknown): number {
  if (!isPlainObject(record)) return 0;
  let n = 0;
  for (const key of ["visits", "crew", "line_items", "payments"]) {
    const children = record[key];
    if (Array.isArray(children)) n += children.length;
  }
  return n;
}

/** The common case, a record without NUL, checked without building paths. */
function containsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) {
    for (const item of value) if (containsNul(item)) return true;
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) if (containsNul(value[key])) return true;
  }
  return false;
}

function findNul(value: unknown, path: (string | number)[]): (string | number)[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], [...path, i]);
      if (found) return found;
    }
  } else if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      const found = findNul(child, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

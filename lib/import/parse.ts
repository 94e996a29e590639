import { SECTION_NAMES, SECTION_SCHEMAS, type ParsedDocument, type SectionName } from "./format";
import { describeIssue, type ImportProblem } from "./problems";

export interface RecordReferences {
  section: SectionName;
  index: number;
  companyId: string;
  fields: Record<string, unknown>;
  failed: ReadonlySet<string>;
}

export interface ParseResult {
  doc: ParsedDocument;
  problems: ImportProblem[];
  /**
   * Records that failed validation but name their id and company: references to them are not
   * reported again as "not found" (one mistake, one problem).
   */
  invalidRecords: { section: SectionName; companyId: string; id: string }[];
  /**
   * Every record that names its company, with its fields (parsed, or as given for an invalid
   * record, less the fields that failed): the references of invalid records are checked too, so
   * that the file's every problem is listed at once.
   */
  references: RecordReferences[];
  /** Top-level records and job children: the size of the work, for progress reports. */
  recordCount: number;
}

const NO_FAILURES: ReadonlySet<string> = new Set();

function emptyDocument(): ParsedDocument {
  return Object.fromEntries(SECTION_NAMES.map((name) => [name, []])) as unknown as ParsedDocument;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Validates the shape of every record, one record at a time so that every problem of the file is
 * listed (not only the first) and the valid records can still have their references checked.
 */
export function parseDocument(input: unknown): ParseResult {
  const doc = emptyDocument();
  const problems: ImportProblem[] = [];
  const invalidRecords: ParseResult["invalidRecords"] = [];
  const references: RecordReferences[] = [];
  let recordCount = 0;

  if (!isPlainObject(input)) {
    problems.push({ path: [], message: "the file must be one JSON object with arrays of records" });
    return { doc, problems, invalidRecords, references, recordCount };
  }
  for (const key of Object.keys(input)) {
    if (!(SECTION_NAMES as string[]).includes(key))
      problems.push({ path: [key], message: `unknown section (expected ${SECTION_NAMES.join(", ")})` });
  }

  for (const section of SECTION_NAMES) {
    const records = input[section];
    if (records === undefined || records === null) continue;
    if (!Array.isArray(records)) {
      problems.push({ path: [section], message: "expected an array of records" });
      continue;
    }
    const schema = SECTION_SCHEMAS[section];
    records.forEach((record: unknown, index) => {
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
        (doc[section] as { index: number; record: unknown }[]).push({ index, record: result.data });
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
        return;
      }
      const issues = result.success ? [] : result.error.issues;
      for (const issue of issues)
        problems.push({ path: [section, index, ...issue.path.map(pathPart)], message: issue.message });
      if (!isPlainObject(record)) return;
      if (section === "companies") {
        if (typeof record.id === "string")
          invalidRecords.push({ section, companyId: record.id.trim(), id: record.id.trim() });
        return;
      }
      if (typeof record.company_id !== "string" || !record.company_id.trim()) return;
      const companyId = record.company_id.trim();
      if (typeof record.id === "string") invalidRecords.push({ section, companyId, id: record.id.trim() });
      const failed = new Set(issues.map((issue) => String(issue.path[0])));
      if (nul?.[0] !== undefined) failed.add(String(nul[0]));
      if (!failed.has("company_id")) references.push({ section, index, companyId, fields: record, failed });
    });
  }
  return { doc, problems, invalidRecords, references, recordCount };
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

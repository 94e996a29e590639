import type { Db } from "@/lib/db/client";
import { checkDocument } from "./check";
import { prepareIds } from "./ids";
import { parseDocument } from "./parse";
import { ImportRefusedError, type ImportProblem } from "./problems";
import { writeDocument, type ImportCounts } from "./write";

export interface ImportProgress {
  phase: "checking" | "writing";
  /** Records (and job children) written so far. */
  done: number;
  total: number;
}

export interface ImportOptions {
  onProgress?: (progress: ImportProgress) => void;
}

export interface ImportResult {
  counts: ImportCounts;
  /** Records and job children in the file. */
  records: number;
}

function sortProblems(problems: ImportProblem[], sections: string[]): ImportProblem[] {
  const rank = (p: ImportProblem) => {
    const section = sections.indexOf(String(p.path[0]));
    return [section === -1 ? -1 : section, typeof p.path[1] === "number" ? p.path[1] : -1] as const;
  };
  return problems
    .map((p, order) => ({ p, order, r: rank(p) }))
    .sort((a, b) => a.r[0] - b.r[0] || a.r[1] - b.r[1] || a.order - b.order)
    .map((x) => x.p);
}

/**
 * Imports one document (contract section 10): validated, checked against the file and the
 * database, then written all-or-nothing in one transaction. Records are upserted by
 * (company_id, id), so importing the same document twice leaves the same data. Throws
 * ImportRefusedError listing every problem, having written nothing.
 */
export async function importDocument(
  db: Db,
  input: unknown,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const parsed = parseDocument(input);
  const ids = prepareIds(parsed.doc);
  const total = parsed.recordCount;
  options.onProgress?.({ phase: "checking", done: 0, total });
  let counts: ImportCounts | undefined;
  await db.transaction(async (tx) => {
    const problems = [...parsed.problems, ...(await checkDocument(tx, parsed, ids))];
    if (problems.length > 0)
      throw new ImportRefusedError(
        sortProblems(problems, [
          "companies",
          "users",
          "api_keys",
          "pin_types",
          "pins",
          "customers",
          "leads",
          "service_plans",
          "jobs",
        ]),
      );
    counts = await writeDocument(tx, parsed.doc, ids, (done) =>
      options.onProgress?.({ phase: "writing", done, total }),
    );
  });
  return { counts: counts!, records: total };
}

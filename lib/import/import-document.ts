import "server-only";
import type { Db } from "@/lib/db/client";
import { DocumentChecker } from "./check";
import { SECTION_NAMES, type SectionName } from "./format";
import { prepareIds } from "./ids";
import { parseRecords, readSections } from "./parse";
import { ImportRefusedError, type ImportProblem } from "./problems";
import { DocumentWriter, type ImportCounts } from "./write";

/**
 * Sections written a slice at a time, so the database writes one slice while the next is checked.
 * Users, API keys and jobs need whole-section checks; companies and pin types are small.
 */
const SLICED: ReadonlySet<SectionName> = new Set(["pins", "customers", "leads", "service_plans"]);
const RECORDS_PER_SLICE = 5_000;

export interface ImportProgress {
  phase: "checking" | "writing";
  /** Records (and job children) written so far. */
  done: number;
  total: number;
}

export interface ImportOptions {
  onProgress?: (progress: ImportProgress) => void;
  /** Check and write as the import would, then roll everything back: the counts say what it would do. */
  dryRun?: boolean;
}

/** Ends a dry run's transaction once its counts are known. */
class DryRunRollback extends Error {}

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
 * Imports one document (contract section 10) all-or-nothing, upserting by (company_id, id) so a
 * re-import changes nothing. Throws ImportRefusedError listing every problem, having written nothing.
 */
export async function importDocument(
  db: Db,
  input: unknown,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const { records, problems: shapeProblems, recordCount: total } = readSections(input);
  options.onProgress?.({ phase: "checking", done: 0, total });
  let result: ImportResult | undefined;
  await db
    .transaction(async (tx) => {
      const ids = prepareIds();
      const writer = new DocumentWriter(tx, ids, (done) =>
        options.onProgress?.({ phase: "writing", done, total }),
      );
      const checker = new DocumentChecker(tx, ids, () => writer.settle());
      const problems = [...shapeProblems];
      let recordCount = 0;
      for (const section of SECTION_NAMES) {
        const given = records[section] ?? [];
        const step = SLICED.has(section) ? RECORDS_PER_SLICE : given.length;
        for (let start = 0; start < given.length; start += step) {
          const parsed = parseRecords(section, given, start, Math.min(start + step, given.length));
          ids.register(section, parsed.entries);
          recordCount += parsed.recordCount;
          // One by one: a refused file may list more problems than a call takes arguments.
          for (const problem of parsed.problems) problems.push(problem);
          for (const problem of await checker.check(parsed)) problems.push(problem);
          if (problems.length === 0) await writer.write(section, parsed.entries);
        }
      }
      if (problems.length > 0) {
        await writer.settle();
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
      }
      result = { counts: await writer.finish(), records: recordCount };
      if (options.dryRun) throw new DryRunRollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof DryRunRollback)) throw error;
    });
  return result!;
}

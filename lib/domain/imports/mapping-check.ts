import "server-only";
import type { ImportRecordType } from "@/lib/db/schema";
import type { FieldProblem } from "@/lib/domain/errors";
import { checkMapping, IMPORT_FIELDS, type ImportMapping } from "@/lib/import/csv/mapping";

/**
 * Why a mapping cannot be run on a file with these headers, each naming `mapping[i]` (or
 * `mapping` for the whole): one entry per column, known fields, none twice, something that can
 * identify or create a record.
 */
export function mappingProblems(
  type: ImportRecordType,
  headers: readonly string[],
  mapping: ImportMapping,
): FieldProblem[] {
  if (mapping.length !== headers.length) {
    return [
      {
        field: "mapping",
        message: `must have one entry per column of the file (${headers.length}), not ${mapping.length}`,
      },
    ];
  }
  const known = new Set(IMPORT_FIELDS[type].map((f) => f.field));
  const seen = new Map<string, number>();
  const problems: FieldProblem[] = [];
  mapping.forEach((field, i) => {
    if (field === null) return;
    if (!known.has(field)) {
      problems.push({ field: `mapping[${i}]`, message: `${type} have no field "${field.slice(0, 100)}"` });
    } else if (seen.has(field)) {
      const first = headers[seen.get(field)!] ?? "";
      problems.push({
        field: `mapping[${i}]`,
        message: `${field} is already filled by the column "${first}"`,
      });
    } else {
      seen.set(field, i);
    }
  });
  if (problems.length > 0) return problems;
  return checkMapping(type, mapping).map((message) => ({ field: "mapping", message }));
}

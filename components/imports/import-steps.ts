// The import page's pure rules: which step an import is at, what a mapping lacks, the words of a
// result. Kept apart from the components so they are tested without a browser.
import { formatNumber } from "@/lib/format";
import type { ImportMapping, ImportResponse } from "@/lib/query/imports";

export type ImportStep = "upload" | "map" | "check" | "import";

export const STEPS: readonly { step: ImportStep; label: string }[] = [
  { step: "upload", label: "Upload" },
  { step: "map", label: "Map columns" },
  { step: "check", label: "Check" },
  { step: "import", label: "Import" },
];

/** The step an import is at (none yet: upload). */
export function stepOf(imported: Pick<ImportResponse, "status"> | null | undefined): ImportStep {
  switch (imported?.status) {
    case undefined:
      return "upload";
    case "uploaded":
    case "cancelled":
    case "failed":
      return "map";
    case "checking":
    case "checked":
      return "check";
    case "importing":
    case "done":
      return "import";
  }
}

/** Up to `count` non-empty values of a column in the sample records (trimmed). */
export function sampleValues(sample: readonly (readonly string[])[], column: number, count = 3): string[] {
  const values: string[] = [];
  for (const record of sample) {
    const value = record[column]?.trim();
    if (value) values.push(value);
    if (values.length === count) break;
  }
  return values;
}

/** Per column, the message when its field is also chosen for an earlier column (else undefined). */
export function mappingErrors(
  mapping: ImportMapping,
  headers: readonly string[],
  labelOf: (field: string) => string,
): (string | undefined)[] {
  const firstColumn = new Map<string, number>();
  return mapping.map((field, column) => {
    if (field === null) return undefined;
    const first = firstColumn.get(field);
    if (first === undefined) {
      firstColumn.set(field, column);
      return undefined;
    }
    return `${labelOf(field)} is already mapped from “${headers[first] ?? `column ${first + 1}`}”: pick another field or Ignore`;
  });
}

export const sameMapping = (a: ImportMapping, b: ImportMapping) =>
  a.length === b.length && a.every((field, i) => field === b[i]);

/** A whole percentage of the progress, 0 while the total is unknown. */
export function progressPercent(progress: ImportResponse["progress"]): number {
  if (progress.total <= 0) return 0;
  return Math.min(100, Math.floor((progress.done / progress.total) * 100));
}

/** "by phone 3, email 1" (the non-zero matches of the updates), or "" when there are none. */
export function matchedOnText(matched: { id: number; phone: number; email: number }): string {
  const parts = (["phone", "email", "id"] as const)
    .filter((key) => matched[key] > 0)
    .map((key) => `${key} ${formatNumber(matched[key])}`);
  return parts.length > 0 ? `by ${parts.join(", ")}` : "";
}

/** "1 row" / "2,000 rows". */
export function rowsText(count: number): string {
  return `${formatNumber(count)} ${count === 1 ? "row" : "rows"}`;
}

/** "812 bytes", "1.4 MB", "1 GB" (powers of 1024, as file choosers show sizes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} ${bytes === 1 ? "byte" : "bytes"}`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded} ${units[unit]}`;
}

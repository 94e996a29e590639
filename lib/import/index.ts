export type { ImportDocument, ImportRecord } from "./format";
export {
  importDocument,
  type ImportOptions,
  type ImportProgress,
  type ImportResult,
} from "./import-document";
export { formatPath, formatProblem, ImportRefusedError, type ImportProblem } from "./problems";
export { createProgressBar, PROGRESS_THRESHOLD } from "./progress";
export type { ImportCounts, SectionCount } from "./write";

import "server-only";
export type { ImportDocument, ImportRecord } from "./format";
export {
  importDocument,
  type ImportOptions,
  type ImportProgress,
  type ImportResult,
} from "./import-document";
export { formatPath, formatProblem, ImportRefusedError, type ImportProblem } from "./problems";
export { createProgressBar, PROGRESS_THRESHOLD } from "./progress";
export {
  InvalidJsonError,
  JsonStreamParser,
  parseJsonBytes,
  readJsonFile,
  STREAM_THRESHOLD,
  type JsonPosition,
  type ReadJsonOptions,
} from "./read-json-file";
export type { ImportCounts, SectionCount } from "./write";

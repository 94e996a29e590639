import "server-only";
export { IMPORT_BATCH_ROWS, runImport, type RunImportInput, type RunImportOutput } from "./engine";
export type { ImportMapping } from "@/lib/import/csv/mapping";
export type { RowProblem } from "@/lib/import/csv/convert";
export { createImport, deleteImport, type CreateImportInput } from "./uploads";
export { getImportResponse } from "./responses";
export { pruneImportRows, runImportJob, IMPORT_RUN_QUEUE, type ImportRunJob } from "./job";
export {
  ImportCancelledError,
  ImportInProgressError,
  ImportNotCheckedError,
  ImportTooLargeError,
  InvalidCsvError,
} from "./errors";

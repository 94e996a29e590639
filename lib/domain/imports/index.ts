import "server-only";
export {
  runImport,
  type ImportMapping,
  type RowProblem,
  type RunImportInput,
  type RunImportOutput,
} from "./engine";
export { createImport, deleteImport, type CreateImportInput } from "./uploads";

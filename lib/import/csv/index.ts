import "server-only";
export {
  CsvFormatError,
  openCsv,
  type CsvDelimiter,
  type CsvEncoding,
  type CsvRecord,
  type CsvSource,
  type OpenedCsv,
} from "./read";
export {
  checkMapping,
  guessMapping,
  IMPORT_FIELDS,
  IMPORT_TYPES,
  parseMapOption,
  type ImportField,
  type ImportMapping,
  type ImportType,
} from "./mapping";
export { convertRow, type ConvertedRow, type RowProblem } from "./convert";

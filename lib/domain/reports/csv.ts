import "server-only";
import type { CreatedCursor } from "./sql";

/*
 * The one CSV writer of every export: RFC 4180 text (CRLF), streamed batch by batch so that a large
 * set never sits in memory. Every text cell is quoted, so a `;` or tab in a name cannot start a new
 * cell in a spreadsheet whose list separator it is, and text a spreadsheet would run as a formula
 * gets a leading single quote (OWASP, CSV injection).
 */

/** A number we formatted (money with two decimals): written bare, as numbers are. */
class CsvNumber {
  constructor(readonly text: string) {}
}
export type CsvCell = string | number | boolean | null | undefined | CsvNumber;

export const csvMoney = (value: number) => new CsvNumber(value.toFixed(2));

// Spreadsheets run a cell starting with one of these as a formula, some after leading blanks.
const FORMULA_START = /^[\s\0]*[=+\-@]|^[\t\r\n\0]/;

/** Text a spreadsheet shows as text: a leading single quote when it could be read as a formula. */
export function neutralised(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell: numbers and booleans bare, text always quoted (after neutralising), null as nothing. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  if (value instanceof CsvNumber) return value.text;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  return `"${neutralised(value).replace(/"/g, '""')}"`;
}

export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/** Rows per database round trip of an export. */
export const EXPORT_BATCH_SIZE = 1000;

export interface CsvExport {
  filename: string;
  stream: ReadableStream<Uint8Array>;
}

/** `<name>-YYYY-MM-DD.csv` with today's UTC date. */
export function datedFilename(name: string, now = new Date()): string {
  return `${name}-${now.toISOString().slice(0, 10)}.csv`;
}

/** A small export written at once (a row per user): the header and rows as one chunk. */
export function csvOfRows(
  filename: string,
  header: readonly string[],
  rows: readonly CsvCell[][],
): CsvExport {
  const bytes = new TextEncoder().encode([header, ...rows].map(csvLine).join(""));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return { filename, stream };
}

/**
 * Streams keyset-paginated batches as the client pulls. The first is read before returning, so a failing
 * query still answers through the error pipeline; a later failure aborts the download.
 */
export async function streamCsv<Row>(options: {
  filename: string;
  header: readonly string[];
  fetchBatch: (after: CreatedCursor | undefined, limit: number) => Promise<Row[]>;
  cursorOf: (row: Row) => CreatedCursor;
  toCells: (row: Row) => CsvCell[];
  batchSize?: number;
}): Promise<CsvExport> {
  const batchSize = options.batchSize ?? EXPORT_BATCH_SIZE;
  const encoder = new TextEncoder();
  let cursor: CreatedCursor | undefined;
  let done = false;
  const render = (rows: Row[]): string => {
    const last = rows.at(-1);
    if (last) cursor = options.cursorOf(last);
    if (rows.length < batchSize) done = true;
    return rows.map((row) => csvLine(options.toCells(row))).join("");
  };
  const first = render(await options.fetchBatch(undefined, batchSize));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(options.header) + first));
      if (done) controller.close();
    },
    async pull(controller) {
      const chunk = render(await options.fetchBatch(cursor, batchSize));
      if (chunk) controller.enqueue(encoder.encode(chunk));
      if (done) controller.close();
    },
    cancel() {
      done = true;
    },
  });
  return { filename: options.filename, stream };
}

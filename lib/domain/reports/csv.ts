import "server-only";
import type { CreatedCursor } from "./sql";

/*
 * CSV exports: RFC 4180 text (CRLF, fields quoted when they hold a comma, quote or line break),
 * streamed batch by batch so that a large set never sits in memory.
 */

/** A cell written as-is: numbers formatted by us (money with two decimals). */
export class CsvRaw {
  constructor(readonly text: string) {}
}
export type CsvCell = string | number | boolean | null | undefined | CsvRaw;

export const csvMoney = (value: number) => new CsvRaw(value.toFixed(2));

// Spreadsheets run a cell starting with one of these as a formula (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One cell: text that could be read as a formula gets a leading single quote; quoting as needed. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return "";
  if (value instanceof CsvRaw) return value.text;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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

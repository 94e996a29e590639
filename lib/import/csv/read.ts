import "server-only";
import { Readable, type Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CsvError, parse } from "csv-parse";
import iconv from "iconv-lite";

/**
 * Reads a CSV file as a stream of records (issue #53): the encoding is sniffed from its first
 * 64 KiB, the delimiter from its header line, and the parsing is csv-parse's. Nothing holds the
 * whole file: the caller pulls records one at a time and the source is read as they are.
 */

export type CsvEncoding = "utf-8" | "windows-1252";
export type CsvDelimiter = "," | ";" | "\t";

/** One data row; `row` is its spreadsheet number (the header is row 1, the first data row 2). */
export interface CsvRecord {
  row: number;
  values: string[];
}

export interface OpenedCsv {
  /** Trimmed; the BOM removed; empty names at the end of the header row left out. */
  headers: string[];
  encoding: CsvEncoding;
  delimiter: CsvDelimiter;
  /** The data rows, blank ones skipped (they still count in `row`). Can be read once. */
  records: AsyncIterable<CsvRecord>;
}

/** The file cannot be read as a CSV table; `row` is where (spreadsheet numbering). */
export class CsvFormatError extends Error {
  override name = "CsvFormatError";
  constructor(
    readonly row: number,
    readonly reason: string,
  ) {
    super(`Row ${row}: ${reason}`);
  }
}

/** Bytes read before the encoding and the delimiter are decided. */
export const SNIFF_BYTES = 64 * 1024;
/** A longer row is refused: most likely a quote left open, which would swallow the rest of the file. */
export const MAX_ROW_BYTES = 8 * 1024 * 1024;

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;
const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const DELIMITERS: readonly { byte: number; delimiter: CsvDelimiter }[] = [
  { byte: 0x2c, delimiter: "," },
  { byte: 0x3b, delimiter: ";" },
  { byte: 0x09, delimiter: "\t" },
];

/** What openCsv reads: a Node Readable, a web ReadableStream, or chunks in any (async) iterable. */
export type CsvSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array> | ReadableStream<Uint8Array>;

/** Streams bytes (a Node Readable, a web ReadableStream or any AsyncIterable<Uint8Array>) into records; never holds the file. */
export async function openCsv(source: CsvSource): Promise<OpenedCsv> {
  const chunks = chunksOf(source);
  const { prefix, ended } = await readPrefix(chunks);

  const refused = notCsv(prefix);
  if (refused) throw new CsvFormatError(1, refused);
  const bom = startsWith(prefix, UTF8_BOM);
  const head = bom ? prefix.subarray(UTF8_BOM.length) : prefix;
  const utf8 = bom || isUtf8Prefix(head, ended);
  const encoding: CsvEncoding = utf8 ? "utf-8" : "windows-1252";
  const delimiter = sniffDelimiter(head);

  const parser = parse({
    delimiter,
    // The converter refuses rows with more values than the header names; fewer are empty cells.
    relax_column_count: true,
    // A quote inside an unquoted value (`5" pipe`) is kept as text, as spreadsheets read it.
    relax_quotes: true,
    // Any line ending, even mixed in one file (rows pasted together from several exports).
    record_delimiter: ["\r\n", "\n", "\r"],
    max_record_size: MAX_ROW_BYTES,
  });
  const counter = { row: 0 };
  const bytes = rest(head, ended, chunks);
  const feeding = utf8
    ? pipeline(Readable.from(validUtf8(bytes, counter)), parser)
    : pipeline(Readable.from(bytes), iconv.decodeStream("windows-1252") as Transform, parser);
  // Its failure also ends the parser, which the reader below reports.
  feeding.catch(() => undefined);

  const iterator = (parser as AsyncIterable<string[]>)[Symbol.asyncIterator]();
  const next = async (): Promise<string[] | undefined> => {
    for (;;) {
      const step = await iterator.next().catch((error: unknown) => {
        throw formatError(error, counter);
      });
      if (step.done) return undefined;
      counter.row += 1;
      if (!isBlank(step.value)) return step.value;
    }
  };

  const headerValues = await next();
  if (!headerValues) throw new CsvFormatError(1, "the file is empty: its first row must name the columns");
  const headers = readHeaders(headerValues, counter.row);

  async function* records(): AsyncGenerator<CsvRecord> {
    try {
      for (let values = await next(); values; values = await next()) yield { row: counter.row, values };
    } finally {
      // A reader that stops early releases the parser and the source.
      await iterator.return?.();
    }
  }
  return { headers, encoding, delimiter, records: records() };
}

const startsWith = (bytes: Buffer, signature: readonly number[]) =>
  signature.every((byte, i) => bytes[i] === byte);

/** Why the start of the file shows it is no CSV text: a workbook, or UTF-16. */
function notCsv(prefix: Buffer): string | null {
  // .xlsx is a zip archive, .xls an OLE compound file.
  if (startsWith(prefix, [0x50, 0x4b, 0x03, 0x04]) || startsWith(prefix, [0xd0, 0xcf, 0x11, 0xe0]))
    return "this is a spreadsheet workbook, not a CSV file: save it as CSV (File > Save As > CSV UTF-8) and upload that";
  if (startsWith(prefix, [0xff, 0xfe]) || startsWith(prefix, [0xfe, 0xff]))
    return "the file is in UTF-16: save it as CSV UTF-8 (or Windows-1252) and upload it again";
  return null;
}

/** Byte chunks of any of the accepted sources. */
async function* chunksOf(source: CsvSource): AsyncGenerator<Uint8Array> {
  if (Symbol.asyncIterator in source || Symbol.iterator in source) {
    yield* source as AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
    return;
  }
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  let done = false;
  try {
    for (;;) {
      const step = await reader.read();
      if (step.done) {
        done = true;
        return;
      }
      yield step.value;
    }
  } finally {
    // A reader that stopped early (a refused file) tells the stream: an upload stops there.
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

async function readPrefix(chunks: AsyncIterator<Uint8Array>): Promise<{ prefix: Buffer; ended: boolean }> {
  const parts: Uint8Array[] = [];
  let size = 0;
  while (size < SNIFF_BYTES) {
    const step = await chunks.next();
    if (step.done) return { prefix: Buffer.concat(parts), ended: true };
    parts.push(step.value);
    size += step.value.length;
  }
  return { prefix: Buffer.concat(parts), ended: false };
}

async function* rest(
  head: Buffer,
  ended: boolean,
  chunks: AsyncGenerator<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  if (head.length > 0) yield head;
  if (!ended) yield* chunks;
}

/** The first 64 KiB are valid UTF-8, a character cut by their end allowed when the file goes on. */
function isUtf8Prefix(head: Buffer, ended: boolean): boolean {
  const whole = ended && head.length <= SNIFF_BYTES;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.subarray(0, SNIFF_BYTES), { stream: !whole });
    return true;
  } catch {
    return false;
  }
}

/** The bytes as they come, refused where they stop being UTF-8 (the prefix only was sniffed). */
async function* validUtf8(bytes: AsyncIterable<Uint8Array>, counter: { row: number }) {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const refuse = () =>
    new CsvFormatError(
      counter.row + 1,
      "the file is not valid UTF-8 from about this row on, though its start is: save it again as CSV UTF-8",
    );
  for await (const chunk of bytes) {
    try {
      decoder.decode(chunk, { stream: true });
    } catch {
      throw refuse();
    }
    yield chunk;
  }
  try {
    decoder.decode();
  } catch {
    throw refuse();
  }
}

/** The delimiter seen most often outside quotes in the first non-blank line; a comma on a tie. */
export function sniffDelimiter(head: Uint8Array): CsvDelimiter {
  const counts = [0, 0, 0];
  let i = 0;
  while (i < head.length && (head[i] === LF || head[i] === CR)) i++;
  let quoted = false;
  for (; i < head.length; i++) {
    const byte = head[i];
    if (byte === QUOTE) quoted = !quoted;
    else if (quoted) continue;
    else if (byte === LF || byte === CR) break;
    else for (let d = 0; d < DELIMITERS.length; d++) if (DELIMITERS[d]!.byte === byte) counts[d]! += 1;
  }
  let best = 0;
  for (let d = 1; d < counts.length; d++) if (counts[d]! > counts[best]!) best = d;
  return DELIMITERS[best]!.delimiter;
}

/** A row without a value: a blank line, or only delimiters. */
function isBlank(values: string[]): boolean {
  for (const value of values) if (value !== "") return false;
  return true;
}

function readHeaders(values: string[], row: number): string[] {
  const headers = values.map((value) => value.trim());
  // Spreadsheets often end the header row with empty cells: those columns hold no field.
  while (headers.length > 0 && headers[headers.length - 1] === "") headers.pop();
  if (headers.length === 0) throw new CsvFormatError(row, "the header row names no column");
  const seen = new Map<string, number>();
  headers.forEach((header, i) => {
    if (header === "")
      throw new CsvFormatError(row, `column ${i + 1} has no name: every column of the header row needs one`);
    const key = header.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined)
      throw new CsvFormatError(
        row,
        `columns ${first + 1} and ${i + 1} have the same name "${header}": each column needs its own`,
      );
    seen.set(key, i);
  });
  return headers;
}

/** csv-parse's errors said in the user's terms, at the row being read. */
function formatError(error: unknown, counter: { row: number }): unknown {
  if (!(error instanceof CsvError)) return error;
  // The rows csv-parse finished (blank ones included): the next one is at fault.
  const records = (error as CsvError & { records?: unknown }).records;
  const row = (typeof records === "number" ? records : counter.row) + 1;
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return new CsvFormatError(row, 'a quoted value is never closed: a " is missing its closing "');
    case "CSV_MAX_RECORD_SIZE":
      return new CsvFormatError(
        row,
        `the row is longer than ${MAX_ROW_BYTES / 1024 / 1024} MiB: most likely a " is missing its closing "`,
      );
    default:
      return new CsvFormatError(row, error.message);
  }
}

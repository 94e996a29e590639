import { isUtf8 } from "node:buffer";
import { Readable } from "node:stream";
import { stringify } from "csv-stringify/sync";
import fc from "fast-check";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { CsvFormatError, openCsv, SNIFF_BYTES, type CsvDelimiter, type OpenedCsv } from "./read";

/** The bytes as a stream cut at the given sizes (cycled), as a network or a file would hand them. */
async function* chunked(bytes: Uint8Array, sizes: number[] = [bytes.length || 1]) {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes[i % sizes.length]!);
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

const utf8 = (text: string) => new TextEncoder().encode(text);

async function readAll(opened: OpenedCsv) {
  const rows: { row: number; values: string[] }[] = [];
  for await (const record of opened.records) rows.push(record);
  return rows;
}

async function read(bytes: Uint8Array, sizes?: number[]) {
  const opened = await openCsv(chunked(bytes, sizes));
  return { ...opened, rows: await readAll(opened) };
}

async function formatError(bytes: Uint8Array): Promise<CsvFormatError> {
  const error = await read(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CsvFormatError);
  return error as CsvFormatError;
}

describe("openCsv", () => {
  it("reads a header and rows, numbering rows as a spreadsheet does", async () => {
    const { headers, rows, encoding, delimiter } = await read(
      utf8("Name , Email\nAna,ana@x.co\nBo,bo@x.co\n"),
    );
    expect(headers).toEqual(["Name", "Email"]);
    expect(encoding).toBe("utf-8");
    expect(delimiter).toBe(",");
    expect(rows).toEqual([
      { row: 2, values: ["Ana", "ana@x.co"] },
      { row: 3, values: ["Bo", "bo@x.co"] },
    ]);
  });

  it("removes a UTF-8 BOM, even cut across chunks", async () => {
    const { headers, rows, encoding } = await read(utf8("\uFEFFName,City\nZoë,Montréal"), [1, 1, 2]);
    expect(headers).toEqual(["Name", "City"]);
    expect(encoding).toBe("utf-8");
    expect(rows[0]!.values).toEqual(["Zoë", "Montréal"]);
  });

  it("reads CRLF line endings", async () => {
    const { rows } = await read(utf8("a,b\r\n1,2\r\n3,4\r\n"), [3]);
    expect(rows.map((r) => r.values)).toEqual([
      ["1", "2"],
      ["3", "4"],
    ]);
  });

  it("reads quoted values with commas, quotes and line breaks; the row after counts one row", async () => {
    const { rows } = await read(utf8('Name,Notes\n"Smith, Ana","Line 1\r\nLine ""2"""\nBo,x\n'));
    expect(rows).toEqual([
      { row: 2, values: ["Smith, Ana", 'Line 1\r\nLine "2"'] },
      { row: 3, values: ["Bo", "x"] },
    ]);
  });

  it("detects semicolons and tabs from the header line, outside quotes", async () => {
    const semi = await read(utf8('Name;"Amount, USD";City\nAna;"1,5";Paris\n'));
    expect(semi.delimiter).toBe(";");
    expect(semi.headers).toEqual(["Name", "Amount, USD", "City"]);
    expect(semi.rows[0]!.values).toEqual(["Ana", "1,5", "Paris"]);
    const tab = await read(utf8("Name\tCity, State\tZip\nAna\tAustin, TX\t78701\n"));
    expect(tab.delimiter).toBe("\t");
    expect(tab.rows[0]!.values).toEqual(["Ana", "Austin, TX", "78701"]);
  });

  it("takes a comma when no delimiter is seen (one column) or on a tie", async () => {
    expect((await read(utf8("Email\na@b.co\n"))).delimiter).toBe(",");
    expect((await read(utf8("a;b,c\n1;2,3\n"))).delimiter).toBe(",");
  });

  it("reads Windows-1252 when the bytes are not UTF-8", async () => {
    const bytes = iconv.encode("Name;Price\ncafé;5 €\nœuvre;“quoted”\n", "windows-1252");
    const { rows, encoding, delimiter } = await read(bytes, [5]);
    expect(encoding).toBe("windows-1252");
    expect(delimiter).toBe(";");
    expect(rows.map((r) => r.values)).toEqual([
      ["café", "5 €"],
      ["œuvre", "“quoted”"],
    ]);
  });

  it("decides UTF-8 on the first 64 KiB, a character cut at its end included", async () => {
    // "é" (2 bytes) straddles the end of the sniffed prefix.
    const filler = "x".repeat(SNIFF_BYTES - "h\n".length - 1);
    const { rows, encoding } = await read(utf8(`h\n${filler}é\nnext\n`), [4096]);
    expect(encoding).toBe("utf-8");
    expect(rows.map((r) => r.values[0])).toEqual([`${filler}é`, "next"]);
  });

  it("refuses a file that stops being UTF-8 after the sniffed prefix", async () => {
    const start = utf8(`h\n${"x\n".repeat(SNIFF_BYTES)}`);
    const bytes = Buffer.concat([start, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])]);
    const error = await read(bytes, [4096]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CsvFormatError);
    expect((error as CsvFormatError).reason).toMatch(/not valid UTF-8/);
  });

  it("refuses an empty file and a UTF-16 file", async () => {
    expect((await formatError(new Uint8Array())).row).toBe(1);
    expect((await formatError(utf8("\n\r\n\n"))).reason).toMatch(/empty/);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("a,b\n", "utf16le")]);
    expect((await formatError(utf16)).reason).toMatch(/UTF-16/);
  });

  it("refuses an Excel workbook, saying how to save it as CSV", async () => {
    const xlsx = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 1)]);
    expect((await formatError(xlsx)).reason).toMatch(/workbook, not a CSV file: save it as CSV/);
  });

  it("reads a header without rows", async () => {
    const { headers, rows } = await read(utf8("Name,Email"));
    expect(headers).toEqual(["Name", "Email"]);
    expect(rows).toEqual([]);
  });

  it("refuses duplicate and empty column names, but drops empty names at the end", async () => {
    const duplicate = await formatError(utf8("Name,email,EMAIL\n"));
    expect(duplicate.row).toBe(1);
    expect(duplicate.message).toBe(
      'Row 1: columns 2 and 3 have the same name "EMAIL": each column needs its own',
    );
    expect((await formatError(utf8("Name,,Email\n"))).reason).toMatch(/column 2 has no name/);
    const { headers, rows } = await read(utf8("Name,Email,,\nAna,a@b.co,,\n"));
    expect(headers).toEqual(["Name", "Email"]);
    expect(rows[0]!.values).toEqual(["Ana", "a@b.co", "", ""]);
  });

  it("skips blank lines and rows of empty values, counting them as spreadsheet rows", async () => {
    const { rows, headers } = await read(utf8("\nName,Email\nAna,a\n\n,\nBo,b\n"));
    expect(headers).toEqual(["Name", "Email"]);
    expect(rows).toEqual([
      { row: 3, values: ["Ana", "a"] },
      { row: 6, values: ["Bo", "b"] },
    ]);
  });

  it("keeps rows with more or fewer values than the header (the converter judges them)", async () => {
    const { rows } = await read(utf8("a,b\n1,2,3\n4\n"));
    expect(rows.map((r) => r.values)).toEqual([["1", "2", "3"], ["4"]]);
  });

  it("keeps a quote inside an unquoted value", async () => {
    const { rows } = await read(utf8('Item,Size\npipe,5" wide\n'));
    expect(rows[0]!.values).toEqual(["pipe", '5" wide']);
  });

  it("refuses a quote never closed, naming the row it opens", async () => {
    const error = await formatError(utf8('Name,Notes\nAna,ok\nBo,"open\nand on\n'));
    expect(error.row).toBe(3);
    expect(error.reason).toMatch(/never closed/);
  });

  it("reads a Node Readable and a web ReadableStream", async () => {
    const bytes = utf8("a,b\n1,2\n");
    const node = await openCsv(Readable.from([Buffer.from(bytes)]));
    expect(await readAll(node)).toEqual([{ row: 2, values: ["1", "2"] }]);
    const web = await openCsv(new Response(bytes).body!);
    expect(await readAll(web)).toEqual([{ row: 2, values: ["1", "2"] }]);
  });

  it("stops reading the source when the reader stops", async () => {
    let pulled = 0;
    async function* endless() {
      yield utf8("a\n");
      for (;;) {
        pulled++;
        yield utf8("1\n".repeat(1000));
      }
    }
    const opened = await openCsv(endless());
    let seen = 0;
    for await (const record of opened.records) if (++seen === 5 || !record) break;
    const after = pulled;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pulled).toBe(after);
    expect(pulled).toBeLessThan(200);
  });
});

// ---------------------------------------------------------------------------------------------
// Round trip: any table csv-stringify writes reads back equal, however the bytes are cut.

const WINDOWS_1252_EXTRA = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";
const cellChar = (latin: boolean) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(..."abcXYZ 019,;\t\"'\r\n") },
    {
      weight: 2,
      arbitrary: latin
        ? fc.constantFrom(...`éàçüßøÆ£¥©®±·¿×÷${WINDOWS_1252_EXTRA}`)
        : fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
    },
  );
const cell = (latin: boolean) => fc.string({ unit: cellChar(latin), maxLength: 12 });
const headerName = (latin: boolean) =>
  cell(latin)
    .map((name) => name.trim())
    .filter((name) => name !== "");

const table = (latin: boolean) =>
  fc.integer({ min: 1, max: 5 }).chain((width) =>
    fc.record({
      headers: fc.uniqueArray(headerName(latin), {
        minLength: width,
        maxLength: width,
        selector: (name) => name.toLowerCase(),
      }),
      rows: fc.array(fc.array(cell(latin), { minLength: width, maxLength: width }), { maxLength: 8 }),
    }),
  );

const roundTrip = fc.boolean().chain((latin) =>
  fc.record({
    latin: fc.constant(latin),
    table: table(latin),
    delimiter: fc.constantFrom<CsvDelimiter>(",", ";", "\t"),
    bom: latin ? fc.constant(false) : fc.boolean(),
    crlf: fc.boolean(),
    sizes: fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 6 }),
  }),
);

describe("openCsv round trip (property)", () => {
  it("reads back what csv-stringify wrote, in any delimiter, encoding and chunking", async () => {
    await fc.assert(
      fc.asyncProperty(
        roundTrip,
        async ({ latin, table: { headers, rows }, delimiter, bom, crlf, sizes }) => {
          // A line break in a value is quoted whatever the file's line ending, as spreadsheets write
          // it (csv-stringify quotes only the file's own). The delimiter is sniffed from the header
          // line: there, and in every row of a one-column table (where no header can tell it), a
          // value holding another delimiter is quoted too.
          const record_delimiter = crlf ? "windows" : "unix";
          const options = { delimiter, record_delimiter, quoted_match: /[\r\n]/ };
          const quoted = { delimiter, record_delimiter, quoted_match: /[\r\n,;\t]/ };
          const text =
            stringify([headers], quoted) + stringify(rows, headers.length === 1 ? quoted : options);
          const body = latin ? iconv.encode(text, "windows-1252") : Buffer.from(text, "utf8");
          // Windows-1252 bytes that happen to be valid UTF-8 are read as UTF-8, rightly: no test there.
          fc.pre(!latin || !isUtf8(body));
          const bytes = bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
          const read = await openCsv(chunked(bytes, sizes));
          expect(read.headers).toEqual(headers);
          expect(read.encoding).toBe(latin ? "windows-1252" : "utf-8");
          if (headers.length > 1) expect(read.delimiter).toBe(delimiter);
          const got = await readAll(read);
          const expected = rows
            .map((values, i) => ({ row: i + 2, values }))
            .filter(({ values }) => values.some((v) => v !== ""));
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

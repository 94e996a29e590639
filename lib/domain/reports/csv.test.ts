import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvCell, csvLine, csvMoney, datedFilename, neutralised, streamCsv } from "./csv";

/** RFC 4180 records as a spreadsheet splits them with that list separator, quotes respected. */
function parseCsv(text: string, separator: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === separator) {
      record.push(cell);
      cell = "";
    } else if (ch === "\r" && text[i + 1] === "\n") {
      record.push(cell);
      records.push(record);
      record = [];
      cell = "";
      i++;
    } else cell += ch;
  }
  expect(cell === "" && record.length === 0 && !quoted).toBe(true);
  return records;
}

/** What a spreadsheet would run as a formula (or a DDE command) at the start of a cell. */
const RUNS_AS_FORMULA = /^\s*[=+\-@]|^[\t\r\n\0]/;

describe("csvCell", () => {
  it.each([
    ["plain", '"plain"'],
    ["with, comma", '"with, comma"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    [" padded ", '" padded "'],
    ["", '""'],
    // Formula injection: a leading single quote makes the spreadsheet show text.
    ["=SUM(A1:A9)", '"\'=SUM(A1:A9)"'],
    ["+1 555", '"\'+1 555"'],
    ["-5", '"\'-5"'],
    ["@cmd", '"\'@cmd"'],
    ["\t=1+1", '"\'\t=1+1"'],
    ["\r=1+1", '"\'\r=1+1"'],
    ["  =1+1", '"\'  =1+1"'],
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ["a=b", '"a=b"'],
    // Quoted whole, so a `;` list separator cannot start a cell with the formula.
    ["x;=cmd|'/C calc'!A0", "\"x;=cmd|'/C calc'!A0\""],
  ])("writes %j as %s", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it("writes numbers, booleans, money and empties as they are", () => {
    expect(csvCell(-12.5)).toBe("-12.5");
    expect(csvCell(csvMoney(-10))).toBe("-10.00");
    expect(csvCell(csvMoney(1234.5))).toBe("1234.50");
    expect(csvCell(true)).toBe("true");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvLine(["a", 1, null, "b,c"])).toBe('"a",1,,"b,c"\r\n');
  });

  it("never lets a name start a formula cell, whatever the list separator", () => {
    // Names built from formula starts, separators, quotes and line breaks around arbitrary text.
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom(
        "=",
        "+",
        "-",
        "@",
        "\t",
        "\r",
        "\n",
        "\0",
        ";",
        ",",
        '"',
        "'",
        " ",
        "cmd|'/C calc'!A0",
      ),
    );
    const name = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(""));
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 4 }), fc.integer(), (names, n) => {
        const line = csvLine([...names, n, csvMoney(n / 100), null]);
        // Read as the spreadsheet would with `,`: the names come back, neutralised, in their cells.
        expect(parseCsv(line, ",")).toEqual([
          [...names.map(neutralised), String(n), (n / 100).toFixed(2), ""],
        ]);
        for (const name of names) {
          const back = neutralised(name);
          expect(back === name || back === `'${name}`).toBe(true);
          expect(back).not.toMatch(RUNS_AS_FORMULA);
        }
        // With `;` or a tab as the separator, no text cell starts a formula either.
        for (const separator of [";", "\t"]) {
          for (const cell of parseCsv(line, separator).flat()) expect(cell).not.toMatch(RUNS_AS_FORMULA);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("names files with today's UTC date", () => {
    expect(datedFilename("service-plans", new Date("2026-03-31T23:59:59Z"))).toBe(
      "service-plans-2026-03-31.csv",
    );
  });
});

describe("streamCsv", () => {
  const read = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

  it("reads keyset batches one after another until a short batch", async () => {
    const rows = Array.from({ length: 7 }, (_, i) => ({ id: `r${i}` }));
    const calls: (string | undefined)[] = [];
    const csv = await streamCsv({
      filename: "x.csv",
      header: ["id"],
      batchSize: 3,
      fetchBatch: async (after, limit) => {
        calls.push(after?.id);
        const start = after ? rows.findIndex((r) => r.id === after.id) + 1 : 0;
        return rows.slice(start, start + limit);
      },
      cursorOf: (row) => ({ createdAt: "2026-01-01T00:00:00Z", id: row.id }),
      toCells: (row) => [row.id],
    });
    // The first batch is read before the stream is handed out.
    expect(calls).toEqual([undefined]);
    expect(await read(csv.stream)).toBe('"id"\r\n"r0"\r\n"r1"\r\n"r2"\r\n"r3"\r\n"r4"\r\n"r5"\r\n"r6"\r\n');
    expect(calls).toEqual([undefined, "r2", "r5"]);
  });

  it("asks one more time when the last batch is exactly full, and writes a header for no rows", async () => {
    let calls = 0;
    const full = await streamCsv({
      filename: "x.csv",
      header: ["id"],
      batchSize: 2,
      fetchBatch: async () => (++calls === 1 ? [{ id: "a" }, { id: "b" }] : []),
      cursorOf: (row) => ({ createdAt: "2026-01-01T00:00:00Z", id: row.id }),
      toCells: (row) => [row.id],
    });
    expect(await read(full.stream)).toBe('"id"\r\n"a"\r\n"b"\r\n');
    expect(calls).toBe(2);
    const empty = await streamCsv({
      filename: "x.csv",
      header: ["id", "name"],
      fetchBatch: async () => [],
      cursorOf: () => ({ createdAt: "", id: "" }),
      toCells: () => [],
    });
    expect(await read(empty.stream)).toBe('"id","name"\r\n');
  });

  it("lets a failing first batch reject before any response is made", async () => {
    await expect(
      streamCsv({
        filename: "x.csv",
        header: ["id"],
        fetchBatch: async () => {
          throw new Error("db down");
        },
        cursorOf: () => ({ createdAt: "", id: "" }),
        toCells: () => [],
      }),
    ).rejects.toThrow("db down");
  });
});

import { describe, expect, it } from "vitest";
import { csvCell, csvLine, csvMoney, datedFilename, streamCsv } from "./csv";

describe("csvCell", () => {
  it.each([
    ["plain", "plain"],
    ["with, comma", '"with, comma"'],
    ['say "hi"', '"say ""hi"""'],
    ["two\nlines", '"two\nlines"'],
    ["cr\r", '"cr\r"'],
    [" padded ", '" padded "'],
    ["", ""],
    // Formula injection: a leading single quote makes the spreadsheet show text.
    ["=SUM(A1:A9)", "'=SUM(A1:A9)"],
    ["+1 555", "'+1 555"],
    ["-5", "'-5"],
    ["@cmd", "'@cmd"],
    ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ["a=b", "a=b"],
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
    expect(csvLine(["a", 1, null, "b,c"])).toBe('a,1,,"b,c"\r\n');
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
    expect(await read(csv.stream)).toBe("id\r\nr0\r\nr1\r\nr2\r\nr3\r\nr4\r\nr5\r\nr6\r\n");
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
    expect(await read(full.stream)).toBe("id\r\na\r\nb\r\n");
    expect(calls).toBe(2);
    const empty = await streamCsv({
      filename: "x.csv",
      header: ["id", "name"],
      fetchBatch: async () => [],
      cursorOf: () => ({ createdAt: "", id: "" }),
      toCells: () => [],
    });
    expect(await read(empty.stream)).toBe("id,name\r\n");
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

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { guessMapping } from "@/lib/import/csv/mapping";
import { openCsv } from "@/lib/import/csv/read";
import { CSV_HEADERS, DUPLICATE_EVERY, expectedCsvCounts, writeCsvFile } from "./csv-import-bench";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fcrm-csv-bench-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the CSV import measurement's file", () => {
  it("reads back as written, every column guessed, a phone repeated every 50th row", async () => {
    const file = path.join(dir, "leads.csv");
    const count = 3 * DUPLICATE_EVERY + 7;
    await writeCsvFile(file, count);
    const opened = await openCsv(fs.createReadStream(file));
    expect(opened.headers).toEqual([...CSV_HEADERS]);
    expect(opened.delimiter).toBe(",");
    const mapping = guessMapping("leads", opened.headers);
    expect(mapping.every((field) => field !== null)).toBe(true);
    const phone = mapping.indexOf("phone");
    const notes = mapping.indexOf("notes");
    const phones: string[] = [];
    let quotedNotes = 0;
    for await (const record of opened.records) {
      phones.push(record.values[phone]!);
      if (record.values[notes]!.includes("\n")) quotedNotes++;
    }
    expect(phones).toHaveLength(count);
    expect(count - new Set(phones).size).toBe(expectedCsvCounts(count).updated);
    expect(quotedNotes).toBe(Math.ceil(count / 10));
  });
});

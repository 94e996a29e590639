import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertRow, parseAmount, splitName, splitTags, spreadsheetDate } from "./convert";
import { guessMapping, IMPORT_FIELDS, type ImportType } from "./mapping";

function lead(cells: Record<string, string>, row = 2) {
  const headers = Object.keys(cells);
  return convertRow("leads", headers, guessMapping("leads", headers), { row, values: Object.values(cells) });
}

describe("convertRow (leads)", () => {
  it("builds the body POST /leads takes, empty cells absent", () => {
    const result = lead({
      "First Name": " Ana ",
      "Last Name": "Silva",
      "E-mail": "ana@example.com",
      Mobile: "(555) 010-2000",
      City: "",
      "Lead Status": "Contacted",
      Priority: "HIGH",
      "Estimated Value": "$1,200.50",
      Tags: "a; b, c,, a",
      "Follow-up Date": "3/31/2026",
      Notes: "  keep  spaces ",
    });
    expect(result).toEqual({
      row: 2,
      ok: true,
      input: {
        name: "Ana Silva",
        email: "ana@example.com",
        phone: "(555) 010-2000",
        stage: "Contacted",
        priority: "high",
        projected_value: 1200.5,
        tags: ["a", "b", "c"],
        follow_up_date: new Date("2026-03-31T00:00:00Z"),
        notes: "  keep  spaces ",
      },
    });
  });

  it("keeps a Name column over the first and last names", () => {
    const result = lead({ Name: "Ana S.", "First Name": "Ana", "Last Name": "Silva" });
    expect(result.ok && result.input.name).toBe("Ana S.");
    const onlyLast = lead({ "First Name": "", "Last Name": "Silva" });
    expect(onlyLast.ok && onlyLast.input.name).toBe("Silva");
  });

  it("names the row, the column and the field of each problem", () => {
    expect(
      lead({ Name: "Ana", Email: "not-an-email", "Follow-up Date": "31/31/2026", Value: "about 5" }, 7),
    ).toEqual({
      row: 7,
      ok: false,
      problems: [
        { row: 7, column: "Email", field: "email", reason: "must be a valid email address" },
        {
          row: 7,
          column: "Follow-up Date",
          field: "follow_up_date",
          reason: "must be a date such as 2026-03-31 or 3/31/2026",
        },
        {
          row: 7,
          column: "Value",
          field: "projected_value",
          reason: "must be an amount such as 1200.50 or $1,200.50",
        },
      ],
    });
  });

  it("refuses a row with more values than the header names, unless they are empty", () => {
    const headers = ["Name", "Email"];
    const mapping = guessMapping("leads", headers);
    expect(convertRow("leads", headers, mapping, { row: 3, values: ["Ana", "a@b.co", "", " "] }).ok).toBe(
      true,
    );
    expect(convertRow("leads", headers, mapping, { row: 3, values: ["Ana", "a@b.co", "x"] })).toEqual({
      row: 3,
      ok: false,
      problems: [
        {
          row: 3,
          column: null,
          field: null,
          reason: 'has 3 values but the header names 2 columns (value "x" in column 3)',
        },
      ],
    });
  });

  it("reads fewer values than headers as empty cells", () => {
    const result = convertRow("leads", ["Name", "Email"], ["name", "email"], { row: 2, values: ["Ana"] });
    expect(result).toEqual({ row: 2, ok: true, input: { name: "Ana" } });
  });

  it("refuses a row that can neither match nor create a lead", () => {
    const result = lead({ Name: " ", City: "Austin" });
    expect(!result.ok && result.problems).toEqual([
      { row: 2, column: null, field: null, reason: "a new lead needs a name, an email or a phone" },
    ]);
    expect(
      convertRow("leads", ["Id", "City"], ["id", "address_city"], { row: 2, values: ["ld_1", "Austin"] }),
    ).toMatchObject({ ok: true, input: { id: "ld_1", address_city: "Austin" } });
  });

  it("uses the schema's limits: negative amounts, long values, unknown priorities", () => {
    const result = lead({ Name: "x".repeat(256), Value: "(300)", Priority: "urgent" });
    expect(!result.ok && result.problems.map((p) => [p.column, p.reason])).toEqual([
      ["Name", "must be at most 255 characters"],
      ["Value", "must not be negative"],
      ["Priority", "must be low, medium or high"],
    ]);
  });

  it("reads Salesforce's ratings as priorities", () => {
    const result = lead({ Name: "Ana", Rating: "Hot" });
    expect(result.ok && result.input.priority).toBe("high");
  });
});

describe("convertRow (customers)", () => {
  const customer = (cells: Record<string, string>) => {
    const headers = Object.keys(cells);
    return convertRow("customers", headers, guessMapping("customers", headers), {
      row: 2,
      values: Object.values(cells),
    });
  };

  it("builds the body POST /customers takes", () => {
    expect(
      customer({
        "Full Name": "Mary Ann Smith",
        Company: "Smith Pools",
        Status: "Inactive",
        "Billing Same As Property": "Yes",
        Labels: "vip;pool",
      }),
    ).toEqual({
      row: 2,
      ok: true,
      input: {
        first_name: "Mary Ann",
        last_name: "Smith",
        company_name: "Smith Pools",
        status: "inactive",
        billing_same_as_property: true,
        tags: ["vip", "pool"],
      },
    });
  });

  it("prefers first and last name columns to a full name", () => {
    const result = customer({ Name: "M. Smith", "First Name": "Mary", "Last Name": "" });
    expect(result.ok && result.input).toEqual({ first_name: "Mary" });
  });

  it("names the column a bad value came from", () => {
    const result = customer({ Client: "Ana", Status: "gone", "Same As Property": "maybe" });
    expect(!result.ok && result.problems.map((p) => [p.column, p.field, p.reason])).toEqual([
      ["Status", "status", "must be active or inactive"],
      ["Same As Property", "billing_same_as_property", "must be yes or no"],
    ]);
  });
});

describe("cell readers", () => {
  it("reads amounts as spreadsheets write them", () => {
    expect(parseAmount("$1,200.50")).toBe(1200.5);
    expect(parseAmount("1200")).toBe(1200);
    expect(parseAmount(" 1 200,50 € ")).toBe(1200.5);
    expect(parseAmount("1.200.000")).toBe(1200000);
    expect(parseAmount("1.234,5")).toBe(1234.5);
    expect(parseAmount("12,5")).toBe(12.5);
    expect(parseAmount("USD 99")).toBe(99);
    expect(parseAmount("(300)")).toBe(-300);
    expect(parseAmount("-4.5")).toBe(-4.5);
    for (const bad of ["", "abc", "1,2,3", "1.2.3", "$", "12e3", "--1"]) expect(parseAmount(bad)).toBeNull();
  });

  it("reads dates as spreadsheets write them", () => {
    expect(spreadsheetDate("2026-03-31")).toBe("2026-03-31");
    expect(spreadsheetDate("2026-03-31T14:30:00-05:00")).toBe("2026-03-31T14:30:00-05:00");
    expect(spreadsheetDate("2026-03-31 14:30")).toBe("2026-03-31T14:30:00Z");
    expect(spreadsheetDate("2026/3/5")).toBe("2026-03-05");
    expect(spreadsheetDate("3/31/2026")).toBe("2026-03-31");
    expect(spreadsheetDate("04/05/2026")).toBe("2026-04-05");
    expect(spreadsheetDate("31/03/2026")).toBe("2026-03-31");
    expect(spreadsheetDate("31.03.2026")).toBe("2026-03-31");
    expect(spreadsheetDate("3/31/26")).toBe("2026-03-31");
    expect(spreadsheetDate("3/31/2026 2:05 PM")).toBe("2026-03-31T14:05:00Z");
    expect(spreadsheetDate("3/31/2026 12:00 am")).toBe("2026-03-31T00:00:00Z");
    expect(spreadsheetDate("Mar 31, 2026")).toBe("2026-03-31");
    expect(spreadsheetDate("Tuesday, March 31st 2026")).toBe("2026-03-31");
    expect(spreadsheetDate("31-Mar-26")).toBe("2026-03-31");
    expect(spreadsheetDate("5 Sept 2026")).toBe("2026-09-05");
    for (const bad of [
      "",
      "soon",
      "2/30/2026",
      "13/13/2026",
      "2026-02-29",
      "Foo 3, 2026",
      "3/31/2026 13:00 pm",
    ])
      expect(spreadsheetDate(bad)).toBeNull();
  });

  it("splits tags on commas and semicolons", () => {
    expect(splitTags("a; b, c")).toEqual(["a", "b", "c"]);
    expect(splitTags(" ; ,")).toEqual([]);
  });

  it("splits a full name at its last word, or at a comma", () => {
    expect(splitName("Cher")).toEqual({ first_name: "Cher" });
    expect(splitName("Smith, Mary Ann")).toEqual({ first_name: "Mary Ann", last_name: "Smith" });
    expect(splitName("Mary  Smith")).toEqual({ first_name: "Mary", last_name: "Smith" });
  });
});

describe("convertRow (property)", () => {
  it("never throws, and says why whenever it refuses", () => {
    const arbitrary = fc.constantFrom<ImportType>("leads", "customers").chain((type) => {
      const fields = IMPORT_FIELDS[type].map((f) => f.field);
      return fc.record({
        type: fc.constant(type),
        mapping: fc.array(fc.option(fc.constantFrom(...fields), { nil: null }), { maxLength: 8 }),
        values: fc.array(fc.string({ maxLength: 30 }), { maxLength: 10 }),
      });
    });
    fc.assert(
      fc.property(arbitrary, ({ type, mapping, values }) => {
        const headers = mapping.map((_, i) => `Column ${i + 1}`);
        const result = convertRow(type, headers, mapping, { row: 9, values });
        expect(result.row).toBe(9);
        if (!result.ok) {
          expect(result.problems.length).toBeGreaterThan(0);
          for (const problem of result.problems) {
            expect(problem.row).toBe(9);
            expect(problem.reason).not.toBe("");
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});

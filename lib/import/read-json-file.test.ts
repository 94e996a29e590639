import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidJsonError, JsonStreamParser, parseJsonBytes, readJsonFile } from "./read-json-file";

// The streaming reader matches JSON.parse for any chunk boundaries and record depth, and refuses
// every invalid text with its place.

const FIXED_SEED = 20260611;

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fcrm-read-json-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function streamParse(bytes: Buffer, chunkSize: number, recordDepth?: number): unknown {
  const parser = new JsonStreamParser(recordDepth);
  for (let i = 0; i < bytes.length; i += chunkSize) parser.write(bytes.subarray(i, i + chunkSize));
  return parser.end();
}

function refusal(parse: () => unknown): InvalidJsonError {
  try {
    parse();
  } catch (error) {
    if (error instanceof InvalidJsonError) return error;
    throw error;
  }
  throw new Error("accepted");
}

/** Identical values: same types, -0 kept, own properties (`__proto__` too), keys in the same order. */
function expectSameValue(actual: unknown, expected: unknown) {
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

/**
 * JSON text for a value with whitespace between tokens and strings written in several ways
 * (as JSON.stringify does, every character as \uXXXX, `/` as `\/`), taken in turn from the lists.
 */
function serialize(value: unknown, spaces: string[], escapes: number[]): string {
  let s = 0;
  let e = 0;
  const space = () => (spaces.length ? spaces[s++ % spaces.length]! : "");
  const quote = (text: string) => {
    const how = escapes.length ? escapes[e++ % escapes.length]! : 0;
    if (how === 1)
      return `"${Array.from({ length: text.length }, (_, i) => `\\u${text.charCodeAt(i).toString(16).padStart(4, "0")}`).join("")}"`;
    if (how === 2) return JSON.stringify(text).replaceAll("/", "\\/");
    return JSON.stringify(text);
  };
  const write = (v: unknown): string => {
    if (typeof v === "string") return quote(v);
    if (Array.isArray(v)) return `[${space()}${v.map((x) => write(x) + space()).join(`,${space()}`)}]`;
    if (v !== null && typeof v === "object")
      return `{${space()}${Object.keys(v)
        .map((k) => `${quote(k)}${space()}:${space()}${write((v as Record<string, unknown>)[k]) + space()}`)
        .join(`,${space()}`)}}`;
    return JSON.stringify(v);
  };
  return space() + write(value) + space();
}

const whitespace = fc.array(fc.constantFrom("", "", " ", "\n", "\t", "\r\n  ", "\n\n    "), { maxLength: 8 });
const chunkSize = fc.integer({ min: 1, max: 7 });
const recordDepth = fc.integer({ min: 0, max: 4 });

describe("JsonStreamParser", () => {
  it("gives JSON.parse's value for any JSON value, in chunks of 1 to 7 bytes", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ stringUnit: "binary" }),
        whitespace,
        fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 5 }),
        chunkSize,
        recordDepth,
        (value, spaces, escapes, size, depth) => {
          const bytes = Buffer.from(serialize(value, spaces, escapes));
          expectSameValue(streamParse(bytes, size, depth), JSON.parse(bytes.toString("utf8")));
        },
      ),
      { seed: FIXED_SEED, numRuns: 400 },
    );
  });

  it("gives JSON.parse's value for fc.json texts and refuses what JSON.parse refuses once a byte is changed", () => {
    const edit = fc.tuple(
      fc.constantFrom("insert", "delete", "replace"),
      fc.nat(),
      fc.constantFrom(...'{}[]",:0123456789.-+eE tfn\\u/xa\n'),
    );
    fc.assert(
      fc.property(
        fc.json(),
        fc.option(edit, { nil: undefined }),
        chunkSize,
        recordDepth,
        (json, change, size, depth) => {
          let text = json;
          if (change) {
            const [kind, at, char] = change;
            const i = at % (text.length + 1);
            if (kind === "insert") text = text.slice(0, i) + char + text.slice(i);
            else if (kind === "delete") text = text.slice(0, i) + text.slice(i + 1);
            else text = text.slice(0, i) + char + text.slice(i + 1);
          }
          const bytes = Buffer.from(text);
          let expected: unknown;
          try {
            expected = JSON.parse(text);
          } catch {
            const error = refusal(() => streamParse(bytes, size, depth));
            expect(error.position!.offset).toBeLessThanOrEqual(bytes.length);
            expect(refusal(() => parseJsonBytes(bytes)).message).toBe(error.message);
            return;
          }
          expectSameValue(streamParse(bytes, size, depth), expected);
          expectSameValue(parseJsonBytes(bytes), expected);
        },
      ),
      { seed: FIXED_SEED, numRuns: 1000 },
    );
  });

  it.each([
    ["a top-level array", "[1, [2, [3, {}]], [], {}]"],
    ["a scalar", " 42 "],
    ["a scalar at the end of the file", "-1.5e+3"],
    ["minus zero", "[-0, -0.0, 0e0, 1E5, 1e400, 0.1]"],
    ["a string", '"a\\"b\\\\c\\/\\u00e9\\ud83d\\ude00"'],
    ["literals", "[true,false,null]"],
    ["empty containers", '{"a":[],"b":{},"c":[[]],"d":[{}]}'],
    ["escapes in keys", '{"a\\"b": 1, "c\\\\": {"\\u0064": [2]}}'],
    ["unicode", '{"leads":[{"name":"Zoë 😀 中文"}],"ключ":"значение"}'],
    ["duplicate keys (the last wins, in the first one's place)", '{"a":1,"b":2,"a":{"x":[3]}}'],
    ["integer-like keys", '{"b":1,"2":2,"a":3,"1":4}'],
  ])("reads %s as JSON.parse does, at every depth and chunk size", (_, text) => {
    const bytes = Buffer.from(text);
    for (let depth = 0; depth <= 3; depth++)
      for (let size = 1; size <= bytes.length; size++)
        expectSameValue(streamParse(bytes, size, depth), JSON.parse(text));
  });

  it("makes a member named __proto__ an own property, as JSON.parse does", () => {
    const text = '{"__proto__":{"polluted":true},"a":{"__proto__":[1]},"leads":[{"__proto__":2}]}';
    for (let depth = 0; depth <= 3; depth++) {
      const value = streamParse(Buffer.from(text), 3, depth) as Record<string, Record<string, unknown>>;
      expectSameValue(value, JSON.parse(text));
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value)).toEqual(["__proto__", "a", "leads"]);
      expect(Object.hasOwn(value.a!, "__proto__")).toBe(true);
      expect(Object.getPrototypeOf(value.a)).toBe(Object.prototype);
      expect(Object.hasOwn((value.leads as unknown as object[])[0]!, "__proto__")).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it("skips a UTF-8 byte order mark at the start, on both paths, even split between chunks", () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":[1]}')]);
    for (let size = 1; size <= 4; size++) expect(streamParse(bytes, size)).toEqual({ a: [1] });
    expect(parseJsonBytes(bytes)).toEqual({ a: [1] });
    const twice = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
    expect(refusal(() => streamParse(twice, 1)).position).toEqual({ offset: 3, line: 1, column: 1 });
    const incomplete = Buffer.from([0xef, 0xbb, 0x7b, 0x7d]);
    for (const parse of [() => parseJsonBytes(incomplete), () => streamParse(incomplete, 1)])
      expect(refusal(parse).message).toBe("Incomplete byte order mark at line 1, column 1 (byte 0)");
  });
});

const multiline = '{\n  "leads": [\n    {"id": "a"},\n    {"id": "b",}\n  ]\n}';
const accented = '{"name": "Café – Zoë", "x": ]}';

describe("invalid JSON is refused with its place", () => {
  it.each([
    ["a trailing comma in an object", '{"a":1,}', /^Unexpected '}' after ','$/, 7],
    ["a trailing comma in an array", "[1,2,]", /^Unexpected ']' after ','$/, 5],
    ["a missing comma", '{"a":1 "b":2}', /^Unexpected '"', expected ',' or '}'$/, 7],
    ["a missing comma in an array", "[1 2]", /^Unexpected '2', expected ',' or ']'$/, 3],
    ["a missing colon", '{"a" 1}', /^Unexpected '1', expected ':' after the property name$/, 5],
    ["a missing value", '{"a":}', /^Unexpected '}', expected a value$/, 5],
    ["a property name without quotes", "{a:1}", /expected a property name in double quotes or '}'$/, 1],
    ["single quotes", "{'a':1}", /^Unexpected '''/, 1],
    ["an unterminated string", '{"a":"abc', /^Unexpected end of the file in a string$/, 9],
    ["garbage after the value", '{"a":1} x', /^Unexpected 'x' after the JSON value$/, 8],
    ["a second value", '{"a":1}}', /^Unexpected '}' after the JSON value$/, 7],
    ["a truncated file", '{"leads":[{"id":"x"', /^Unexpected end of the file$/, 19],
    ["a truncated array", "[1,2", /^Unexpected end of the file$/, 4],
    ["an empty file", "", /^The file is empty$/, 0],
    ["a file of whitespace", "  \n ", /^Unexpected end of the file$/, 4],
    ["a leading zero", "[01]", /^Unexpected '1', expected ',' or ']'$/, 2],
    ["a number ending in a point", "[1.]", /^Unexpected ']' in a number, expected a digit$/, 3],
    ["a lone minus", "[-]", /in a number, expected a digit$/, 2],
    ["an exponent without digits", "[1e+]", /in a number, expected a digit$/, 4],
    ["a plus sign", "[+1]", /^Unexpected '\+', expected a value or '\]'$/, 1],
    ["a broken literal", "[tru]", /^Unexpected ']', expected 'true'$/, 4],
    ["NaN", "NaN", /^Unexpected 'N', expected a value$/, 0],
    ["a bad escape", '"\\x"', /^Invalid escape '\\' followed by 'x' in a string$/, 2],
    ["a bad \\u escape", '"\\u12G4"', /^Unexpected 'G' in a \\u escape, expected a hex digit$/, 5],
    ["a line break in a string", '["a\nb"]', /^Unescaped control character \(byte 0x0A\) in a string$/, 3],
    ["a mismatched bracket", '{"a":[1}', /^Unexpected '}', expected ',' or ']'$/, 7],
    ["an error inside a record", '{"leads":[{"id":"x","tags":["a",]}]}', /^Unexpected ']' after ','$/, 32],
    ["a character outside a string", '{"a":1,é}', /^Unexpected byte 0xC3, expected a property name/, 7],
  ])("refuses %s", (_, text, reason, offset) => {
    const bytes = Buffer.from(text);
    const position = { offset, line: 1 + (text.slice(0, offset).match(/\n/g)?.length ?? 0) };
    for (const parse of [
      () => parseJsonBytes(bytes),
      () => streamParse(bytes, 1),
      () => streamParse(bytes, 5, 0),
      () => streamParse(bytes, 1 << 20),
    ]) {
      const error = refusal(parse);
      expect(error.reason).toMatch(reason);
      expect(error.position).toMatchObject(position);
      expect(error.message).toBe(
        `${error.reason} at line ${position.line}, column ${error.position!.column} (byte ${offset})`,
      );
    }
  });

  it("gives the line and the column in characters", () => {
    const error = refusal(() => streamParse(Buffer.from(multiline), 2));
    expect(error.message).toBe("Unexpected '}' after ',' at line 4, column 16 (byte 47)");
    const at = accented.indexOf("]");
    for (const parse of [
      () => parseJsonBytes(Buffer.from(accented)),
      () => streamParse(Buffer.from(accented), 1),
    ])
      expect(refusal(parse).position).toEqual({
        offset: Buffer.byteLength(accented.slice(0, at)),
        line: 1,
        column: at + 1,
      });
  });
});

describe("readJsonFile", () => {
  const document = {
    companies: [{ id: "co_1", name: "Ünïcode Co 😀" }],
    leads: Array.from({ length: 50 }, (_, i) => ({ id: `lead_${i}`, name: `Zoë ${i}`, tags: ["a", "b"] })),
    note: "x".repeat(100),
  };

  it("reads a file whole below the threshold and streamed from it, with the same value", async () => {
    const file = path.join(dir, "document.json");
    fs.writeFileSync(file, JSON.stringify(document, null, 2));
    expect(await readJsonFile(file)).toStrictEqual(document);
    for (const size of [1, 3, 7, 4096])
      expect(await readJsonFile(file, { streamThreshold: 0, chunkSize: size })).toStrictEqual(document);
  });

  it("refuses an invalid file on both paths with the same place", async () => {
    const file = path.join(dir, "broken.json");
    fs.writeFileSync(file, JSON.stringify(document, null, 2).replace('"lead_7"', '"lead_7",'));
    const whole = await readJsonFile(file).then(
      () => undefined,
      (error: unknown) => error,
    );
    const streamed = await readJsonFile(file, { streamThreshold: 0, chunkSize: 3 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(whole).toBeInstanceOf(InvalidJsonError);
    expect((whole as InvalidJsonError).message).toMatch(
      /^Unexpected ',', expected a property name in double quotes at line 66, column 22 \(byte \d+\)$/,
    );
    expect((streamed as InvalidJsonError).message).toBe((whole as InvalidJsonError).message);
  });

  it("passes on the file system's error for a file it cannot read", async () => {
    await expect(readJsonFile(path.join(dir, "missing.json"))).rejects.toMatchObject({ code: "ENOENT" });
    await expect(readJsonFile(dir, { streamThreshold: 0 })).rejects.toMatchObject({ code: "EISDIR" });
  });
});

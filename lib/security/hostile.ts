import fc from "fast-check";

// Hostile inputs for the API fuzzer (lib/api/fuzz.test.ts): every Unicode plane, unwritable
// number tokens, prototype-polluting keys, deep nesting, huge strings.

/** Any code point of any plane, lone surrogates included (fc's "binary" unit leaves those out). */
export const anyCodePoint = fc
  .integer({ min: 0, max: 0x10ffff })
  .map((cp) => (cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp)));

/** One code point from a chosen plane (0–16), so every plane shows up often, not just the BMP. */
export const planeCodePoint = fc
  .tuple(fc.integer({ min: 0, max: 16 }), fc.integer({ min: 0, max: 0xffff }))
  .map(([plane, offset]) => {
    const cp = plane * 0x10000 + offset;
    return cp >= 0xd800 && cp <= 0xdfff ? String.fromCharCode(cp) : String.fromCodePoint(cp);
  });

export const SPECIAL_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83d",
  "\ufeff",
  "\u202e",
  "\u200b",
  "%",
  "%00",
  "%ff",
  "%E0%A4%A",
  "_",
  "%_\\",
  "\\",
  "'",
  '"',
  "' OR '1'='1",
  "'; drop table leads; --",
  "$1",
  "{{7*7}}",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "prototype",
  "\r\n",
  "\t",
  "😀",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "Ω≈ç√∫",
  "ﷺ",
  "١٢٣",
];

export const NUMBER_LIKE_STRINGS = [
  "0",
  "-0",
  "1",
  "-1",
  "+1",
  " 1",
  "1 ",
  "01",
  "1.0",
  "1.5",
  "1e3",
  "1e309",
  "-1e309",
  "1e-400",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x10",
  "0b1",
  "1_000",
  "9007199254740993",
  "99999999999999999999999999",
  "1000",
  "1001",
  "1000000000",
  "1000000001",
  "2026-02-30",
  "2026-13-01",
  "2026-01-01T25:00:00Z",
  "2026-03-31",
  "2026-03-31T23:59:59.999Z",
  "0000-00-00",
  "-271821-04-20",
  "275760-09-13",
];

/** Strings meant to break parsers, SQL, encodings and length limits. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 3, arbitrary: fc.string({ unit: planeCodePoint, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: anyCodePoint, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 16 }) },
  { weight: 5, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 4, arbitrary: fc.constantFrom(...NUMBER_LIKE_STRINGS) },
  { weight: 1, arbitrary: fc.integer({ min: 90, max: 12_000 }).map((n) => "é".repeat(n)) },
);

/** A JSON number written literally, for numbers JSON.stringify cannot produce (1e309, -0, 1e-400). */
export class RawJson {
  constructor(readonly text: string) {}
}

export const rawNumber = fc
  .constantFrom(
    "1e309",
    "-1e309",
    "-0",
    "0.0",
    "1e-400",
    "123456789012345678901234567890",
    "9007199254740993",
    "-9999999999.999",
    "9999999999.99",
    "10000000000",
    "0.005",
    "1E2",
  )
  .map((text) => new RawJson(text));

export const DANGEROUS_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "__defineGetter__",
];

/** Any JSON value, hostile leaves, nested a few levels. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    fc.double(),
    fc.integer(),
    rawNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...DANGEROUS_KEYS)), tie("value"), {
      maxKeys: 4,
    }),
  ),
})).value;

/** JSON text of a value, writing RawJson literally (and keys such as __proto__ as plain keys). */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(",")}}`;
  }
  const text = JSON.stringify(value);
  return text === undefined ? "null" : text;
}

/** Values shaped for a field, often valid enough to reach the database, often not. */
export function fieldValue(field: string): fc.Arbitrary<unknown> {
  const plausible: fc.Arbitrary<unknown>[] = [];
  if (/email/.test(field)) {
    plausible.push(
      fc
        .tuple(hostileString, fc.constantFrom("@x.example", "@Ex.TEST", "@@x.y", "@x"))
        .map(([s, d]) => s + d),
    );
  }
  if (/phone/.test(field)) {
    plausible.push(fc.stringMatching(/^\+?1?[ (.-]*\d{3}[ ).-]*\d{3}[ .-]*\d{4}$/));
  }
  if (field === "tags" || field === "scopes") {
    plausible.push(fc.array(hostileString, { maxLength: 110 }));
    plausible.push(fc.array(fc.constantFrom("leads:read", "pins:read", "admin", ""), { maxLength: 4 }));
  }
  if (/value|limit|price|amount/.test(field)) {
    plausible.push(fc.double(), rawNumber, fc.integer({ min: -5, max: 20_000_000 }));
  }
  if (/date|_at$/.test(field)) plausible.push(fc.constantFrom(...NUMBER_LIKE_STRINGS));
  if (field === "priority") plausible.push(fc.constantFrom("low", "medium", "high", "HIGH", "urgent"));
  if (field === "status") plausible.push(fc.constantFrom("active", "inactive", "Active", "deleted"));
  if (field === "role")
    plausible.push(fc.constantFrom("admin", "manager", "sales_rep", "technician", "root"));
  if (field === "billing_same_as_property") plausible.push(fc.boolean(), fc.constantFrom("true", 1, 0));
  if (field === "location") plausible.push(fc.tuple(fc.double(), fc.double()));
  if (field === "color") plausible.push(fc.constantFrom("#2563eb", "#ABC", "#12345", "red", ""));
  if (field === "assigned_to") plausible.push(fc.array(hostileString, { maxLength: 4 }), fc.constant([]));
  if (field === "polygon") {
    // Territory rings: often valid (a random quadrilateral may cross itself), often not.
    const position = fc.tuple(fc.double({ min: -200, max: 200 }), fc.double({ min: -100, max: 100 }));
    const nearby = fc.tuple(
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
    );
    plausible.push(
      fc.record({
        type: fc.constantFrom("Polygon", "polygon", "MultiPolygon"),
        coordinates: fc.array(fc.array(position, { maxLength: 8 }), { maxLength: 2 }),
      }),
      fc
        .array(nearby, { minLength: 3, maxLength: 6 })
        .map((ring) => ({ type: "Polygon", coordinates: [ring] })),
    );
  }
  if (field === "stages") {
    // Pipeline stages: often valid enough to be saved, with hostile labels and keys.
    const stage = fc.record(
      {
        key: fc.oneof(hostileString, fc.constantFrom("new", "won", "Lost", "a-b", "a--b", "")),
        label: fc.oneof(hostileString, fc.constantFrom("New", "new ", "Quoted", "")),
        color: fc.oneof(hostileString, fc.constantFrom("#2563eb", "#ABCDEF", "#fff", "red")),
        kind: fc.constantFrom("open", "won", "lost", "OPEN", "maybe"),
      },
      { requiredKeys: ["label", "color", "kind"] },
    );
    plausible.push(fc.array(stage, { maxLength: 8 }));
  }
  return fc.oneof(
    { weight: 3, arbitrary: hostileString },
    { weight: 2, arbitrary: hostileJson },
    {
      weight: plausible.length ? 4 : 0,
      arbitrary: plausible.length ? fc.oneof(...plausible) : hostileString,
    },
  );
}

/** A body for a route: some of its own fields, dangerous keys and random ones, each with hostile values. */
export function bodyFor(fields: readonly string[]): fc.Arbitrary<unknown> {
  const key = fc.oneof(
    { weight: 6, arbitrary: fields.length ? fc.constantFrom(...fields) : fc.string({ maxLength: 8 }) },
    { weight: 1, arbitrary: fc.constantFrom(...DANGEROUS_KEYS) },
    { weight: 1, arbitrary: fc.string({ unit: anyCodePoint, maxLength: 6 }) },
  );
  const object = fc
    .array(
      key.chain((k) => fieldValue(k).map((v) => [k, v] as const)),
      { maxLength: 10 },
    )
    .map((entries) => {
      // Built on a null prototype so that __proto__ stays an own, serialisable key.
      const out = Object.create(null) as Record<string, unknown>;
      for (const [k, v] of entries) out[k] = v;
      return out;
    });
  return fc.oneof(
    { weight: 12, arbitrary: object },
    { weight: 1, arbitrary: fc.array(object, { maxLength: 3 }) },
    { weight: 1, arbitrary: hostileJson },
  );
}

/** Body texts no serializer would write: broken JSON, invalid UTF-8, deep nesting, oversize. */
export const rawBodyText: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "{",
    "}",
    "{]",
    "null",
    "[]",
    "0",
    '"x"',
    "true",
    "{'name': 'x'}",
    '{"name": "x",}',
    '{"name": NaN}',
    '{"name": Infinity}',
    '{"name": undefined}',
    '{"__proto__": {"admin": true}}',
    '{"constructor": {"prototype": {"admin": true}}}',
    '{"name":"a","name":"b"}',
    "\ufeff{}",
  ),
  fc.integer({ min: 1, max: 200_000 }).map((n) => "[".repeat(n) + "]".repeat(n)),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `{"name":${'{"a":'.repeat(n)}1${"}".repeat(n)}}`),
  fc.uint8Array({ maxLength: 64 }),
  fc.constantFrom(
    Uint8Array.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    Uint8Array.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  ),
  fc.constant(`{"notes":"${"x".repeat(1024 * 1024)}"}`),
  fc.string({ unit: anyCodePoint, maxLength: 40 }),
);

/** Percent-encodes a string's UTF-8 bytes (lone surrogates become U+FFFD, as a browser would send). */
export function encodeQueryPart(value: string): string {
  return [...Buffer.from(value, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}

/** A query string: the route's own parameters and others, values hostile, encoded well or badly. */
export function queryFor(params: readonly string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...params, "page", "limit") },
    { weight: 1, arbitrary: fc.constantFrom(...DANGEROUS_KEYS, "", "a[b]", "search[]") },
    { weight: 1, arbitrary: hostileString },
  );
  const pair = fc.tuple(name, hostileString, fc.integer({ min: 0, max: 9 })).map(([k, v, mode]) => {
    if (mode === 0) return `${k}=${v}`; // raw: the URL parser encodes what it must
    if (mode === 1) return `${encodeQueryPart(k)}=${v.replace(/[#&]/g, "")}%`;
    if (mode === 2) return `${encodeQueryPart(k)}`;
    return `${encodeQueryPart(k)}=${encodeQueryPart(v)}`;
  });
  return fc.oneof(
    { weight: 10, arbitrary: fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join("&")) },
    { weight: 1, arbitrary: fc.integer({ min: 4000, max: 6000 }).map((n) => `search=${"a".repeat(n)}`) },
    { weight: 1, arbitrary: fc.string({ unit: anyCodePoint, maxLength: 30 }) },
  );
}

/** A header value as it can arrive over HTTP: visible ASCII and Latin-1, no CR/LF/NUL. */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({
    unit: fc.oneof(
      fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
      fc.constant("\t"),
    ),
    maxLength: 40,
  }),
  fc.integer({ min: 200, max: 8000 }).map((n) => "k".repeat(n)),
);

import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";

/*
 * The OpenAPI document's schemas (JSON Schema 2020-12) as a validator and as fast-check
 * arbitraries, for tests that hold the server to what the document says: requests are made from
 * the request schemas, answers are checked against the response schemas.
 */

export type JsonObject = { [key: string]: unknown };
type Schema = JsonObject | boolean;

const DOCUMENT_ID = "openapi.json";

/** A JSON pointer to a place in the document, from its path segments. */
export function pointer(...segments: (string | number)[]): string {
  return `#/${segments.map((s) => String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}

/** Validates values against schemas of the document, found by JSON pointer (ajv resolves the $refs). */
export function createDocumentValidator(document: JsonObject) {
  const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
  addFormats(ajv);
  // OpenAPI's own numeric formats say how wide a number is: any number of its type fits.
  for (const format of ["int32", "int64", "float", "double"]) ajv.addFormat(format, true);
  ajv.addSchema(document, DOCUMENT_ID);
  const compiled = new Map<string, ValidateFunction>();
  const at = (where: string) => {
    let validate = compiled.get(where);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}${where}` });
      compiled.set(where, validate);
    }
    return validate;
  };
  return {
    /** The problems of `value` against the schema at `where` (a JSON pointer); empty when valid. */
    problems(where: string, value: unknown): string[] {
      const validate = at(where);
      if (validate(value)) return [];
      return (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? e.keyword}`);
    },
    isValid: (where: string, value: unknown) => at(where)(value),
  };
}

/** The value at a JSON pointer of the document. */
export function resolvePointer(document: JsonObject, where: string): unknown {
  let node: unknown = document;
  for (const raw of where.replace(/^#\/?/, "").split("/")) {
    if (raw === "") continue;
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    node = (node as Record<string, unknown> | undefined)?.[key];
  }
  return node;
}

export interface ArbitraryOptions {
  /** Values to offer for a string named like this (ids that exist), besides generated ones. */
  knownValues?: (name: string | undefined) => readonly string[] | undefined;
  /** Longest array generated (the schema's own maximum if lower). */
  maxItems?: number;
}

const asObject = (schema: Schema): JsonObject => (typeof schema === "object" ? schema : {});
const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

/** Code points, as JSON Schema's minLength and maxLength count them. */
const codePoints = (value: string) => [...value].length;

/**
 * Values a schema accepts. Generation follows the keywords it knows (types, enums, formats,
 * patterns, limits, required and optional properties, $ref); the caller filters by the validator
 * so that what a generator over-approximates never counts as a schema-valid request.
 */
export function arbitraryFor(
  document: JsonObject,
  schema: Schema,
  options: ArbitraryOptions = {},
  name?: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (schema === true) return fc.jsonValue({ maxDepth: 2 });
  if (schema === false) throw new Error("a schema that accepts nothing has no values");
  if (depth > 12) throw new Error("schema nesting too deep to generate");
  const recurse = (child: Schema, childName = name) =>
    arbitraryFor(document, child, options, childName, depth + 1);

  if (typeof schema.$ref === "string") {
    const target = resolvePointer(document, schema.$ref) as Schema | undefined;
    if (target === undefined) throw new Error(`unresolved $ref ${schema.$ref}`);
    return recurse(target);
  }
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives)
    return fc.oneof(...alternatives.map((a) => recurse({ ...without(schema), ...asObject(a) })));
  if (Array.isArray(schema.allOf)) {
    const merged = (schema.allOf as Schema[]).reduce<JsonObject>(
      (all, part) => ({ ...all, ...asObject(part) }),
      without(schema, "allOf"),
    );
    return recurse(merged);
  }
  if (Array.isArray(schema.type)) {
    return fc.oneof(...(schema.type as string[]).map((type) => recurse({ ...schema, type })));
  }

  const type = (schema.type as string | undefined) ?? (schema.properties ? "object" : undefined);
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return integerArbitrary(schema);
    case "number":
      return numberArbitrary(schema);
    case "string":
      return stringArbitrary(schema, options.knownValues?.(name));
    case "array": {
      if (Array.isArray(schema.prefixItems)) {
        // A tuple ([latitude, longitude]): its positions, no more (items: false).
        return fc.tuple(...(schema.prefixItems as Schema[]).map((item) => recurse(item)));
      }
      const items = recurse((schema.items as Schema | undefined) ?? true);
      const minLength = num(schema.minItems) ?? 0;
      const maxLength = Math.max(
        minLength,
        Math.min(num(schema.maxItems) ?? Infinity, options.maxItems ?? 4),
      );
      return schema.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength, maxLength });
    }
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, child]) => [key, recurse(child, key)]),
      );
      const record = fc.record(model, { requiredKeys: required.filter((key) => key in properties) });
      // Where the schema allows other members, a client may send one: the server must not choke on it.
      if (schema.additionalProperties === false || schema.unevaluatedProperties === false) return record;
      return fc
        .tuple(record, fc.option(fc.constant("x_unlisted"), { freq: 8 }))
        .map(([value, extra]) =>
          extra ? { ...value, [extra]: "a value of a member the schema does not list" } : value,
        );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function without(schema: JsonObject, ...keys: string[]): JsonObject {
  const rest = { ...schema };
  for (const key of ["anyOf", "oneOf", "description", "examples", "default", ...keys]) delete rest[key];
  return rest;
}

function integerArbitrary(schema: JsonObject): fc.Arbitrary<number> {
  const exclusiveMin = num(schema.exclusiveMinimum);
  const exclusiveMax = num(schema.exclusiveMaximum);
  const min = Math.max(
    num(schema.minimum) ?? Number.MIN_SAFE_INTEGER,
    exclusiveMin !== undefined ? Math.floor(exclusiveMin) + 1 : Number.MIN_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
  );
  const max = Math.min(
    num(schema.maximum) ?? Number.MAX_SAFE_INTEGER,
    exclusiveMax !== undefined ? Math.ceil(exclusiveMax) - 1 : Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER,
  );
  const small = fc.integer({ min: Math.max(min, Math.min(max, -3)), max: Math.min(max, Math.max(min, 200)) });
  // The edges of the range are where limits go wrong; small values are where most requests live.
  return fc.oneof(
    { weight: 4, arbitrary: small },
    fc.constantFrom(min, max),
    fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
  );
}

function numberArbitrary(schema: JsonObject): fc.Arbitrary<number> {
  const min = num(schema.minimum) ?? num(schema.exclusiveMinimum) ?? -1e9;
  const max = num(schema.maximum) ?? num(schema.exclusiveMaximum) ?? 1e9;
  return fc
    .oneof(
      fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom(min, max, 0),
      fc.integer({ min: Math.ceil(Math.max(min, -1e6)), max: Math.floor(Math.min(max, 1e6)) }),
    )
    .map((n) => (Object.is(n, -0) ? 0 : n));
}

function stringArbitrary(schema: JsonObject, known: readonly string[] | undefined): fc.Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = num(schema.maxLength);
  const fits = (s: string) =>
    codePoints(s) >= minLength && (maxLength === undefined || codePoints(s) <= maxLength);
  let generated: fc.Arbitrary<string>;
  switch (schema.format) {
    case "date":
      generated = isoDate().map((d) => d.toISOString().slice(0, 10));
      break;
    case "date-time":
      generated = fc.oneof(
        isoDate().map((d) => d.toISOString()),
        isoDate().map((d) => d.toISOString().replace(/\.\d{3}Z$/, "+02:00")),
      );
      break;
    case "email":
      generated = fc.emailAddress();
      break;
    case "uuid":
      generated = fc.uuid();
      break;
    default:
      if (typeof schema.pattern === "string") {
        generated = fc.stringMatching(new RegExp(schema.pattern));
      } else {
        const size = { minLength, maxLength: Math.min(maxLength ?? 40, minLength + 40) };
        generated = fc.oneof(
          { weight: 3, arbitrary: fc.string({ ...size, unit: "grapheme-ascii" }) },
          { weight: 2, arbitrary: fc.string({ ...size, unit: "grapheme" }) },
          fc.string({ ...size, unit: "binary" }),
        );
      }
  }
  generated = generated.filter(fits);
  const usable = (known ?? []).filter(fits);
  return usable.length > 0 ? fc.oneof(fc.constantFrom(...usable), generated) : generated;
}

const isoDate = () =>
  fc.date({
    min: new Date("1990-01-01T00:00:00Z"),
    max: new Date("2060-12-31T23:59:59Z"),
    noInvalidDate: true,
  });

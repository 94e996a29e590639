import "server-only";
import { z } from "zod";
import type { NamedSchema } from "./types";

/** A JSON Schema (2020-12) or OpenAPI object, as plain JSON. */
export type JsonObject = { [key: string]: unknown };

const BASE = {
  target: "draft-2020-12",
  unrepresentable: "any",
  override: ({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodTypes; jsonSchema: JsonObject }) => {
    // A bigint (a page number) is sent as a JSON integer (lib/api/handler.ts jsonResponse); a
    // number-or-bigint is one integer.
    const def = zodSchema._zod.def;
    const integers =
      def.type === "bigint" ||
      (def.type === "union" &&
        def.options.every((o) => o._zod.def.type === "bigint" || o._zod.def.type === "number"));
    if (!integers) return;
    delete jsonSchema.anyOf;
    Object.assign(jsonSchema, { type: "integer", format: "int64" });
  },
} as const;
export const componentRef = (name: string) => `#/components/schemas/${name}`;

/**
 * components.schemas via zod's converter: requests as the client sends them (`io: "input"`), responses
 * as the server produces them (`io: "output"`). A named schema nested in another becomes a $ref.
 */
export function componentSchemas(schemas: readonly NamedSchema[], io: "input" | "output"): JsonObject {
  const registry = z.registry<{ id: string }>();
  for (const { name, schema } of schemas) {
    const existing = registry.get(schema);
    if (existing && existing.id !== name) {
      throw new Error(`One zod schema is named both ${existing.id} and ${name}`);
    }
    registry.add(schema, { id: name });
  }
  const { schemas: converted } = z.toJSONSchema(registry, { ...BASE, io, uri: componentRef });
  const out: JsonObject = {};
  for (const [name, schema] of Object.entries(converted)) out[name] = clean(schema);
  return out;
}

/** Drops what does not belong in an OpenAPI schema object and the noise of unbounded integers. */
export function clean<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clean) as T;
  if (value === null || typeof value !== "object") return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "$schema" || key === "$id") continue;
    if (key === "minimum" && child === Number.MIN_SAFE_INTEGER) continue;
    if (key === "maximum" && child === Number.MAX_SAFE_INTEGER) continue;
    out[key] = clean(child);
  }
  return out as T;
}

interface ZodDefShape {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  defaultValue?: unknown;
}
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as ZodDefShape;

/**
 * A parameter's input side says only "string", so clients get the most precise representable stage of
 * its pipe instead (`limit`: integer 1..1000, default 50), falling back to the input side.
 */
export function parameterSchema(schema: z.ZodType): JsonObject {
  const best =
    representative(schema) ?? stripDescription(clean(z.toJSONSchema(schema, { ...BASE, io: "input" })));
  return best;
}

function representative(schema: z.ZodType): JsonObject | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
    case "nullable":
    case "readonly":
      return def.innerType ? representative(def.innerType) : undefined;
    case "default":
    case "prefault": {
      const inner = def.innerType ? representative(def.innerType) : undefined;
      const value = typeof def.defaultValue === "bigint" ? Number(def.defaultValue) : def.defaultValue;
      return inner ? { ...inner, default: value } : undefined;
    }
    case "pipe":
      return (def.out && representative(def.out)) ?? (def.in && representative(def.in));
    case "transform":
      return undefined;
    default: {
      const json = stripDescription(clean(z.toJSONSchema(schema, { ...BASE, io: "output" })));
      if (Object.keys(json).length === 0) return undefined;
      // `true`/`false` strings turned into a boolean: say boolean.
      if (Array.isArray(json.enum) && [...json.enum].sort().join() === "false,true")
        return { type: "boolean" };
      return json;
    }
  }
}

function stripDescription(json: JsonObject): JsonObject {
  const rest = { ...json };
  delete rest.description;
  return rest;
}

/** The first description found from the outside in (`.describe()` may sit on any wrapper). */
export function descriptionOf(schema: z.ZodType): string | undefined {
  let current: z.ZodType | undefined = schema;
  while (current) {
    const description = z.globalRegistry.get(current)?.description;
    if (description) return description;
    const def = defOf(current);
    current = def.innerType ?? def.in;
  }
  return undefined;
}

/** Whether a client must send this field (not optional, no default). */
export function isRequiredInput(schema: z.ZodType): boolean {
  return schema._zod.optin === undefined;
}

import "server-only";
import { errorDescription, errorStatus, type DocumentedError } from "./errors";
import type { GuideSection } from "./guide";
import type { JsonObject } from "./json-schema";

/**
 * The /docs page's view of the OpenAPI document: the page renders only what this reads from
 * the document, so the reference and /api/openapi.json cannot say different things.
 */
export interface ReferenceField {
  /** Dotted path: `address.city`, `data[].tags`. */
  name: string;
  type: string;
  required: boolean;
  description?: string;
  /** Limits and defaults in words: "max 255 characters", "default 50". */
  constraints: string[];
  depth: number;
}

export interface ReferenceParameter extends ReferenceField {
  in: "path" | "query" | "header";
}

export interface ReferenceResponse {
  status: string;
  description: string;
  contentType: string;
  schemaName?: string;
  fields: ReferenceField[];
}

export interface ReferenceError {
  status: string;
  code: string | null;
  label: string;
  description: string;
  example?: string;
}

export interface ReferenceEndpoint {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string[];
  auth: "both" | "session" | "none";
  scopes: string[];
  scopeNamed?: string;
  roles?: string[];
  parameters: ReferenceParameter[];
  body?: { description?: string; schemaName?: string; fields: ReferenceField[] };
  responses: ReferenceResponse[];
  errors: ReferenceError[];
  curl: string;
}

export interface ReferenceGroup {
  id: string;
  name: string;
  description: string;
  endpoints: ReferenceEndpoint[];
}

export interface Reference {
  title: string;
  version: string;
  summary: string;
  guide: GuideSection[];
  groups: ReferenceGroup[];
}

type Operation = JsonObject & {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  parameters?: JsonObject[];
  requestBody?: { description?: string; content: Record<string, { schema: JsonObject }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonObject }> }>;
};

const METHODS = ["get", "post", "put", "patch", "delete"];
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export function buildReference(doc: JsonObject): Reference {
  const info = doc.info as { title: string; version: string; summary?: string };
  const components = doc.components as {
    schemas: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
  };
  const tags = (doc.tags as { name: string; description?: string }[]) ?? [];
  const groups: ReferenceGroup[] = tags.map((tag) => ({
    id: slug(tag.name),
    name: tag.name,
    description: tag.description ?? "",
    endpoints: [],
  }));

  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const group = groups.find((g) => g.name === op.tags[0]);
      if (!group) throw new Error(`${method} ${path} has no known tag`);
      group.endpoints.push(endpoint(method, path, op, components));
    }
  }
  return {
    title: info.title,
    version: info.version,
    summary: info.summary ?? "",
    guide: (doc["x-guide"] as GuideSection[]) ?? [],
    groups: groups.filter((g) => g.endpoints.length > 0),
  };
}

function endpoint(
  method: string,
  path: string,
  op: Operation,
  components: { schemas: Record<string, JsonObject>; parameters: Record<string, JsonObject> },
): ReferenceEndpoint {
  const resolve = (schema: JsonObject): JsonObject => {
    const ref = schema.$ref;
    if (typeof ref !== "string") return schema;
    const name = ref.split("/").pop()!;
    const target = ref.startsWith("#/components/parameters/")
      ? components.parameters[name]
      : components.schemas[name];
    if (!target) throw new Error(`Unresolved ${ref}`);
    return resolve(target);
  };
  const refName = (schema: JsonObject | undefined) =>
    typeof schema?.$ref === "string" ? schema.$ref.split("/").pop() : undefined;

  const parameters: ReferenceParameter[] = (op.parameters ?? []).map((raw) => {
    const p = resolve(raw) as JsonObject & {
      name: string;
      in: "path" | "query" | "header";
      required?: boolean;
    };
    const schema = (p.schema as JsonObject) ?? {};
    return {
      name: p.name,
      in: p.in,
      type: typeName(schema, resolve),
      required: p.required === true,
      description: (p.description as string | undefined) ?? (schema.description as string | undefined),
      constraints: constraints(schema),
      depth: 0,
    };
  });

  const bodySchema = op.requestBody?.content["application/json"]?.schema;
  const body = bodySchema
    ? {
        description: op.requestBody?.description,
        schemaName: refName(bodySchema),
        fields: fields(resolve(bodySchema), resolve),
      }
    : undefined;

  const responses: ReferenceResponse[] = [];
  const errors: ReferenceError[] = [];
  const codes = (op["x-error-codes"] as DocumentedError[] | undefined) ?? [];
  for (const [status, response] of Object.entries(op.responses)) {
    if (Number(status) < 400) {
      const [contentType, media] = Object.entries(response.content ?? {})[0] ?? ["", undefined];
      const schema = media?.schema;
      responses.push({
        status,
        description: response.description,
        contentType,
        schemaName: refName(schema),
        fields:
          schema && contentType === "application/json"
            ? fields(resolve(schema), resolve)
            : csvColumns(schema).map((name) => ({
                name,
                type: "CSV column",
                required: true,
                constraints: [],
                depth: 0,
              })),
      });
    }
  }
  for (const code of codes) {
    const status = String(errorStatus(code));
    const examples = (
      op.responses[status]?.content?.["application/json"] as
        { examples?: Record<string, { value: JsonObject }> } | undefined
    )?.examples;
    const message = examples?.[code]?.value.message;
    errors.push({
      status,
      code: code === "RECORD_NOT_FOUND" || code === "INTERNAL" ? null : code,
      label: code === "RECORD_NOT_FOUND" ? "not found" : code === "INTERNAL" ? "internal error" : code,
      description: errorDescription(code),
      example: typeof message === "string" ? message : undefined,
    });
  }

  return {
    id: `${method}-${slug(path)}`,
    method: method.toUpperCase(),
    path,
    summary: op.summary,
    description: (op.description ?? "").split(/\n\n+/).filter(Boolean),
    auth: (op["x-auth"] as ReferenceEndpoint["auth"]) ?? "both",
    scopes: (op["x-scopes"] as string[]) ?? [],
    scopeNamed: op["x-scope-named"] as string | undefined,
    roles: op["x-roles"] as string[] | undefined,
    parameters,
    body,
    responses,
    errors,
    curl: ((op["x-codeSamples"] as { source: string }[] | undefined) ?? [])[0]?.source ?? "",
  };
}

function csvColumns(schema: JsonObject | undefined): string[] {
  const columns = schema?.["x-csv-columns"];
  return Array.isArray(columns) ? columns.filter((c): c is string => typeof c === "string") : [];
}

/** A schema's properties as rows, nested objects and arrays of objects flattened with dotted names. */
export function fields(
  schema: JsonObject,
  resolve: (s: JsonObject) => JsonObject,
  prefix = "",
  depth = 0,
): ReferenceField[] {
  const object = objectOf(schema, resolve);
  if (!object) return [];
  const properties = (object.properties as Record<string, JsonObject>) ?? {};
  const required = new Set((object.required as string[]) ?? []);
  const rows: ReferenceField[] = [];
  for (const [key, raw] of Object.entries(properties)) {
    const property = resolveDescribed(raw, resolve);
    const name = `${prefix}${key}`;
    rows.push({
      name,
      type: typeName(raw, resolve),
      required: required.has(key),
      // An undescribed list of records says what its records are.
      description: (property.description ?? arrayItems(property, resolve)?.description) as string | undefined,
      constraints: constraints(property),
      depth,
    });
    if (depth >= 3) continue;
    const nested = objectOf(property, resolve);
    if (nested) rows.push(...fields(nested, resolve, `${name}.`, depth + 1));
    const items = arrayItems(property, resolve);
    if (items && objectOf(items, resolve)) rows.push(...fields(items, resolve, `${name}[].`, depth + 1));
  }
  return rows;
}

/** Resolves a $ref but keeps the description written beside it. */
function resolveDescribed(schema: JsonObject, resolve: (s: JsonObject) => JsonObject): JsonObject {
  const target = resolve(schema);
  return schema.description ? { ...target, description: schema.description } : target;
}

function nonNull(schema: JsonObject, resolve: (s: JsonObject) => JsonObject): JsonObject {
  const s = resolve(schema);
  const anyOf = s.anyOf as JsonObject[] | undefined;
  if (anyOf) {
    const rest = anyOf.filter((a) => a.type !== "null");
    if (rest.length === 1) return resolve(rest[0]!);
  }
  return s;
}

function objectOf(schema: JsonObject, resolve: (s: JsonObject) => JsonObject): JsonObject | undefined {
  const s = nonNull(schema, resolve);
  return s.type === "object" && s.properties ? s : undefined;
}

function arrayItems(schema: JsonObject, resolve: (s: JsonObject) => JsonObject): JsonObject | undefined {
  const s = nonNull(schema, resolve);
  return s.type === "array" && s.items && typeof s.items === "object" && !Array.isArray(s.items)
    ? resolve(s.items as JsonObject)
    : undefined;
}

/** A short human type: `string | null`, `"low" | "medium" | "high"`, `array of Lead`, `[number, number]`. */
export function typeName(schema: JsonObject, resolve: (s: JsonObject) => JsonObject): string {
  if (typeof schema.$ref === "string") return schema.$ref.split("/").pop()!;
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const anyOf = (schema.anyOf ?? schema.oneOf) as JsonObject[] | undefined;
  // A typed schema whose alternatives only refine it (a date or a date-time string) is of its type.
  if (anyOf && !(typeof schema.type === "string" && anyOf.every(isRefinement))) {
    return anyOf.map((a) => typeName(a, resolve)).join(" | ");
  }
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  if (schema.type === "array") {
    if (Array.isArray(schema.prefixItems)) {
      return `[${(schema.prefixItems as JsonObject[]).map((i) => typeName(i, resolve)).join(", ")}]`;
    }
    const items = schema.items as JsonObject | undefined;
    return items ? `array of ${typeName(items, resolve)}` : "array";
  }
  if (schema.type === "object" && !schema.properties) return "object";
  return typeof schema.type === "string" ? schema.type : "any";
}

/** An alternative that only adds checks to its parent's type (no type, $ref, const or enum of its own). */
const isRefinement = (a: JsonObject) => !("type" in a || "$ref" in a || "const" in a || "enum" in a);

/** Patterns longer than this are left to the field's description and the OpenAPI document. */
const PATTERN_SHOWN_MAX = 60;

export function constraints(schema: JsonObject): string[] {
  const out: string[] = [];
  const options = schema.anyOf as JsonObject[] | undefined;
  const nonNull =
    (options?.some(isRefinement) ? undefined : options?.find((a) => a.type !== "null")) ?? schema;
  const alternatives = nonNull.anyOf as JsonObject[] | undefined;
  const s =
    alternatives && alternatives.every(isRefinement)
      ? {
          ...nonNull,
          format:
            alternatives
              .map((a) => a.format)
              .filter(Boolean)
              .join(" or ") || undefined,
        }
      : nonNull;
  const n = (key: string) => (typeof s[key] === "number" ? (s[key] as number) : undefined);
  const minLength = n("minLength");
  const maxLength = n("maxLength");
  if (minLength !== undefined && minLength > 0 && maxLength !== undefined)
    out.push(`${minLength}–${maxLength} characters`);
  else if (maxLength !== undefined) out.push(`max ${maxLength.toLocaleString("en-US")} characters`);
  else if (minLength !== undefined && minLength > 0)
    out.push(`min ${minLength} character${minLength > 1 ? "s" : ""}`);
  const minimum = n("minimum");
  const maximum = n("maximum");
  if (minimum !== undefined && maximum !== undefined)
    out.push(`${minimum.toLocaleString("en-US")} to ${maximum.toLocaleString("en-US")}`);
  else if (minimum !== undefined) out.push(`≥ ${minimum}`);
  else if (maximum !== undefined) out.push(`≤ ${maximum}`);
  const maxItems = n("maxItems");
  if (maxItems !== undefined) {
    const items = s.items as JsonObject | undefined;
    const itemMax = typeof items?.maxLength === "number" ? ` of max ${items.maxLength} characters` : "";
    out.push(`max ${maxItems} items${itemMax}`);
  }
  if (typeof s.format === "string") out.push(s.format);
  if (s.pattern === "\\S") out.push("not blank");
  else if (typeof s.pattern === "string" && s.pattern.length <= PATTERN_SHOWN_MAX)
    out.push(`pattern ${s.pattern}`);
  if ("default" in schema || "default" in s)
    out.push(`default ${JSON.stringify(schema.default ?? s.default)}`);
  return out;
}

import "server-only";
import { DEFAULT_DAILY_LIMIT } from "@/lib/values/limits";
import { z } from "zod";
import { routeDeclarationOf, VERSION_HEADER, type RouteDeclaration } from "@/lib/api/handler";
import { declaredAccess } from "@/lib/api/route-config";
import { API_VERSION } from "@/lib/schemas/auth";
import { SCOPES } from "@/lib/values/scopes";
import { scopeNamedInRefusal, scopesAcceptedFromKeys } from "@/lib/auth/permissions";
import { SESSION_COOKIE } from "@/lib/auth/credentials";
import { errorBodySchema, paginationSchema } from "@/lib/schemas/common";
import { endpointErrors, errorDescription, errorExample, errorStatus, type DocumentedError } from "./errors";
import { guideMarkdown, guideSections } from "./guide";
import {
  clean,
  componentRef,
  componentSchemas,
  descriptionOf,
  isRequiredInput,
  parameterSchema,
  type JsonObject,
} from "./json-schema";
import { RESOURCES, type ResourceTag } from "./resources";
import type {
  ApiOperation,
  EndpointAccess,
  EndpointExample,
  EndpointSpec,
  NamedSchema,
  ResourceSpec,
} from "./types";

export const DOCUMENT_TITLE = "FieldCRM API";
/** The document describes this version of the interface (the service-api-version header). */
export const DOCUMENT_VERSION = API_VERSION;
/** Where a curl example sends its requests; the dev server's default address. */
export const EXAMPLE_BASE_URL = "http://localhost:3000/api";

/** Response headers, defined once under components.headers. */
const HEADERS: Record<string, { description: string; schema: JsonObject }> = {
  "X-Request-Id": {
    description: "Identifies this request in the server's log; quote it when reporting a problem.",
    schema: { type: "string", format: "uuid" },
  },
  "RateLimit-Policy": {
    description: 'The key\'s quota (IETF draft form): `"daily";q=<limit>;w=86400`. API key requests only.',
    schema: { type: "string", examples: [`"daily";q=${DEFAULT_DAILY_LIMIT};w=86400`] },
  },
  RateLimit: {
    description:
      'What is left (IETF draft form): `"daily";r=<remaining>;t=<seconds until 00:00 UTC>`. API key requests only.',
    schema: { type: "string", examples: ['"daily";r=998;t=43200'] },
  },
  "X-RateLimit-Limit": {
    description: "The key's daily request limit. API key requests only.",
    schema: { type: "integer", minimum: 0 },
  },
  "X-RateLimit-Remaining": {
    description: "Requests left today (UTC). API key requests only.",
    schema: { type: "integer", minimum: 0 },
  },
  "X-RateLimit-Reset": {
    description: "When the count resets: the next 00:00 UTC, in Unix seconds. API key requests only.",
    schema: { type: "integer" },
  },
  "Retry-After": {
    description: "Seconds to wait before retrying (429: until 00:00 UTC; 503: a few seconds).",
    schema: { type: "integer", minimum: 1 },
  },
};
const RATE_LIMIT_HEADERS = [
  "RateLimit-Policy",
  "RateLimit",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
];
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

export const SECURITY_SCHEMES = {
  ApiKey: {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description:
      "An API key of one company. Keys carry scopes and a daily request limit; create them under " +
      "Settings → API keys (admins) or with `npm run apikey:create`.",
  },
  Session: {
    type: "apiKey",
    in: "cookie",
    name: SESSION_COOKIE,
    description:
      "The dashboard's session cookie (HttpOnly, SameSite=Lax), set by signing in. A session acts " +
      "for its user's company with the scopes of the user's role and does not use a key's quota.",
  },
} as const;

/**
 * A resource as documented: each endpoint lists, after its own scopes, the key scopes that grant
 * them (lib/auth/permissions.ts), and names in a 403 the one a key would be told about.
 */
function withKeyScopes(resource: ResourceSpec): ResourceSpec {
  return {
    ...resource,
    endpoints: resource.endpoints.map((endpoint) =>
      endpoint.scopes
        ? {
            ...endpoint,
            scopes: scopesAcceptedFromKeys(endpoint.scopes),
            scopeNamed: endpoint.scopeNamed ?? scopeNamedInRefusal(endpoint.scopes, "api_key"),
          }
        : endpoint,
    ),
  };
}

/** Who may call a route, read from its declaration: the one place that knows its access fields. */
export function accessOf(declaration: RouteDeclaration): EndpointAccess {
  if (declaration.auth === "none") {
    return { auth: "none", requireVersion: declaration.requireVersion !== false };
  }
  // The route names actions; the document shows the scopes and roles they stand for.
  const access = declaredAccess(declaration);
  return {
    auth: access.auth,
    scopes: access.scopes.length > 0 ? access.scopes : undefined,
    alsoScopes: access.alsoScopes,
    inputScopes: access.inputScopes.length > 0 ? access.inputScopes : undefined,
    roles: access.roles,
  };
}

/** A zod object schema of the declaration (query or path parameters), or none. */
function objectSchema(schema: z.ZodType | undefined, what: string): z.ZodObject | undefined {
  if (schema === undefined) return undefined;
  if (!(schema instanceof z.ZodObject)) throw new Error(`${what} is not a zod object`);
  return schema;
}

/** One operation of the route index as documented: its declaration's access and schemas, its docs. */
function endpointOf([method, path, routeModule]: ApiOperation): { tag: string; endpoint: EndpointSpec } {
  const key = `${method} ${path}`;
  const declaration = routeDeclarationOf((routeModule as Record<string, unknown>)[method]);
  if (!declaration) throw new Error(`${key} is not an apiRoute`);
  const docs = declaration.docs;
  if (!docs) throw new Error(`${key} has no docs`);
  const { tag, bodyName, ...text } = docs;
  if (declaration.body && !bodyName) throw new Error(`${key} has a body but no docs.bodyName`);
  return {
    tag,
    endpoint: {
      method,
      path,
      ...accessOf(declaration),
      ...text,
      params: objectSchema(declaration.params, `${key} params`),
      query: objectSchema(declaration.query, `${key} query`),
      ...(declaration.body && bodyName ? { body: { name: bodyName, schema: declaration.body } } : {}),
    },
  };
}

/** The groups of the reference with their endpoints, in the order of the tag table and the index. */
function resourcesOf(
  operations: readonly ApiOperation[],
  tags: Readonly<Record<string, ResourceTag>>,
): ResourceSpec[] {
  const resources: ResourceSpec[] = Object.entries(tags).map(([tag, resource]) => ({
    tag,
    ...resource,
    endpoints: [],
  }));
  for (const operation of operations) {
    const { tag, endpoint } = endpointOf(operation);
    const resource = resources.find((r) => r.tag === tag);
    if (!resource) throw new Error(`${endpoint.method} ${endpoint.path} names the unknown tag ${tag}`);
    resource.endpoints.push(endpoint);
  }
  return resources;
}

/**
 * Builds the whole OpenAPI 3.1 document from the route index (app/api/routes.ts): each route's
 * declaration and docs, grouped by the tag table, with their zod schemas.
 */
export function buildOpenApiDocument(
  operations: readonly ApiOperation[],
  tags: Readonly<Record<string, ResourceTag>> = RESOURCES,
): JsonObject {
  const declared = resourcesOf(operations, tags);
  const resources = declared.map(withKeyScopes);
  const endpoints = resources.flatMap((r) => r.endpoints.map((endpoint) => ({ endpoint, tag: r.tag })));
  const outputs: NamedSchema[] = [
    { name: "ErrorBody", schema: errorBodySchema },
    { name: "Pagination", schema: paginationSchema },
    ...resources.flatMap((r) => r.components ?? []),
    ...endpoints.flatMap(({ endpoint }) => endpoint.responses.flatMap((r) => (r.schema ? [r.schema] : []))),
  ];
  const inputs = endpoints.flatMap(({ endpoint }) => (endpoint.body ? [endpoint.body] : []));
  const schemas = mergeComponents(
    componentSchemas(unique(inputs), "input"),
    componentSchemas(unique(outputs), "output"),
  );

  const paths: Record<string, JsonObject> = {};
  const seen = new Set<string>();
  // Generated clients name their functions after operationIds, so two alike would collide.
  const operationIds = new Map<string, string>();
  for (const { endpoint, tag } of endpoints) {
    const key = `${endpoint.method} ${endpoint.path}`;
    if (seen.has(key)) throw new Error(`${key} is documented twice`);
    seen.add(key);
    const sameId = operationIds.get(endpoint.operationId);
    if (sameId) throw new Error(`${key} and ${sameId} share the operationId ${endpoint.operationId}`);
    operationIds.set(endpoint.operationId, key);
    const item = (paths[endpoint.path] ??= {});
    item[endpoint.method.toLowerCase()] = operation(endpoint, tag);
  }

  const guide = guideSections(resources);
  const headers: JsonObject = {};
  for (const [name, header] of Object.entries(HEADERS)) headers[name] = header;

  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: DOCUMENT_TITLE,
      version: DOCUMENT_VERSION,
      summary: "Leads, customers, service plans, serviced jobs and map pins of a field-service company.",
      // A private repository with no licence file: all rights reserved (an SPDX custom reference).
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      description: guideMarkdown(guide),
    },
    servers: [{ url: "/api", description: "This server; every path below is relative to <origin>/api." }],
    tags: resources.map((r) => ({ name: r.tag, description: r.description })),
    paths,
    components: {
      schemas,
      parameters: {
        ServiceApiVersion: {
          name: VERSION_HEADER,
          in: "header",
          required: true,
          description: `The interface version. Its only allowed value is ${API_VERSION}; anything else, or no header, is a 400 UNSUPPORTED_API_VERSION.`,
          // Its one value as the default too, so tools and clients can fill it in once for all calls.
          schema: { type: "string", enum: [API_VERSION], default: API_VERSION },
          example: API_VERSION,
        },
      },
      headers,
      securitySchemes: SECURITY_SCHEMES,
    },
    "x-scopes": [...SCOPES],
    "x-guide": guide,
  };
}

function unique(schemas: NamedSchema[]): NamedSchema[] {
  const byName = new Map<string, NamedSchema>();
  for (const s of schemas) {
    const existing = byName.get(s.name);
    if (existing && existing.schema !== s.schema) throw new Error(`Two schemas are named ${s.name}`);
    byName.set(s.name, s);
  }
  return [...byName.values()];
}

function mergeComponents(inputs: JsonObject, outputs: JsonObject): JsonObject {
  for (const name of Object.keys(inputs)) {
    if (name in outputs) throw new Error(`${name} is both a request and a response schema`);
  }
  return Object.fromEntries(Object.entries({ ...outputs, ...inputs }).sort(([a], [b]) => a.localeCompare(b)));
}

function operation(endpoint: EndpointSpec, tag: string): JsonObject {
  const auth = endpoint.auth ?? "both";
  const scopes = endpoint.scopes ?? [];
  const errors = endpointErrors(endpoint);
  const parameters: JsonObject[] = [];
  if (endpoint.requireVersion !== false)
    parameters.push({ $ref: "#/components/parameters/ServiceApiVersion" });
  for (const [name, schema] of Object.entries(endpoint.params?.shape ?? {})) {
    parameters.push({
      name,
      in: "path",
      required: true,
      description: endpoint.paramDescriptions?.[name] ?? descriptionOf(schema as z.ZodType),
      schema: parameterSchema(schema as z.ZodType),
    });
  }
  for (const [name, schema] of Object.entries(endpoint.query?.shape ?? {})) {
    const zodSchema = schema as z.ZodType;
    parameters.push({
      name,
      in: "query",
      required: isRequiredInput(zodSchema),
      ...(descriptionOf(zodSchema) ? { description: descriptionOf(zodSchema) } : {}),
      schema: parameterSchema(zodSchema),
    });
  }

  const responses: JsonObject = {};
  const keyHeaders = auth !== "none" ? RATE_LIMIT_HEADERS : [];
  for (const response of endpoint.responses) {
    const contentType = response.contentType ?? "application/json";
    const headers: JsonObject = { "X-Request-Id": headerRef("X-Request-Id") };
    for (const name of keyHeaders) headers[name] = headerRef(name);
    for (const [name, description] of Object.entries(response.headers ?? {})) {
      headers[name] = { description, schema: { type: "string" } };
    }
    // A 204 has no body, so it declares no content.
    if (response.status === 204) {
      responses["204"] = { description: response.description, headers };
      continue;
    }
    responses[String(response.status)] = {
      description: response.description,
      headers,
      content: {
        [contentType]: {
          schema:
            contentType === "text/csv"
              ? {
                  type: "string",
                  description:
                    `CSV: a header row, then one row per record. Columns: ${(response.csvColumns ?? []).join(", ")}` +
                    `${response.csvMoreColumns ? `, ${response.csvMoreColumns}` : ""}. ` +
                    "Text cells are always quoted; text a spreadsheet would run as a formula (starting with =, +, -, @, " +
                    "a tab or a line break) carries a leading ' so that it shows as text.",
                  "x-csv-columns": [...(response.csvColumns ?? [])],
                  // The fixed columns above come first; these follow them and vary with the data.
                  ...(response.csvMoreColumns ? { "x-csv-more-columns": response.csvMoreColumns } : {}),
                }
              : response.schema
                ? { $ref: componentRef(response.schema.name) }
                : { type: "object" },
        },
      },
    };
  }
  for (const [status, group] of groupByStatus(errors)) {
    const headers: JsonObject = { "X-Request-Id": headerRef("X-Request-Id") };
    if (status === 429) for (const name of keyHeaders) headers[name] = headerRef(name);
    if (status === 429 || status === 503) headers["Retry-After"] = headerRef("Retry-After");
    responses[String(status)] = {
      description: group.map((e) => `${codeLabel(e)}: ${errorDescription(e)}`).join("\n\n"),
      headers,
      content: {
        "application/json": {
          schema: { $ref: componentRef("ErrorBody") },
          examples: Object.fromEntries(
            group.map((e) => [e, { summary: codeLabel(e), value: errorExample(e, endpoint) }]),
          ),
        },
      },
    };
  }

  const op: JsonObject = {
    operationId: endpoint.operationId,
    tags: [tag],
    summary: endpoint.summary,
    description: [endpoint.description, accessText(endpoint)].filter(Boolean).join("\n\n"),
    parameters,
    ...(endpoint.rawBody
      ? {
          requestBody: {
            required: true,
            description: endpoint.rawBody.description,
            content: Object.fromEntries(
              endpoint.rawBody.contentTypes.map((type) => [
                type,
                { schema: { type: "string", format: "binary" } },
              ]),
            ),
          },
        }
      : {}),
    ...(endpoint.body
      ? {
          requestBody: {
            required: true,
            description: descriptionOf(endpoint.body.schema),
            content: {
              "application/json": {
                schema: { $ref: componentRef(endpoint.body.name) },
                ...(endpoint.moreExamples ? { examples: bodyExamples(endpoint) } : {}),
              },
            },
          },
        }
      : {}),
    responses,
    security: security(endpoint),
    "x-auth": auth,
    "x-scopes": [...scopes],
    ...(endpoint.alsoScopes ? { "x-also-scopes": [...endpoint.alsoScopes] } : {}),
    ...(endpoint.inputScopes
      ? {
          "x-input-scopes": endpoint.inputScopes.map((s) => ({
            when: s.when,
            scopes: scopesAcceptedFromKeys(s.scopes),
          })),
        }
      : {}),
    ...(scopes.length > 0 ? { "x-scope-named": endpoint.scopeNamed ?? scopes[0] } : {}),
    ...(endpoint.roles ? { "x-roles": [...endpoint.roles] } : {}),
    "x-error-codes": errors,
    "x-codeSamples": [
      { lang: "curl", label: "curl", source: curlExample(endpoint) },
      ...(endpoint.moreExamples ?? []).map((example) => ({
        lang: "curl",
        label: `curl: ${example.summary}`,
        source: curlExample(endpoint, example),
      })),
    ],
  };
  return clean(op);
}

const codeLabel = (error: DocumentedError) =>
  error === "RECORD_NOT_FOUND"
    ? "Not found (no error_code)"
    : error === "INTERNAL"
      ? "Internal error (no error_code)"
      : error;

function groupByStatus(errors: DocumentedError[]): [number, DocumentedError[]][] {
  const groups = new Map<number, DocumentedError[]>();
  for (const error of errors) {
    const status = errorStatus(error);
    groups.set(status, [...(groups.get(status) ?? []), error]);
  }
  return [...groups.entries()].sort(([a], [b]) => a - b);
}

/**
 * OpenAPI 3.1 lets a security requirement of any scheme list role names: each alternative
 * names one accepted scope, so "customers:read or leads:read" reads as two alternatives per scheme.
 */
function security(endpoint: EndpointSpec): JsonObject[] {
  const auth = endpoint.auth ?? "both";
  if (auth === "none") return [];
  const schemes = auth === "session" ? ["Session"] : ["ApiKey", "Session"];
  const scopes = endpoint.scopes ?? [];
  const also = endpoint.alsoScopes ?? [];
  return schemes.flatMap((scheme) =>
    scopes.length === 0 ? [{ [scheme]: [] }] : scopes.map((scope) => ({ [scheme]: [scope, ...also] })),
  );
}

/** The access rules in words, for the operation's description. */
export function accessText(endpoint: EndpointSpec): string {
  const auth = endpoint.auth ?? "both";
  if (auth === "none") return "**Access:** public; no credentials needed.";
  const sessionOf = endpoint.roles ? ` of ${endpoint.roles.map((r) => `${r}s`).join(" or ")}` : "";
  const who =
    auth === "session"
      ? `a signed-in dashboard session${sessionOf} only (an API key gets 403 FORBIDDEN, whatever its scopes)`
      : "an API key or a dashboard session";
  const scopes = endpoint.scopes ?? [];
  const parts = [`**Access:** ${who}.`];
  if (scopes.length === 0) parts.push("No scope needed: any valid credentials.");
  else {
    const named = endpoint.scopeNamed ?? scopes[0];
    parts.push(`**Scopes:** ${scopes.map((s) => `\`${s}\``).join(" or ")}; a 403 names \`${named}\`.`);
    for (const scope of endpoint.alsoScopes ?? []) {
      parts.push(`\`${scope}\` is needed as well (a 403 without it names it).`);
    }
    for (const { when, scopes: needed, scopeNamedToKey } of endpoint.inputScopes ?? []) {
      const named = needed[0] === scopeNamedToKey ? "" : ` (to an API key: \`${scopeNamedToKey}\`)`;
      parts.push(
        `${when} needs ${needed.map((s) => `\`${s}\``).join(" or ")} as well: without it a 403 ` +
          `INSUFFICIENT_SCOPE names it${named}.`,
      );
    }
    // Legacy: leads:read stands in for the endpoint's own scope, and the 403 names it (GET /pipeline
    // accepts leads:read in its own right, and names pipeline:read).
    if (named === "leads:read" && scopes[0] !== "leads:read") {
      parts.push(
        "`leads:read` is accepted too so that keys made for the original interface keep working (legacy rule).",
      );
    }
  }
  if (endpoint.roles) parts.push(`**Roles:** ${endpoint.roles.join(", ")}.`);
  return parts.join(" ");
}

/** The request bodies of the example and of the further examples, by name. */
function bodyExamples(endpoint: EndpointSpec): JsonObject {
  const examples: JsonObject = {
    default: { summary: endpoint.summary, value: endpoint.example?.body ?? {} },
  };
  for (const example of endpoint.moreExamples ?? []) {
    const query = new URLSearchParams(example.query ?? {}).toString();
    examples[example.name] = {
      summary: query ? `${example.summary} (?${query})` : example.summary,
      value: example.body ?? {},
    };
  }
  return examples;
}

/** A curl command that works against the dev server (with the key in $FIELDCRM_API_KEY). */
export function curlExample(
  endpoint: EndpointSpec,
  example: EndpointExample | undefined = endpoint.example,
): string {
  let path = endpoint.path;
  for (const [name, value] of Object.entries(example?.params ?? {})) {
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  path = path.replace(/\{(\w+)\}/g, (_, name: string) => `<${name}>`);
  const query = new URLSearchParams(example?.query ?? {}).toString();
  const url = `${EXAMPLE_BASE_URL}${path}${query ? `?${query}` : ""}`;
  const lines = [`curl ${endpoint.method === "GET" ? "" : `-X ${endpoint.method} `}"${url}"`];
  if (endpoint.requireVersion !== false) lines.push(`-H "${VERSION_HEADER}: ${API_VERSION}"`);
  const auth = endpoint.auth ?? "both";
  if (auth === "both") lines.push(`-H "x-api-key: $FIELDCRM_API_KEY"`);
  if (auth === "session") lines.push(`-b "${SESSION_COOKIE}=$FIELDCRM_SESSION"`);
  if (endpoint.rawBody) {
    lines.push(`-H "content-type: ${endpoint.rawBody.contentTypes[0]}"`);
    lines.push(`--data-binary "@${example?.query?.file_name ?? "file"}"`);
  }
  if (endpoint.body) {
    lines.push(`-H "content-type: application/json"`);
    lines.push(`-d '${JSON.stringify(example?.body ?? {}).replace(/'/g, "'\\''")}'`);
  }
  if (endpoint.responses.some((r) => r.contentType === "text/csv")) {
    lines.push(`-o "${endpoint.path.split("/").slice(-2, -1)[0] ?? "export"}.csv"`);
  }
  return lines.join(" \\\n  ");
}

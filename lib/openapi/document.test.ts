import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "@/lib/api/errors";
import { SCOPES } from "@/lib/values/scopes";
import { GET as getOpenApiJson } from "@/app/api/openapi.json/route";
import { apiRequest, call } from "@/lib/testing/factories";
import { getOpenApiDocument } from "@/app/api/routes";
import { buildOpenApiDocument } from "./document";
import { errorStatus, type DocumentedError } from "./errors";
import type { JsonObject } from "./json-schema";
import { named, type RouteDocs } from "./types";
import { apiRoute, MAX_QUERY_LENGTH } from "@/lib/api/handler";
import { z } from "zod";

type Operation = JsonObject & {
  responses: Record<
    string,
    JsonObject & { content?: Record<string, { examples?: Record<string, { value: JsonObject }> }> }
  >;
  parameters: JsonObject[];
  security: Record<string, string[]>[];
  requestBody?: { content: Record<string, JsonObject> };
};

function operations(doc = getOpenApiDocument()) {
  return Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([p, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, op })),
  );
}

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(getOpenApiDocument()));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("resolves every $ref it contains", () => {
    const doc = getOpenApiDocument();
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const raw of new Set(refs)) {
      const pointer = raw.slice('"$ref":"#/'.length, -1).split("/");
      let target: unknown = doc;
      for (const part of pointer) target = (target as JsonObject | undefined)?.[part];
      expect(target, raw).toBeDefined();
    }
  });

  it("has the info, server, security schemes and version parameter of the contract", () => {
    const doc = getOpenApiDocument() as JsonObject & {
      info: JsonObject;
      components: JsonObject & Record<string, JsonObject>;
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.1.0");
    expect(doc.info.description).toContain("RATE_LIMIT_EXCEEDED");
    expect(doc.servers).toEqual([expect.objectContaining({ url: "/api" })]);
    expect(doc.components.securitySchemes).toMatchObject({
      ApiKey: { type: "apiKey", in: "header", name: "x-api-key" },
      Session: { type: "apiKey", in: "cookie", name: "fcrm_session" },
    });
    expect(doc.components.parameters).toMatchObject({
      ServiceApiVersion: {
        name: "service-api-version",
        in: "header",
        required: true,
        schema: { type: "string", enum: ["1.1.0"], default: "1.1.0" },
      },
    });
  });

  it("declares the version header once and references it from every operation that checks it", () => {
    const versionRef = { $ref: "#/components/parameters/ServiceApiVersion" };
    for (const { key, op } of operations()) {
      const inline = op.parameters.filter((p) => p.name === "service-api-version");
      expect(inline, key).toEqual([]);
      const checks = key !== "GET /openapi.json";
      expect(
        op.parameters.filter((p) => p.$ref === versionRef.$ref),
        key,
      ).toEqual(checks ? [versionRef] : []);
    }
  });

  it("gives every operation its own operationId, and refuses two alike", () => {
    const ids = operations().map(({ op }) => op.operationId as string);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const docs = (operationId: string): RouteDocs => ({
      tag: "Meta",
      operationId,
      summary: "X",
      responses: [],
    });
    const one = { GET: apiRoute({ handler: async () => ({}), docs: docs("same") }) };
    const other = { GET: apiRoute({ handler: async () => ({}), docs: docs("same") }) };
    expect(() =>
      buildOpenApiDocument([
        ["GET", "/one", one],
        ["GET", "/other", other],
      ]),
    ).toThrow(/GET \/other and GET \/one share the operationId same/);
  });

  it("names the accepted scopes of each authenticated endpoint in security, x-scopes and the description", () => {
    for (const { key, op } of operations()) {
      if (op["x-auth"] === "none") {
        expect(op.security, key).toEqual([]);
        continue;
      }
      const scopes = op["x-scopes"] as string[];
      for (const scope of scopes) expect(SCOPES, key).toContain(scope);
      const named = op["x-scope-named"];
      if (scopes.length > 0) {
        expect(scopes, key).toContain(named);
        expect(op.description, key).toContain(`a 403 names \`${named}\``);
        for (const scope of scopes) expect(op.description, key).toContain(`\`${scope}\``);
        const inSecurity = op.security.flatMap((requirement) => Object.values(requirement).flat());
        const also = (op["x-also-scopes"] as string[] | undefined) ?? [];
        for (const scope of also) expect(op.description, key).toContain(`\`${scope}\` is needed as well`);
        expect(new Set(inSecurity), key).toEqual(new Set([...scopes, ...also]));
        expect(
          op.responses["403"]?.content?.["application/json"]?.examples?.INSUFFICIENT_SCOPE?.value.message,
          key,
        ).toContain(named);
      } else {
        expect(
          op.security.every((r) => Object.values(r).every((s) => s.length === 0)),
          key,
        ).toBe(true);
        expect(op.description, key).toContain("No scope needed");
      }
    }
  });

  it("states the legacy leads:read rule where it applies and nowhere else", () => {
    const legacy = operations()
      .filter(({ op }) => String(op.description).includes("legacy rule"))
      .map(({ key }) => key)
      .sort();
    expect(legacy).toEqual(expect.arrayContaining(["GET /customers", "GET /customers/{id}"]));
    for (const key of legacy) {
      const op = operations().find((o) => o.key === key)!.op;
      expect(op["x-scopes"], key).toContain("leads:read");
      expect(op["x-scope-named"], key).toBe("leads:read");
    }
  });

  it("derives the guide's scope table and legacy list from the endpoints", () => {
    const guide = getOpenApiDocument()["x-guide"] as {
      id: string;
      blocks: { kind: string; text?: string; rows?: string[][] }[];
    }[];
    const auth = guide.find((s) => s.id === "authentication")!;
    const table = auth.blocks.find((b) => b.kind === "table")!;
    const leadsRead = table.rows!.find((r) => r[0] === "`leads:read`")![1]!;
    expect(leadsRead).toContain("`GET /leads/{id}`");
    expect(leadsRead).toContain("`GET /customers`");
    const legacy = auth.blocks.find((b) => b.text?.startsWith("Legacy rule"))!.text!;
    expect(legacy).toContain("`GET /customers/{id}`");
    expect(legacy).not.toContain("`GET /leads`");
  });

  it("keeps session-only endpoints out of the key scope table and names their roles", () => {
    const guide = getOpenApiDocument()["x-guide"] as {
      id: string;
      blocks: { kind: string; text?: string; rows?: string[][] }[];
    }[];
    const auth = guide.find((s) => s.id === "authentication")!;
    const table = auth.blocks.find((b) => b.kind === "table")!;
    const pinsWrite = table.rows!.find((r) => r[0] === "`pins:write`")![1]!;
    expect(pinsWrite).toContain("`POST /pins`");
    expect(pinsWrite).not.toContain("territories");
    const sessionOnly = auth.blocks.find((b) => b.text?.startsWith("Dashboard sessions only"))!.text!;
    expect(sessionOnly).toContain(
      "`POST /territories`, `DELETE /territories/{id}` (admin or manager sessions)",
    );
    expect(sessionOnly).toContain("`GET /settings/users`");
    expect(getOpenApiDocument().info).toMatchObject({ description: expect.stringContaining(sessionOnly) });
    const upsert = operations().find((o) => o.key === "POST /territories")!.op;
    expect(upsert["x-auth"]).toBe("session");
    expect(upsert["x-roles"]).toEqual(["admin", "manager"]);
    expect(upsert.description).toContain(
      "**Access:** a signed-in dashboard session of admins or managers only (an API key gets 403 FORBIDDEN",
    );
  });

  it("lists each endpoint's error responses by status with an example per error code", () => {
    for (const { key, op } of operations()) {
      const errors = op["x-error-codes"] as DocumentedError[];
      expect(errors, key).toContain("INTERNAL");
      if (op["x-auth"] !== "none") {
        expect(errors, key).toEqual(
          expect.arrayContaining([
            "AUTHENTICATION_REQUIRED",
            "INVALID_API_KEY",
            "RATE_LIMIT_EXCEEDED",
            "SERVICE_UNAVAILABLE",
          ]),
        );
      }
      if (op.parameters.some((p) => p.$ref === "#/components/parameters/ServiceApiVersion")) {
        expect(errors, key).toContain("UNSUPPORTED_API_VERSION");
      }
      if (op.requestBody?.content["application/json"]) {
        expect(errors, key).toEqual(
          expect.arrayContaining([
            "INVALID_JSON",
            "UNSUPPORTED_MEDIA_TYPE",
            "PAYLOAD_TOO_LARGE",
            "VALIDATION_ERROR",
          ]),
        );
      }
      for (const error of errors) {
        const response = op.responses[String(errorStatus(error))];
        expect(response, `${key} ${error}`).toBeDefined();
        const example = response?.content?.["application/json"]?.examples?.[error]?.value;
        expect(example, `${key} ${error}`).toMatchObject({ status: "error" });
        if (error in ERROR_CODES) expect(example?.error_code, `${key} ${error}`).toBe(error);
        else expect(example?.error_code, `${key} ${error}`).toBeUndefined();
      }
      expect(op.responses["429"]?.headers, key).toMatchObject(
        op["x-auth"] === "none"
          ? {}
          : { "Retry-After": expect.anything(), "X-RateLimit-Limit": expect.anything() },
      );
    }
  });

  it("documents the 404 of the get-by-id and upsert endpoints", () => {
    for (const key of ["GET /leads/{id}", "POST /leads", "GET /customers/{id}", "POST /customers"]) {
      const op = operations().find((o) => o.key === key)?.op;
      expect(op?.["x-error-codes"], key).toContain("RECORD_NOT_FOUND");
    }
  });

  it("derives query parameters from the query schemas: types, bounds, defaults, required", () => {
    const listLeads = operations().find((o) => o.key === "GET /leads")!.op;
    const param = (name: string) => listLeads.parameters.find((p) => p.name === name);
    expect(param("limit")).toMatchObject({
      in: "query",
      required: false,
      schema: { type: "integer", minimum: 1, maximum: 1000, default: 50 },
    });
    expect(param("page")).toMatchObject({ schema: { type: "integer", minimum: 1, default: 1 } });
    expect(param("archived")).toMatchObject({ schema: { type: "boolean", default: false } });
    expect(param("search")?.description).toMatch(/name, email or phone/);
    const getLead = operations().find((o) => o.key === "GET /leads/{id}")!.op;
    expect(getLead.parameters.find((p) => p.in === "path")).toMatchObject({ name: "id", required: true });
  });

  it("converts request bodies as input (lengths, nullable, optional) and responses as output", () => {
    const schemas = (getOpenApiDocument().components as Record<string, Record<string, JsonObject>>).schemas!;
    const body = schemas.UpsertLeadBody as { properties: Record<string, JsonObject>; required?: string[] };
    expect(body.required ?? []).toEqual([]);
    expect(body.properties.name).toMatchObject({ type: "string", maxLength: 255 });
    expect(JSON.stringify(body.properties.notes)).toContain('"maxLength":10000');
    expect(body.properties.tags).toMatchObject({ maxItems: 100, items: { maxLength: 100 } });
    const list = schemas.ListLeadsResponse as { properties: Record<string, JsonObject>; required: string[] };
    expect(list.required).toEqual(expect.arrayContaining(["status", "data", "pagination"]));
    expect(list.properties.data).toMatchObject({ items: { $ref: "#/components/schemas/Lead" } });
    expect(JSON.stringify(schemas)).not.toContain("$schema");
  });

  it("describes every field with a type, a $ref or a combination (nothing unrepresentable)", () => {
    const empty: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (Array.isArray(value)) return value.forEach((child, i) => walk(child, `${path}/${i}`));
      if (!value || typeof value !== "object") return;
      const object = value as JsonObject;
      if (/\/(properties\/[^/]+|items|schema)$/.test(path)) {
        const meaningful = Object.keys(object).filter((k) => k !== "description" && k !== "default");
        if (meaningful.length === 0) empty.push(path);
      }
      for (const [key, child] of Object.entries(object)) walk(child, `${path}/${key}`);
    };
    walk(getOpenApiDocument(), "#");
    expect(empty).toEqual([]);
  });

  it("has a curl example per endpoint with the version header and credentials it needs", () => {
    for (const { key, op } of operations()) {
      const [sample] = op["x-codeSamples"] as { lang: string; source: string }[];
      expect(sample?.lang, key).toBe("curl");
      const [method, p] = key.split(" ");
      expect(sample?.source, key).toContain(`http://localhost:3000/api${p!.replace(/\{\w+\}.*/, "")}`);
      if (method !== "GET") expect(sample?.source, key).toContain(`-X ${method}`);
      if (op["x-auth"] === "both") expect(sample?.source, key).toContain("x-api-key: $FIELDCRM_API_KEY");
      if (op["x-auth"] !== "none") expect(sample?.source, key).toContain("service-api-version: 1.1.0");
      for (const type of Object.keys(op.requestBody?.content ?? {}).slice(0, 1)) {
        expect(sample?.source, key).toContain(`content-type: ${type}`);
      }
    }
  });

  it("refuses two different schemas under one component name", () => {
    const twice = {
      X: {
        description: "",
        components: [
          named("Thing", z.object({ a: z.string() })),
          named("Thing", z.object({ b: z.string() })),
        ],
      },
    };
    expect(() => buildOpenApiDocument([], twice)).toThrow(/Two schemas are named Thing/);
  });
});

describe("GET /api/openapi.json", () => {
  it("answers the document with 200 JSON without a key or version header, cacheable", async () => {
    const response = await call(getOpenApiJson, apiRequest("/api/openapi.json", { version: null }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("x-request-id")).toBeTruthy();
    expect(response.body).toMatchObject({ openapi: "3.1.0", info: { version: "1.1.0" } });
    expect(response.body).toEqual(JSON.parse(JSON.stringify(getOpenApiDocument())));
  });

  it("answers a documented 400 to a query string over the limit", async () => {
    const response = await call(
      getOpenApiJson,
      apiRequest(`/api/openapi.json?q=${"x".repeat(MAX_QUERY_LENGTH)}`, { version: null }),
    );
    expect(response.status).toBe(400);
    const documented = operations().find((o) => o.key === "GET /openapi.json")!.op;
    expect(documented["x-error-codes"]).toContain("VALIDATION_ERROR");
    expect(
      documented.responses["400"]?.content?.["application/json"]?.examples?.VALIDATION_ERROR?.value,
    ).toEqual(response.body);
  });

  it("answers 405 to other methods", async () => {
    const { POST } = await import("@/app/api/openapi.json/route");
    const response = await call(POST, apiRequest("/api/openapi.json", { method: "POST", body: {} }));
    expect(response.status).toBe(405);
    expect(response.body).toMatchObject({ error_code: "METHOD_NOT_ALLOWED" });
  });
});

describe("error table", () => {
  it("lists every error code of the server's table once, in check order", async () => {
    const { ALL_ERRORS } = await import("./errors");
    for (const code of Object.keys(ERROR_CODES)) expect(ALL_ERRORS.filter((e) => e === code)).toHaveLength(1);
    expect(ALL_ERRORS.slice(0, 4)).toEqual([
      "AUTHENTICATION_REQUIRED",
      "INVALID_API_KEY",
      "RATE_LIMIT_EXCEEDED",
      "UNSUPPORTED_API_VERSION",
    ]);
  });
});

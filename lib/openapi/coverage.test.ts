import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { API_OPERATIONS, getOpenApiDocument } from "@/app/api/routes";
import { apiRoute, isMethodNotAllowedHandler, routeDeclarationOf } from "@/lib/api/handler";
import { buildOpenApiDocument } from "./document";
import type { JsonObject } from "./json-schema";
import type { RouteDocs } from "./types";

const API_DIR = path.join(process.cwd(), "app", "api");
const VERBS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every app/api/**\/route.ts except the catch-all 404, with its path as the document writes it. */
function routeFiles(dir = API_DIR, segments: string[] = []): { file: string; path: string }[] {
  const out: { file: string; path: string }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name.startsWith("[...") || entry.name.startsWith("[[...")) continue;
      if (/^\(.*\)$/.test(entry.name)) out.push(...routeFiles(path.join(dir, entry.name), segments));
      else {
        const segment = entry.name.replace(/^\[(\w+)\]$/, "{$1}");
        out.push(...routeFiles(path.join(dir, entry.name), [...segments, segment]));
      }
    } else if (entry.name === "route.ts") {
      out.push({ file: path.join(dir, entry.name), path: `/${segments.join("/")}` });
    }
  }
  return out;
}

/** The verbs the route files serve (405 answers aside), each with its module. */
async function servedOperations() {
  const operations: { key: string; module: object }[] = [];
  for (const { file, path: routePath } of routeFiles()) {
    const mod = (await import(file)) as Record<string, unknown>;
    for (const verb of VERBS) {
      if (typeof mod[verb] === "function" && !isMethodNotAllowedHandler(mod[verb])) {
        operations.push({ key: `${verb} ${routePath}`, module: mod });
      }
    }
  }
  return operations;
}

const operation = (method: string, p: string) =>
  (getOpenApiDocument().paths as Record<string, Record<string, JsonObject>>)[p]![method.toLowerCase()]!;

describe("OpenAPI route index", () => {
  it("finds the route files, including the known ones", () => {
    const paths = routeFiles().map((r) => r.path);
    expect(paths).toContain("/auth/test");
    expect(paths).toContain("/openapi.json");
    expect(paths).toContain("/leads/{id}");
    expect(paths.some((p) => p.includes("..."))).toBe(false);
  });

  it("lists every route verb under app/api once, with its own module, and nothing that is not served", async () => {
    const served = await servedOperations();
    const indexed = API_OPERATIONS.map(([method, p]) => `${method} ${p}`);
    const servedKeys = served.map((o) => o.key);
    expect({ missing: servedKeys.filter((k) => !indexed.includes(k)) }).toEqual({ missing: [] });
    expect({ notServed: indexed.filter((k) => !servedKeys.includes(k)) }).toEqual({ notServed: [] });
    expect({ twice: indexed.filter((k, i) => indexed.indexOf(k) !== i) }).toEqual({ twice: [] });
    const wrongModule = API_OPERATIONS.filter(
      ([method, p, mod]) => served.find((o) => o.key === `${method} ${p}`)?.module !== mod,
    ).map(([method, p]) => `${method} ${p}`);
    expect(wrongModule).toEqual([]);
  });

  it("documents exactly the indexed verbs", () => {
    const paths = getOpenApiDocument().paths as Record<string, JsonObject>;
    const documented = Object.entries(paths).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(documented.sort()).toEqual(API_OPERATIONS.map(([method, p]) => `${method} ${p}`).sort());
  });

  it("documents each verb with the auth, roles and schemas its declaration has", () => {
    for (const [method, p, mod] of API_OPERATIONS) {
      const key = `${method} ${p}`;
      const declared = routeDeclarationOf((mod as Record<string, unknown>)[method])!;
      const op = operation(method, p);
      expect(op["x-auth"], key).toBe(declared.auth ?? "both");
      expect(op["x-roles"], key).toEqual("roles" in declared ? declared.roles : undefined);
      expect(op.operationId, key).toBe(declared.docs?.operationId);
      const parameters = (op.parameters as JsonObject[]).filter((param) => param.in !== undefined);
      const names = (where: string) =>
        parameters.filter((param) => param.in === where).map((param) => param.name);
      const shape = (schema: unknown) => Object.keys((schema as z.ZodObject | undefined)?.shape ?? {});
      expect(names("query"), key).toEqual(shape(declared.query));
      expect(names("path"), key).toEqual(shape(declared.params));
      const body = (op.requestBody as { content: Record<string, { schema: JsonObject }> } | undefined)
        ?.content["application/json"]?.schema.$ref;
      expect(body, key).toBe(declared.body ? `#/components/schemas/${declared.docs?.bodyName}` : undefined);
    }
  });

  it("refuses a route without docs, a body without a name and an unknown tag", () => {
    const bare = { GET: apiRoute({ handler: async () => ({}) }) };
    expect(() => buildOpenApiDocument([["GET", "/bare", bare]])).toThrow(/GET \/bare has no docs/);
    const docs: RouteDocs = { tag: "Meta", operationId: "x", summary: "X", responses: [] };
    const unnamed = {
      POST: apiRoute({ body: z.object({ a: z.string() }), handler: async () => ({}), docs }),
    };
    expect(() => buildOpenApiDocument([["POST", "/x", unnamed]])).toThrow(/has a body but no docs.bodyName/);
    const lost = { GET: apiRoute({ handler: async () => ({}), docs }) };
    expect(() => buildOpenApiDocument([["GET", "/x", lost]], {})).toThrow(/unknown tag Meta/);
    expect(() => buildOpenApiDocument([["GET", "/x", {}]])).toThrow(/GET \/x is not an apiRoute/);
  });
});

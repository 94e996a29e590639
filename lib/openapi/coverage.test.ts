import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isMethodNotAllowedHandler, routeDeclarationOf } from "@/lib/api/handler";
import { declaredAccess } from "@/lib/api/route-config";
import { getOpenApiDocument } from "./document";
import { RESOURCES } from "./resources";
import type { JsonObject } from "./json-schema";
import type { EndpointSpec } from "./types";

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

async function servedOperations() {
  const operations: { key: string; handler: unknown }[] = [];
  for (const { file, path: routePath } of routeFiles()) {
    const mod = (await import(file)) as Record<string, unknown>;
    for (const verb of VERBS) {
      if (typeof mod[verb] === "function" && !isMethodNotAllowedHandler(mod[verb])) {
        operations.push({ key: `${verb} ${routePath}`, handler: mod[verb] });
      }
    }
  }
  return operations;
}

function documentedOperations(): string[] {
  const paths = getOpenApiDocument().paths as Record<string, JsonObject>;
  return Object.entries(paths).flatMap(([p, item]) =>
    Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
  );
}

describe("OpenAPI route coverage", () => {
  it("finds the route files, including the known ones", () => {
    const paths = routeFiles().map((r) => r.path);
    expect(paths).toContain("/auth/test");
    expect(paths).toContain("/openapi.json");
    expect(paths).toContain("/leads/{id}");
    expect(paths.some((p) => p.includes("..."))).toBe(false);
  });

  it("documents every route verb under app/api, and nothing that is not served", async () => {
    const served = (await servedOperations()).map((o) => o.key).sort();
    const documented = documentedOperations().sort();
    expect({ undocumented: served.filter((k) => !documented.includes(k)) }).toEqual({ undocumented: [] });
    expect({ notServed: documented.filter((k) => !served.includes(k)) }).toEqual({ notServed: [] });
  });

  it("documents each verb with the auth, scopes, roles and zod schemas the route declares", async () => {
    const specs = new Map<string, EndpointSpec>(
      RESOURCES.flatMap((r) => r.endpoints).map((e) => [`${e.method} ${e.path}`, e]),
    );
    const mismatches: string[] = [];
    for (const { key, handler } of await servedOperations()) {
      const spec = specs.get(key);
      if (!spec) continue; // reported by the coverage test above
      const declared = routeDeclarationOf(handler);
      if (!declared) {
        mismatches.push(`${key}: not an apiRoute`);
        continue;
      }
      const { auth, scopes, roles, alsoScopes } = declaredAccess(declared);
      const requireVersion = "requireVersion" in declared ? declared.requireVersion !== false : true;
      const check = (what: string, documented: unknown, actual: unknown) => {
        if (documented !== actual && JSON.stringify(documented) !== JSON.stringify(actual)) {
          mismatches.push(
            `${key}: ${what} documented ${JSON.stringify(documented)}, declared ${JSON.stringify(actual)}`,
          );
        }
      };
      check("auth", spec.auth ?? "both", auth);
      check("scopes", [...(spec.scopes ?? [])], [...scopes]);
      check("scope named in a 403", spec.scopeNamed ?? spec.scopes?.[0], scopes[0]);
      check(
        "also scopes",
        spec.alsoScopes ? [...spec.alsoScopes] : undefined,
        alsoScopes ? [...alsoScopes] : undefined,
      );
      check("roles", spec.roles ? [...spec.roles] : undefined, roles ? [...roles] : undefined);
      check("version header", spec.requireVersion !== false, requireVersion);
      // The very same zod objects, so the document cannot describe other rules than the route runs.
      if (spec.query !== declared.query) mismatches.push(`${key}: query schema is not the route's`);
      if (spec.params !== declared.params)
        mismatches.push(`${key}: path parameter schema is not the route's`);
      if (spec.body?.schema !== declared.body) mismatches.push(`${key}: body schema is not the route's`);
    }
    expect(mismatches).toEqual([]);
  });
});

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allowHeader, isMethodNotAllowedHandler, methodsNotAllowed } from "./method-not-allowed";
import type { RouteHandler } from "./route-config";

// A path's OPTIONS and its 405s name the same methods: those it serves, HEAD with GET, and OPTIONS.

const VERBS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const API_DIR = path.join(process.cwd(), "app", "api");

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

const context = { params: Promise.resolve({}) };
const request = (method: string) => new Request("http://localhost/api/x", { method });

describe("allowHeader", () => {
  it.each([
    ["GET", "GET, HEAD, OPTIONS"],
    ["GET, POST", "GET, HEAD, POST, OPTIONS"],
    ["POST", "POST, OPTIONS"],
    ["GET, PATCH, DELETE", "GET, HEAD, PATCH, DELETE, OPTIONS"],
  ])("names %s as %s", (allowed, expected) => {
    expect(allowHeader(allowed)).toBe(expected);
  });
});

describe("methodsNotAllowed", () => {
  it("answers OPTIONS with 204 and the Allow header of its 405", async () => {
    const routes = methodsNotAllowed("GET, POST");
    const options = await routes.OPTIONS(request("OPTIONS"), context);
    const notAllowed = await routes.PUT(request("PUT"), context);
    expect(options.status).toBe(204);
    expect(await options.text()).toBe("");
    expect(options.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(notAllowed.status).toBe(405);
    expect(options.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
    expect(notAllowed.headers.get("allow")).toBe(options.headers.get("allow"));
  });
});

describe("every API route file", () => {
  const files = routeFiles(API_DIR).filter((file) => !file.includes("[...path]"));

  it.each(files.map((file) => [path.relative(API_DIR, path.dirname(file)), file]))(
    "%s: OPTIONS and each 405 agree with the verbs served",
    async (_name, file) => {
      const mod = (await import(/* @vite-ignore */ file)) as Record<string, RouteHandler | undefined>;
      const served = VERBS.filter((verb) => !isMethodNotAllowedHandler(mod[verb]));
      const notServed = VERBS.filter((verb) => isMethodNotAllowedHandler(mod[verb]));
      expect(typeof mod.OPTIONS, "exports OPTIONS").toBe("function");
      const options = await mod.OPTIONS!(request("OPTIONS"), context);
      expect(options.status).toBe(204);
      expect(options.headers.get("allow")).toBe(allowHeader(served.join(", ")));
      for (const verb of notServed) {
        const answer = await mod[verb]!(request(verb), context);
        expect(answer.status, verb).toBe(405);
        expect(answer.headers.get("allow"), verb).toBe(options.headers.get("allow"));
      }
    },
  );
});

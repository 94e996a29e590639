import type http from "node:http";
import { describe, expect, it } from "vitest";
import { beforeRouting, earlyAnswer, normalisedApiTarget } from "./before-routing";

// Slashes Next.js would answer with a 308 and a text body are normalised for the API's routes.

describe("normalisedApiTarget", () => {
  it.each([
    ["/api/leads/bulk/", "/api/leads/bulk"],
    ["/api/leads/bulk//", "/api/leads/bulk"],
    ["/api//leads", "/api/leads"],
    ["//api/leads", "/api/leads"],
    ["/api\\leads", "/api/leads"],
    ["/api/leads/?limit=5&next=/x/", "/api/leads?limit=5&next=/x/"],
    ["/api/", "/api"],
  ])("turns %s into %s", (target, expected) => {
    expect(normalisedApiTarget(target)).toBe(expected);
  });

  it.each(["/api/leads", "/api/leads?next=/a//b/", "/leads/", "/", "/apis/", "//leads"])(
    "leaves %s alone",
    (target) => {
      expect(normalisedApiTarget(target)).toBeUndefined();
    },
  );
});

describe("earlyAnswer", () => {
  it("answers /api itself, which no route serves, with the API's JSON 404", () => {
    const answer = earlyAnswer("GET", "/api")!;
    expect(answer.status).toBe(404);
    expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(answer.body)).toEqual({
      status: "error",
      message: "No endpoint at /api",
      error_code: "NOT_FOUND",
    });
  });
});

describe("beforeRouting", () => {
  it("hands Next a trailing-slash API path without the slash, and pages as they came", () => {
    const early = beforeRouting({ "x-frame-options": "DENY" });
    const res = {} as http.ServerResponse;
    const post = { method: "POST", url: "/api/leads/bulk/" } as http.IncomingMessage;
    expect(early.answer(post, res)).toBe(false);
    expect(post.url).toBe("/api/leads/bulk");
    const page = { method: "GET", url: "/leads/" } as http.IncomingMessage;
    expect(early.answer(page, res)).toBe(false);
    expect(page.url).toBe("/leads/");
  });

  it("answers /api/ itself as JSON with the security headers", () => {
    const early = beforeRouting({ "x-frame-options": "DENY" });
    let head: { status: number; headers: Record<string, unknown> } | undefined;
    let body = "";
    const res = {
      writeHead: (status: number, headers: Record<string, unknown>) => (head = { status, headers }),
      end: (text?: string) => (body = text ?? ""),
    } as unknown as http.ServerResponse;
    const get = { method: "GET", url: "/api/" } as http.IncomingMessage;
    expect(early.answer(get, res)).toBe(true);
    expect(head?.status).toBe(404);
    expect(head?.headers["x-frame-options"]).toBe("DENY");
    expect(head?.headers["x-request-id"]).toBeTruthy();
    expect(JSON.parse(body).error_code).toBe("NOT_FOUND");
  });
});

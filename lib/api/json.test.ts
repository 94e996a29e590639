import { describe, expect, it } from "vitest";
import { toJson } from "@/lib/api/json";

describe("JSON answers", () => {
  it("writes bigints as exact integers, in the envelope and inside records", () => {
    const body = {
      status: "success",
      data: [{ id: "a", n: 2n ** 64n + 1n, at: new Date("2026-12-06T10:00:00.000Z") }],
      pagination: { page: 9_007_199_254_740_993n, limit: 100, next_cursor: null },
    };
    const text = toJson(body);
    expect(text).toBe(
      '{"status":"success","data":[{"id":"a","n":18446744073709551617,"at":"2026-12-06T10:00:00.000Z"}],' +
        '"pagination":{"page":9007199254740993,"limit":100,"next_cursor":null}}',
    );
  });

  it("writes what JSON.stringify writes when there is no bigint", () => {
    const bodies: unknown[] = [
      {
        status: "success",
        data: [{ a: 1, b: undefined, c: [1, "x", null], d: { e: true } }],
        skipped: undefined,
      },
      { fn: () => 1, nested: { deep: [{ x: 'é\u2028"' }] } },
      [1, 2, { a: undefined }],
      "text",
      7,
      null,
    ];
    for (const body of bodies) expect(toJson(body)).toBe(JSON.stringify(body));
  });

  it("refuses a cycle as JSON.stringify does", () => {
    const body: Record<string, unknown> = { page: 1n };
    body.self = body;
    expect(() => toJson({ data: body })).toThrow(TypeError);
  });
});

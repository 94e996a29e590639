import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listCustomers } from "@/app/api/customers/route";
import { GET as listLeads, POST as upsertLead } from "@/app/api/leads/route";
import { MAX_BODY_BYTES } from "@/lib/api/body";
import { apiRoute, MAX_QUERY_LENGTH, REQUEST_DEADLINE_MS } from "@/lib/api/handler";
import { getOpenApiDocument } from "@/app/api/routes";
import { MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { SHORT_TEXT_MAX } from "@/lib/schemas/upsert-fields";
import { apiRequest, call, createTenant } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

/*
 * Limits on resource use (issue #7.7): request body, query string, page size, search length and
 * request time are each enforced, and each is stated in the OpenAPI document the server serves.
 */

const database = setupTestDatabase();
let key: string;
beforeAll(async () => {
  ({ key } = await createTenant(database.db));
});
afterEach(() => {
  vi.useRealTimers();
});

type Json = Record<string, unknown>;
const doc = () => getOpenApiDocument() as Json;

/** Every documented operation's parameters, with the path and method they belong to. */
function documentedParameters(): { where: string; name: string; schema: Json }[] {
  const out: { where: string; name: string; schema: Json }[] = [];
  for (const [path, item] of Object.entries(doc().paths as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const p of (operation.parameters ?? []) as Json[]) {
        if (typeof p.name === "string")
          out.push({
            where: `${method.toUpperCase()} ${path}`,
            name: p.name,
            schema: (p.schema ?? {}) as Json,
          });
      }
    }
  }
  return out;
}

describe(`limits on resource use (${testEngine()})`, () => {
  it("states every bound in the OpenAPI document", () => {
    const description = String((doc().info as Json).description);
    expect(description).toContain(`${MAX_BODY_BYTES} bytes (1 MiB)`);
    expect(description).toContain(`${MAX_QUERY_LENGTH} characters`);
    expect(description).toContain(`1 to ${MAX_PAGE_SIZE}`);
    expect(description).toMatch(/within 5 s answers 503/);

    const params = documentedParameters();
    const searches = params.filter((p) => p.name === "search");
    expect(searches.map((p) => p.where).sort()).toEqual([
      "GET /customers",
      "GET /leads",
      "GET /leads/stage-totals",
    ]);
    for (const p of searches) expect(p.schema.maxLength, p.where).toBe(SHORT_TEXT_MAX);
    // A sort names each of a few fields at most once (extensions.md E2, and the job report's): no bound of its own.
    const sorts = params.filter((p) => p.name === "sort");
    expect(sorts.map((p) => p.where).sort()).toEqual([
      "GET /customers",
      "GET /leads",
      "GET /service-plans",
      "GET /serviced-jobs",
    ]);
    const limits = params.filter((p) => p.name === "limit");
    expect(limits.length).toBeGreaterThanOrEqual(5);
    for (const p of limits) expect(JSON.stringify(p.schema), p.where).toContain(String(MAX_PAGE_SIZE));
  });

  it("enforces the search length, the page size and the query string length", async () => {
    for (const handler of [listLeads, listCustomers]) {
      const long = await call(handler, apiRequest(`/x?search=${"a".repeat(SHORT_TEXT_MAX + 1)}`, { key }));
      expect(long.status).toBe(400);
      expect(long.body.details).toEqual([{ field: "search", message: expect.stringContaining("255") }]);
      const ok = await call(handler, apiRequest(`/x?search=${"a".repeat(SHORT_TEXT_MAX)}`, { key }));
      expect(ok.status).toBe(200);
      const page = await call(handler, apiRequest(`/x?limit=${MAX_PAGE_SIZE + 1}`, { key }));
      expect(page.status).toBe(400);
      expect(page.body.details).toEqual([
        { field: "limit", message: `limit must be at most ${MAX_PAGE_SIZE}` },
      ]);
      const query = await call(handler, apiRequest(`/x?junk=${"j".repeat(MAX_QUERY_LENGTH)}`, { key }));
      expect(query.status).toBe(400);
      expect(query.body.details).toEqual([{ field: "query", message: expect.stringContaining("4096") }]);
    }
  });

  it("enforces the body size on the declared length and on the bytes actually sent", async () => {
    const big = JSON.stringify({ name: "x", notes: "n".repeat(MAX_BODY_BYTES) });
    const declared = await call(upsertLead, apiRequest("/leads", { key, rawBody: big }));
    expect(declared.status).toBe(413);
    expect(declared.body.error_code).toBe("PAYLOAD_TOO_LARGE");
    // A body streamed without a Content-Length is counted as it arrives.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode("x".repeat(64 * 1024)));
        controller.close();
      },
    });
    const streamed = await call(
      upsertLead,
      new Request("http://localhost/api/leads", {
        method: "POST",
        headers: { "x-api-key": key, "service-api-version": "1.1.0", "content-type": "application/json" },
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
  });

  it(`answers 503 when a request runs past ${REQUEST_DEADLINE_MS} ms (the contract's 5 s)`, async () => {
    expect(REQUEST_DEADLINE_MS).toBeLessThan(5000);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const stuck = apiRoute({ auth: "none", handler: () => new Promise(() => {}) });
    const pending = call(stuck, apiRequest("/stuck"));
    await vi.advanceTimersByTimeAsync(REQUEST_DEADLINE_MS - 1);
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const res = await pending;
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: "error", error_code: "SERVICE_UNAVAILABLE" });
    expect(res.headers.get("retry-after")).toBe("5");
  });

  it("gives a route of many statements its own, longer deadline", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const slow = apiRoute({
      auth: "none",
      deadlineMs: 3 * REQUEST_DEADLINE_MS,
      handler: () =>
        new Promise((resolve) => setTimeout(() => resolve({ done: true }), 2 * REQUEST_DEADLINE_MS)),
    });
    const pending = call(slow, apiRequest("/slow"));
    await vi.advanceTimersByTimeAsync(2 * REQUEST_DEADLINE_MS);
    const res = await pending;
    expect([res.status, res.body]).toEqual([200, { done: true }]);
    const stuck = apiRoute({
      auth: "none",
      deadlineMs: 3 * REQUEST_DEADLINE_MS,
      handler: () => new Promise(() => {}),
    });
    const late = call(stuck, apiRequest("/stuck"));
    await vi.advanceTimersByTimeAsync(3 * REQUEST_DEADLINE_MS);
    expect((await late).status).toBe(503);
  });
});

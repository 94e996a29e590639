import { describe, expect, it } from "vitest";
import { z } from "zod";
import { GET as authTest } from "@/app/api/auth/test/route";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import {
  apiRequest,
  call,
  createApiKey,
  createCompany,
  createSessionCookie,
  createUser,
} from "@/lib/testing/factories";
import { apiRoute, methodsNotAllowed, respond } from "./handler";
import { whenDryRun } from "./route-config";
import { requestsInFlight } from "@/lib/domain/background";
import { NotFoundError } from "@/lib/domain/errors";

const database = setupTestDatabase();

// A route that exercises every stage of the pipeline.
const probe = apiRoute({
  permission: "leads:write",
  query: z.object({ n: z.string().regex(/^\d+$/).optional() }),
  body: z.object({ name: z.string().max(5), tags: z.array(z.string()).optional() }),
  handler: async ({ ctx, body }) => {
    if (body.name === "gone") throw new NotFoundError("Lead");
    if (body.name === "boom") throw new Error("select * from secret_table at /srv/app/lib/x.ts:1");
    return respond({ status: "success", company: ctx.companyId, name: body.name }, 201);
  },
});

describe(`request pipeline (${testEngine()})`, () => {
  it("answers /auth/test for a valid key with its company and scopes", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id, { scopes: ["pins:read"] });
    const res = await call(authTest, apiRequest("/auth/test", { key }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "success",
      message: "Authentication successful",
      authenticated: true,
      company_id: company.id,
      user_id: null,
      auth_method: "api_key",
      scopes: ["pins:read"],
      service_api_version: "1.1.0",
    });
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("X-RateLimit-Limit")).toBe("1000");
    expect(res.headers.get("X-RateLimit-Remaining")).toBe("999");
    expect(res.headers.get("RateLimit-Policy")).toBe('"daily";q=1000;w=86400');
    expect(res.headers.get("RateLimit")).toMatch(/^"daily";r=999;t=\d+$/);
  });

  it("runs the checks in the contract's order", async () => {
    const company = await createCompany(database.db);
    const { key: readOnly } = await createApiKey(database.db, company.id, { scopes: ["leads:read"] });
    const { key: spent } = await createApiKey(database.db, company.id, { dailyLimit: 0 });
    const { key: revoked } = await createApiKey(database.db, company.id, { revoked: true });
    const cases: [string, Request, number, string | undefined][] = [
      ["no key", apiRequest("/x", { version: null, rawBody: "{" }), 401, "AUTHENTICATION_REQUIRED"],
      ["unknown key", apiRequest("/x", { key: "nope", version: null }), 401, "INVALID_API_KEY"],
      ["revoked key", apiRequest("/x", { key: revoked, version: null }), 401, "INVALID_API_KEY"],
      ["quota before version", apiRequest("/x", { key: spent, version: null }), 429, "RATE_LIMIT_EXCEEDED"],
      [
        "version before scope",
        apiRequest("/x", { key: readOnly, version: "1.0.0" }),
        400,
        "UNSUPPORTED_API_VERSION",
      ],
      ["scope before body", apiRequest("/x", { key: readOnly, rawBody: "{" }), 403, "INSUFFICIENT_SCOPE"],
    ];
    for (const [name, request, status, code] of cases) {
      const res = await call(probe, request);
      expect(res.status, name).toBe(status);
      expect(res.body.error_code, name).toBe(code);
      expect(res.body.status, name).toBe("error");
    }
  });

  it("names the missing scope, the daily limit and the version", async () => {
    const company = await createCompany(database.db);
    const { key: readOnly } = await createApiKey(database.db, company.id, { scopes: ["leads:read"] });
    const { key: spent } = await createApiKey(database.db, company.id, { dailyLimit: 0 });
    expect((await call(probe, apiRequest("/x", { key: readOnly, body: {} }))).body.message).toContain(
      "leads:write",
    );
    const limited = await call(probe, apiRequest("/x", { key: spent }));
    expect(limited.body.message).toContain("Daily limit of 0 requests exceeded");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await call(probe, apiRequest("/x", { key: readOnly, version: null }))).body.message).toContain(
      "1.1.0",
    );
  });

  it("maps body and validation problems", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id);
    const cases: [TestCase, number, string][] = [
      [{ rawBody: "{nope" }, 400, "INVALID_JSON"],
      [{ rawBody: "[1,2]" }, 400, "INVALID_JSON"],
      [{ rawBody: "null" }, 400, "INVALID_JSON"],
      [{ body: { name: "a" }, contentType: "text/plain" }, 415, "UNSUPPORTED_MEDIA_TYPE"],
      [{ body: { name: "a" }, contentType: null }, 415, "UNSUPPORTED_MEDIA_TYPE"],
      [{ rawBody: JSON.stringify({ name: "x".repeat(1024 * 1024) }) }, 413, "PAYLOAD_TOO_LARGE"],
    ];
    for (const [options, status, code] of cases) {
      const res = await call(probe, apiRequest("/x", { key, ...options }));
      expect(res.status, code).toBe(status);
      expect(res.body.error_code).toBe(code);
    }
    const invalid = await call(probe, apiRequest("/x?n=abc", { key, body: { name: "toolong", tags: [1] } }));
    expect(invalid.status).toBe(400);
    expect(invalid.body.error_code).toBe("VALIDATION_ERROR");
    const fields = (invalid.body.details as { field: string }[]).map((d) => d.field).sort();
    expect(fields).toEqual(["n", "name", "tags.0"]);
  });

  it("bounds the query string", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id);
    const res = await call(probe, apiRequest(`/x?n=${"1".repeat(5000)}`, { key, body: { name: "a" } }));
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_ERROR");
    expect(res.body.details).toEqual([{ field: "query", message: expect.stringContaining("4096") }]);
  });

  it("answers not found without a code and hides unexpected errors", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id);
    const gone = await call(probe, apiRequest("/x", { key, body: { name: "gone" } }));
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ status: "error", message: "Lead not found" });
    const boom = await call(probe, apiRequest("/x", { key, body: { name: "boom" } }));
    expect(boom.status).toBe(500);
    expect(boom.body).toEqual({ status: "error", message: "Internal server error" });
    const ok = await call(probe, apiRequest("/x", { key, body: { name: "ok" } }));
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ status: "success", company: company.id, name: "ok" });
  });

  it("accepts a dashboard session with its role's scopes and no quota", async () => {
    const company = await createCompany(database.db);
    const rep = await createUser(database.db, company.id, { role: "technician" });
    const cookie = await createSessionCookie(database.db, rep);
    const res = await call(authTest, apiRequest("/auth/test", { cookie }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ auth_method: "session", user_id: rep.id, company_id: company.id });
    expect(res.body.scopes).toEqual([
      "customers:read",
      "jobs:read",
      "pins:read",
      "pin_types:read",
      "pins:write",
    ]);
    expect(res.headers.get("X-RateLimit-Limit")).toBeNull();
    const denied = await call(probe, apiRequest("/x", { cookie, body: { name: "a" } }));
    expect(denied.status).toBe(403);
    const bogus = await call(authTest, apiRequest("/auth/test", { cookie: "fcrm_session=forged" }));
    expect(bogus.body.error_code).toBe("AUTHENTICATION_REQUIRED");
  });

  it("refuses cross-site writes with a session cookie", async () => {
    const company = await createCompany(database.db);
    const admin = await createUser(database.db, company.id, { role: "admin" });
    const cookie = await createSessionCookie(database.db, admin);
    const res = await call(
      probe,
      apiRequest("/x", { cookie, body: { name: "a" }, headers: { origin: "https://evil.example" } }),
    );
    expect(res.status).toBe(403);
    expect(res.body.error_code).toBe("FORBIDDEN");
  });

  it("asks a dry run's further permission only when dry_run is true, before the body", async () => {
    const dryRunProbe = apiRoute({
      permission: "leads:write",
      inputPermissions: [whenDryRun("leads:read")],
      query: z.object({
        dry_run: z
          .enum(["true", "false"])
          .transform((v) => v === "true")
          .default(false),
      }),
      body: z.object({ name: z.string() }),
      handler: async ({ query }) => ({ status: "success", dry_run: query.dry_run }),
    });
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id, { scopes: ["leads:write"] });
    const send = (query: string, body: unknown) => call(dryRunProbe, apiRequest(`/x${query}`, { key, body }));
    expect((await send("", { name: "a" })).body).toEqual({ status: "success", dry_run: false });
    expect((await send("?dry_run=false", { name: "a" })).status).toBe(200);
    // Asked by the query alone, it is check 5: before the body is validated.
    const refused = await send("?dry_run=true", { name: 1 });
    expect([refused.status, refused.body.error_code, refused.body.message]).toEqual([
      403,
      "INSUFFICIENT_SCOPE",
      "Insufficient scope: this endpoint also requires the leads:read scope",
    ]);
    // A flag that does not parse is the validation's 400, as without the further permission.
    expect((await send("?dry_run=maybe", { name: "a" })).status).toBe(400);
  });

  it("counts a request as foreground work while it runs, unless its route is background work", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id);
    const seen: Record<string, number> = {};
    const counting = (name: string, background?: boolean) =>
      apiRoute({
        ...(background ? { background } : {}),
        handler: async () => {
          seen[name] = requestsInFlight();
          return respond({ status: "success" });
        },
      });
    const before = requestsInFlight();
    expect((await call(counting("request"), apiRequest("/x", { key }))).status).toBe(200);
    expect((await call(counting("upload", true), apiRequest("/x", { key }))).status).toBe(200);
    expect(seen).toEqual({ request: before + 1, upload: before });
    expect(requestsInFlight()).toBe(before);
  });

  it("answers 405 with Allow for a verb a path does not have", async () => {
    const res = await call(methodsNotAllowed("GET").POST, apiRequest("/auth/test", { body: {} }));
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    expect(res.body.error_code).toBe("METHOD_NOT_ALLOWED");
  });
});

type TestCase = Parameters<typeof apiRequest>[1];

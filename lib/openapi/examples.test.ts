import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getCustomer } from "@/app/api/customers/[id]/route";
import { GET as listLeads, POST as upsertLead } from "@/app/api/leads/route";
import { GET as getSession } from "@/app/api/auth/session/route";
import { apiRequest, call, createApiKey, createCompany } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { getOpenApiDocument } from "@/app/api/routes";
import type { JsonObject } from "./json-schema";

const database = setupTestDatabase();

/** The documented example body of one error of one operation. */
function example(method: string, path: string, code: string): JsonObject {
  const op = (getOpenApiDocument().paths as Record<string, Record<string, JsonObject>>)[path]![method]!;
  const responses = op.responses as Record<
    string,
    { content: { "application/json": { examples: Record<string, { value: JsonObject }> } } }
  >;
  for (const response of Object.values(responses)) {
    const found = response.content?.["application/json"]?.examples?.[code];
    if (found) return found.value;
  }
  throw new Error(`${method} ${path} documents no ${code}`);
}

// The examples are written for readers; these checks keep them equal to what the server answers.
describe(`documented error examples are the server's answers (${testEngine()})`, () => {
  it("credentials, version and scope errors", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id, { scopes: ["pins:read"] });

    const noKey = await call(listLeads, apiRequest("/api/leads"));
    expect(noKey.body).toEqual(example("get", "/leads", "AUTHENTICATION_REQUIRED"));

    const badKey = await call(listLeads, apiRequest("/api/leads", { key: "fcrm_not_a_key" }));
    expect(badKey.body).toEqual(example("get", "/leads", "INVALID_API_KEY"));

    const noVersion = await call(listLeads, apiRequest("/api/leads", { key, version: null }));
    expect(noVersion.body).toEqual(example("get", "/leads", "UNSUPPORTED_API_VERSION"));

    const scope = await call(getCustomer, apiRequest("/api/customers/cus_x", { key }), { id: "cus_x" });
    expect(scope.status).toBe(403);
    expect(scope.body).toEqual(example("get", "/customers/{id}", "INSUFFICIENT_SCOPE"));

    const sessionOnly = await call(getSession, apiRequest("/api/auth/session", { key }));
    expect(sessionOnly.body).toEqual(example("get", "/auth/session", "FORBIDDEN"));
  });

  it("body, validation and not-found errors", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id);

    const badJson = await call(upsertLead, apiRequest("/api/leads", { key, rawBody: "{" }));
    expect(badJson.body).toEqual(example("post", "/leads", "INVALID_JSON"));

    const mediaType = await call(
      upsertLead,
      apiRequest("/api/leads", { key, body: {}, contentType: "text/plain" }),
    );
    expect(mediaType.body).toEqual(example("post", "/leads", "UNSUPPORTED_MEDIA_TYPE"));

    const limit = await call(listLeads, apiRequest("/api/leads?limit=1001", { key }));
    expect(limit.body).toEqual(example("get", "/leads", "VALIDATION_ERROR"));

    const email = await call(upsertLead, apiRequest("/api/leads", { key, body: { email: "not-an-email" } }));
    expect(email.body).toEqual(example("post", "/leads", "VALIDATION_ERROR"));

    const missing = await call(getCustomer, apiRequest("/api/customers/cus_missing", { key }), {
      id: "cus_missing",
    });
    expect(missing.body).toEqual(example("get", "/customers/{id}", "RECORD_NOT_FOUND"));
  });

  it("the daily limit", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id, { dailyLimit: 1000 });
    expect((await call(listLeads, apiRequest("/api/leads", { key }))).status).toBe(200);
    // Use up the rest of today's quota directly rather than with 999 requests.
    await database.db.execute(sql`update api_key_usage set count = 1000 where company_id = ${company.id}`);
    const limited = await call(listLeads, apiRequest("/api/leads", { key }));
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual(example("get", "/leads", "RATE_LIMIT_EXCEEDED"));
  });
});

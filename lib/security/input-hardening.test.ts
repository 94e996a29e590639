import { beforeAll, describe, expect, it } from "vitest";
import { GET as getLead } from "@/app/api/leads/[id]/route";
import { GET as listLeads, POST as upsertLead } from "@/app/api/leads/route";
import { GET as listCustomers } from "@/app/api/customers/route";
import { apiRequest, call, createTenant } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

// Inputs the fuzzer found answering 500, now refused cleanly: U+0000 in text (PostgreSQL cannot
// store it) and a session cookie with a malformed percent escape.

const database = setupTestDatabase();
let key: string;
beforeAll(async () => {
  ({ key } = await createTenant(database.db));
});

const nul = "must not contain the NUL character (U+0000)";

describe(`input hardening (${testEngine()})`, () => {
  it("refuses U+0000 in a query value with a 400 naming the parameter", async () => {
    for (const [handler, path] of [
      [listLeads, "/leads?search=a%00b"],
      [listLeads, "/leads?tags=x,%00&stage=ok"],
      [listCustomers, "/customers?search=%00"],
    ] as const) {
      const res = await call(handler, apiRequest(path, { key }));
      expect(res.status, path).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_ERROR");
      expect(res.body.details).toEqual([
        { field: expect.stringMatching(/^(search|tags\.1)$/), message: nul },
      ]);
    }
  });

  it("refuses U+0000 in body fields and tags, naming each, and writes nothing", async () => {
    const res = await call(
      upsertLead,
      apiRequest("/leads", { key, body: { name: "Ada\u0000", tags: ["ok", "b\u0000d"], phone: "555 0101" } }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: "error",
      error_code: "VALIDATION_ERROR",
      details: [
        { field: "name", message: nul },
        { field: "tags.1", message: nul },
      ],
    });
    const list = await call(listLeads, apiRequest("/leads?search=5550101", { key }));
    expect(list.body.data).toEqual([]);
    // Unknown fields are ignored, NUL or not.
    const ignored = await call(upsertLead, apiRequest("/leads", { key, body: { name: "Ada", x: "\u0000" } }));
    expect(ignored.status).toBe(201);
  });

  it("refuses U+0000 in a path parameter", async () => {
    const res = await call(getLead, apiRequest("/leads/x", { key }), { id: "lead_\u0000" });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: "id", message: nul }]);
  });

  it("treats a session cookie with a malformed escape as no session (401, not 500)", async () => {
    for (const cookie of ["fcrm_session=%", "fcrm_session=%E0%A4%A", "other=1; fcrm_session=%zz"]) {
      const res = await call(listLeads, apiRequest("/leads", { cookie }));
      expect(res.status, cookie).toBe(401);
      expect(res.body.error_code).toBe("AUTHENTICATION_REQUIRED");
    }
  });
});

import { describe, expect, it } from "vitest";
import { GET as listKeys, POST as createKey } from "@/app/api/settings/api-keys/route";
import { POST as revokeKey } from "@/app/api/settings/api-keys/[id]/revoke/route";
import { GET as listUsers, POST as createUser } from "@/app/api/settings/users/route";
import { POST as deactivate } from "@/app/api/settings/users/[id]/deactivate/route";
import { POST as activate } from "@/app/api/settings/users/[id]/activate/route";
import { POST as signIn } from "@/app/api/auth/sign-in/route";
import { GET as authTest } from "@/app/api/auth/test/route";
import type { ApiKeyList, CreatedApiKey, UserList, UserRecord } from "@/lib/schemas/settings";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import {
  apiRequest,
  call,
  createApiKey,
  createCompany,
  createSessionCookie,
  createUser as makeUser,
} from "@/lib/testing/factories";

const database = setupTestDatabase();

/** A company with a signed-in admin (cookie), and the admin's user. */
async function adminTenant() {
  const company = await createCompany(database.db);
  const admin = await makeUser(database.db, company.id, { role: "admin", name: "Ada Admin" });
  const cookie = await createSessionCookie(database.db, admin);
  return { companyId: company.id, admin, cookie };
}

const get = (path: string, cookie: string) => apiRequest(path, { cookie });
const post = (path: string, cookie: string, body?: unknown) =>
  apiRequest(path, { method: "POST", cookie, body });

describe(`settings: API keys (${testEngine()})`, () => {
  it("creates a key, shows its secret once, lists it with today's use, and revokes it", async () => {
    const { cookie, admin } = await adminTenant();
    const created = await call<CreatedApiKey>(
      createKey,
      post("/settings/api-keys", cookie, {
        name: "  Website form ",
        scopes: ["leads:write", "leads:read", "leads:write"],
        daily_limit: 50,
      }),
    );
    expect(created.status).toBe(201);
    const key = created.body;
    expect(key).toMatchObject({
      name: "Website form",
      scopes: ["leads:write", "leads:read"],
      daily_limit: 50,
      used_today: 0,
      last_used_at: null,
      revoked_at: null,
      created_by: admin.id,
    });
    expect(key.key).toMatch(/^fcrm_live_[0-9A-Za-z]{43}$/);
    expect(key.key.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBeLessThan(key.key.length);

    // The key works, and its use shows in the list.
    const test = await call(authTest, apiRequest("/auth/test", { key: key.key }));
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ auth_method: "api_key", scopes: ["leads:write", "leads:read"] });
    const list = await call<ApiKeyList>(listKeys, get("/settings/api-keys", cookie));
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ id: key.id, used_today: 1 });
    expect(list.body.data[0]!.last_used_at).not.toBeNull();
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(key.key);
    expect(text).not.toMatch(/hash/i);

    const revoked = await call<{ revoked_at: string }>(
      revokeKey,
      post(`/settings/api-keys/${key.id}/revoke`, cookie),
      {
        id: key.id,
      },
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const after = await call(authTest, apiRequest("/auth/test", { key: key.key }));
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error_code: "INVALID_API_KEY" });
    // Revoking again keeps the first time.
    const again = await call<{ revoked_at: string }>(
      revokeKey,
      post(`/settings/api-keys/${key.id}/revoke`, cookie),
      {
        id: key.id,
      },
    );
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
  });

  it("names every bad field of a new key", async () => {
    const { cookie } = await adminTenant();
    const res = await call<{ error_code: string; details: { field: string }[] }>(
      createKey,
      post("/settings/api-keys", cookie, { name: " ", scopes: ["leads:read", "admin:all"], daily_limit: 0 }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_ERROR");
    expect(res.body.details.map((d) => d.field).sort()).toEqual(["daily_limit", "name", "scopes.1"]);
    const none = await call<{ details: { field: string; message: string }[] }>(
      createKey,
      post("/settings/api-keys", cookie, { name: "x", scopes: [] }),
    );
    expect(none.body.details).toEqual([{ field: "scopes", message: "Pick at least one scope" }]);
    const list = await call<ApiKeyList>(listKeys, get("/settings/api-keys", cookie));
    expect(list.body.data).toEqual([]);
  });

  it("keeps companies apart: another company's key is not listed and cannot be revoked", async () => {
    const a = await adminTenant();
    const b = await adminTenant();
    const other = await createApiKey(database.db, b.companyId);
    const list = await call<ApiKeyList>(listKeys, get("/settings/api-keys", a.cookie));
    expect(list.body.data.map((k) => k.id)).not.toContain(other.id);
    const res = await call(revokeKey, post(`/settings/api-keys/${other.id}/revoke`, a.cookie), {
      id: other.id,
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: "error", message: "API key not found" });
    expect((await call(authTest, apiRequest("/auth/test", { key: other.key }))).status).toBe(200);
  });
});

describe(`settings: access (${testEngine()})`, () => {
  it("is for admins with a session only", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id);
    const cases: [string, Request, number, string][] = [
      ["no credentials", apiRequest("/settings/users"), 401, "AUTHENTICATION_REQUIRED"],
      ["an API key, even with every scope", apiRequest("/settings/users", { key }), 403, "FORBIDDEN"],
    ];
    for (const role of ["manager", "sales_rep", "technician"] as const) {
      const user = await makeUser(database.db, company.id, { role });
      cases.push([
        role,
        get("/settings/users", await createSessionCookie(database.db, user)),
        403,
        "FORBIDDEN",
      ]);
    }
    for (const [name, request, status, code] of cases) {
      const res = await call(listUsers, request);
      expect({ name, status: res.status, code: res.body.error_code }).toEqual({ name, status, code });
    }
    const manager = await makeUser(database.db, company.id, { role: "manager" });
    const managerCookie = await createSessionCookie(database.db, manager);
    const res = await call(
      createKey,
      post("/settings/api-keys", managerCookie, { name: "x", scopes: ["pins:read"] }),
    );
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("Only admin users may do this");
  });

  it("refuses cross-site writes with the admin's cookie", async () => {
    const { cookie } = await adminTenant();
    const request = apiRequest("/settings/api-keys", {
      method: "POST",
      cookie,
      body: { name: "evil", scopes: ["leads:read"] },
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    const res = await call(createKey, request);
    expect(res.status).toBe(403);
    const list = await call<ApiKeyList>(listKeys, get("/settings/api-keys", cookie));
    expect(list.body.data).toEqual([]);
  });
});

describe(`settings: users (${testEngine()})`, () => {
  it("adds a user who can then sign in; the list never shows password hashes", async () => {
    const { cookie, companyId } = await adminTenant();
    const res = await call<UserRecord>(
      createUser,
      post("/settings/users", cookie, {
        name: " Sam Seller ",
        email: " Sam.Seller@Example.test ",
        role: "sales_rep",
        password: "initial-pass",
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^usr_/),
      name: "Sam Seller",
      email: "Sam.Seller@Example.test",
      role: "sales_rep",
      active: true,
      created_at: expect.any(String),
    });
    const list = await call<UserList>(listUsers, get("/settings/users", cookie));
    expect(list.body.data.map((u) => u.name)).toEqual(["Ada Admin", "Sam Seller"]);
    expect(JSON.stringify(list.body)).not.toMatch(/scrypt|argon2|password/i);

    const signedIn = await call(
      signIn,
      apiRequest("/auth/sign-in", { body: { email: "sam.seller@example.test", password: "initial-pass" } }),
    );
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ company: { id: companyId }, user: { role: "sales_rep" } });
  });

  it("refuses a duplicate email (any case) and names bad fields", async () => {
    const { cookie, admin } = await adminTenant();
    const dup = await call(
      createUser,
      post("/settings/users", cookie, {
        name: "Twin",
        email: admin.email.toUpperCase(),
        role: "manager",
        password: "long enough",
      }),
    );
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error_code: "CONFLICT" });
    const bad = await call<{ details: { field: string }[] }>(
      createUser,
      post("/settings/users", cookie, { name: "", email: "not-an-email", role: "owner", password: "short" }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d) => d.field).sort()).toEqual(["email", "name", "password", "role"]);
    const list = await call<UserList>(listUsers, get("/settings/users", cookie));
    expect(list.body.data).toHaveLength(1);
  });

  it("deactivating a user ends their sessions and refuses their sign-in; reactivating lets them back", async () => {
    const { cookie, companyId } = await adminTenant();
    const rep = await makeUser(database.db, companyId, { role: "sales_rep", password: "rep-password" });
    const repCookie = await createSessionCookie(database.db, rep);
    expect((await call(authTest, get("/auth/test", repCookie))).status).toBe(200);

    const off = await call<UserRecord>(deactivate, post(`/settings/users/${rep.id}/deactivate`, cookie), {
      id: rep.id,
    });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    const ended = await call(authTest, get("/auth/test", repCookie));
    expect(ended.status).toBe(401);
    expect(ended.body).toMatchObject({ error_code: "AUTHENTICATION_REQUIRED" });
    const refused = await call(
      signIn,
      apiRequest("/auth/sign-in", { body: { email: rep.email, password: "rep-password" } }),
    );
    expect(refused.status).toBe(403);

    const on = await call<UserRecord>(activate, post(`/settings/users/${rep.id}/activate`, cookie), {
      id: rep.id,
    });
    expect(on.body.active).toBe(true);
    // The old session stays ended; a new sign-in works.
    expect((await call(authTest, get("/auth/test", repCookie))).status).toBe(401);
    const back = await call(
      signIn,
      apiRequest("/auth/sign-in", { body: { email: rep.email, password: "rep-password" } }),
    );
    expect(back.status).toBe(200);
  });

  it("an admin cannot deactivate themself; unknown and foreign ids are not found", async () => {
    const { cookie, admin } = await adminTenant();
    const self = await call(deactivate, post(`/settings/users/${admin.id}/deactivate`, cookie), {
      id: admin.id,
    });
    expect(self.status).toBe(403);
    expect(self.body).toMatchObject({
      error_code: "FORBIDDEN",
      message: "You cannot deactivate your own account",
    });
    expect((await call(authTest, get("/auth/test", cookie))).status).toBe(200);

    const other = await adminTenant();
    const foreign = await call(deactivate, post(`/settings/users/${other.admin.id}/deactivate`, cookie), {
      id: other.admin.id,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ status: "error", message: "User not found" });
    expect((await call(authTest, get("/auth/test", other.cookie))).status).toBe(200);
  });
});

import { describe, expect, it } from "vitest";
import { GET as authSession } from "@/app/api/auth/session/route";
import { POST as signIn } from "@/app/api/auth/sign-in/route";
import { GET as listSessions, DELETE as endOthers } from "@/app/api/auth/sessions/route";
import { DELETE as endSession } from "@/app/api/auth/sessions/[id]/route";
import { POST as createKey } from "@/app/api/settings/api-keys/route";
import { POST as revokeKey } from "@/app/api/settings/api-keys/[id]/revoke/route";
import { GET as auditLog } from "@/app/api/settings/audit-log/route";
import { GET as auditExport } from "@/app/api/settings/audit-log/export/route";
import { PUT as putLostReasons } from "@/app/api/settings/lost-reasons/route";
import { PUT as putPinTypes } from "@/app/api/settings/pin-types/route";
import { PUT as putPipeline } from "@/app/api/settings/pipeline/route";
import { GET as listUsers, POST as usersPost } from "@/app/api/settings/users/route";
import { POST as deactivate } from "@/app/api/settings/users/[id]/deactivate/route";
import { POST as activate } from "@/app/api/settings/users/[id]/activate/route";
import { POST as signOutUser } from "@/app/api/settings/users/[id]/sign-out/route";
import { POST as upsertTerritory } from "@/app/api/territories/route";
import { DELETE as deleteTerritory } from "@/app/api/territories/[id]/route";
import { GET as listLeads } from "@/app/api/leads/route";
import type { AuditLogResponse } from "@/lib/schemas/audit";
import type { SessionList } from "@/lib/schemas/sessions";
import type { CreatedApiKey, UserRecord } from "@/lib/schemas/settings";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import {
  apiRequest,
  call,
  createApiKey,
  createCompany,
  createSessionCookie,
  createUser,
} from "@/lib/testing/factories";
import { getPinTypeSettings } from "@/lib/domain/pin-types/settings";

const database = setupTestDatabase();

async function adminTenant() {
  const company = await createCompany(database.db);
  const admin = await createUser(database.db, company.id, { role: "admin", name: "Ada Admin" });
  const cookie = await createSessionCookie(database.db, admin);
  return { companyId: company.id, admin, cookie };
}

const get = (path: string, cookie: string) => apiRequest(path, { cookie });
const post = (path: string, cookie: string, body?: unknown) =>
  apiRequest(path, { method: "POST", cookie, body });
const put = (path: string, cookie: string, body: unknown) =>
  apiRequest(path, { method: "PUT", cookie, body });
const del = (path: string, cookie: string) => apiRequest(path, { method: "DELETE", cookie });

async function entries(cookie: string, query = "") {
  const res = await call<AuditLogResponse>(auditLog, get(`/settings/audit-log${query}`, cookie));
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe(`roles (${testEngine()})`, () => {
  it("changes a role with POST /settings/users {id, role}; the user's open session has it at its next request", async () => {
    const { companyId, cookie, admin } = await adminTenant();
    const rep = await createUser(database.db, companyId, { role: "sales_rep", name: "Sam Rep" });
    const repCookie = await createSessionCookie(database.db, rep);
    const before = await call<{ user: { role: string }; scopes: string[] }>(
      authSession,
      get("/auth/session", repCookie),
    );
    expect(before.body.user.role).toBe("sales_rep");

    const changed = await call<UserRecord>(
      usersPost,
      post("/settings/users", cookie, { id: rep.id, role: "manager" }),
    );
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ id: rep.id, role: "manager", active: true });

    const after = await call<{ user: { role: string }; scopes: string[] }>(
      authSession,
      get("/auth/session", repCookie),
    );
    expect(after.body.user.role).toBe("manager");
    expect(after.body.scopes).toContain("reports:read");

    const log = await entries(cookie, "?kind=user.role_changed");
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({
      kind: "user.role_changed",
      actor: { id: admin.id, name: "Ada Admin" },
      target: { type: "user", id: rep.id },
      changes: [{ field: "role", from: "sales_rep", to: "manager" }],
    });

    // Back to technician: leads are out of reach at the next request.
    await call(usersPost, post("/settings/users", cookie, { id: rep.id, role: "technician" }));
    const leads = await call(listLeads, get("/leads", repCookie));
    expect(leads.status).toBe(403);
  });

  it("refuses to demote or deactivate the last active admin (409), and allows it with another admin", async () => {
    const { companyId, cookie, admin } = await adminTenant();
    const demoteSelf = await call(
      usersPost,
      post("/settings/users", cookie, { id: admin.id, role: "manager" }),
    );
    expect(demoteSelf.status, demoteSelf.text).toBe(409);
    expect(demoteSelf.body).toMatchObject({ error_code: "CONFLICT" });

    // A deactivated admin does not count.
    const idle = await createUser(database.db, companyId, { role: "admin", active: false });
    expect(
      (await call(usersPost, post("/settings/users", cookie, { id: admin.id, role: "manager" }))).status,
    ).toBe(409);
    await call(activate, post(`/settings/users/${idle.id}/activate`, cookie), { id: idle.id });
    const ok = await call<UserRecord>(
      usersPost,
      post("/settings/users", cookie, { id: admin.id, role: "manager" }),
    );
    expect(ok.status, ok.text).toBe(200);
    // Now the caller is a manager: settings are closed at once.
    expect((await call(listUsers, get("/settings/users", cookie))).status).toBe(403);

    // The other admin alone cannot be deactivated or demoted by anyone.
    const idleCookie = await createSessionCookie(database.db, idle);
    expect(
      (await call(usersPost, post("/settings/users", idleCookie, { id: idle.id, role: "sales_rep" }))).status,
    ).toBe(409);
    // No entry for the refused changes; one each for the reactivation and the demotion.
    const log = await entries(idleCookie);
    expect(log.data.map((e) => e.kind)).toEqual(["user.role_changed", "user.reactivated"]);
  });

  it("two admins demoting each other at once: one of them stays admin", async () => {
    const { companyId, cookie, admin } = await adminTenant();
    const other = await createUser(database.db, companyId, { role: "admin" });
    const otherCookie = await createSessionCookie(database.db, other);
    const results = await Promise.all([
      call(usersPost, post("/settings/users", cookie, { id: other.id, role: "manager" })),
      call(usersPost, post("/settings/users", otherCookie, { id: admin.id, role: "manager" })),
    ]);
    const statuses = results.map((r) => r.status).sort();
    // Either one wins and the other is refused (its caller is no admin any more, or it is the last one).
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const users = await call<{ data: UserRecord[] }>(
      listUsers,
      get("/settings/users", results[0]!.status === 200 ? cookie : otherCookie),
    );
    expect(users.body.data.filter((u) => u.role === "admin")).toHaveLength(1);
  });

  it("validates the role change body", async () => {
    const { cookie, companyId } = await adminTenant();
    const rep = await createUser(database.db, companyId, { role: "sales_rep" });
    const bad = await call<{ details: { field: string }[] }>(
      usersPost,
      post("/settings/users", cookie, { id: rep.id, role: "owner" }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d) => d.field)).toEqual(["role"]);
    const extra = await call<{ details: { field: string; message: string }[] }>(
      usersPost,
      post("/settings/users", cookie, { id: rep.id, role: "manager", password: "something long" }),
    );
    expect(extra.status).toBe(400);
    expect(extra.body.details).toEqual([
      expect.objectContaining({ field: "password", message: "Only the role can be changed: leave this out" }),
    ]);
    const missing = await call<{ details: { field: string; message: string }[] }>(
      usersPost,
      post("/settings/users", cookie, { role: "admin" }),
    );
    expect(missing.body.details.map((d) => d.field).sort()).toEqual(["email", "name", "password"]);
    const unknown = await call(
      usersPost,
      post("/settings/users", cookie, { id: "usr_nobody", role: "admin" }),
    );
    expect(unknown.status).toBe(404);
  });
});

describe(`sessions (${testEngine()})`, () => {
  it("lists the user's sessions with ip and device, never a token; ends one and all others", async () => {
    const company = await createCompany(database.db);
    await createUser(database.db, company.id, {
      role: "sales_rep",
      email: "sid@example.test",
      password: "correct horse",
    });
    const signInFrom = async (ip: string, ua: string) => {
      const res = await call(
        signIn,
        apiRequest("/auth/sign-in", {
          body: { email: "sid@example.test", password: "correct horse" },
          headers: { "x-forwarded-for": `10.9.9.9, ${ip}`, "user-agent": ua },
        }),
      );
      expect(res.status, res.text).toBe(200);
      return res.headers.get("set-cookie")!.split(";")[0]!;
    };
    const laptop = await signInFrom("203.0.113.7", "Mozilla/5.0 (Macintosh) Firefox/130.0");
    const phone = await signInFrom("198.51.100.4", "Mozilla/5.0 (iPhone) Safari/604.1");
    const tablet = await signInFrom("2001:db8::1", "Mozilla/5.0 (iPad) Safari/604.1");

    const list = await call<SessionList>(listSessions, get("/auth/sessions", laptop));
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(3);
    const mine = list.body.data.find((s) => s.current)!;
    expect(mine).toMatchObject({ ip: "203.0.113.7", user_agent: "Mozilla/5.0 (Macintosh) Firefox/130.0" });
    expect(list.body.data.filter((s) => s.current)).toHaveLength(1);
    expect(list.body.data.map((s) => s.ip).sort()).toEqual(["198.51.100.4", "2001:db8::1", "203.0.113.7"]);
    const text = list.text;
    for (const cookie of [laptop, phone, tablet]) expect(text).not.toContain(cookie.split("=")[1]!);
    expect(text).not.toMatch(/hash|token/i);

    // End the phone's session from the laptop: the phone is signed out at its next request.
    const phoneId = list.body.data.find((s) => s.ip === "198.51.100.4")!.id;
    const ended = await call(endSession, del(`/auth/sessions/${phoneId}`, laptop), { id: phoneId });
    expect(ended.status).toBe(204);
    expect((await call(authSession, get("/auth/session", phone))).status).toBe(401);
    expect((await call(endSession, del(`/auth/sessions/${phoneId}`, laptop), { id: phoneId })).status).toBe(
      404,
    );

    // All others: the tablet ends, the laptop stays.
    const others = await call<{ ended: number }>(endOthers, del("/auth/sessions?others=true", laptop));
    expect(others.status, others.text).toBe(200);
    expect(others.body.ended).toBe(1);
    expect((await call(authSession, get("/auth/session", tablet))).status).toBe(401);
    expect((await call(authSession, get("/auth/session", laptop))).status).toBe(200);
    expect((await call(endOthers, del("/auth/sessions?others=false", laptop))).status).toBe(400);
    expect((await call(endOthers, del("/auth/sessions", laptop))).status).toBe(400);

    // Ending the current session clears the cookie.
    const me = (await call<SessionList>(listSessions, get("/auth/sessions", laptop))).body.data[0]!;
    const self = await call(endSession, del(`/auth/sessions/${me.id}`, laptop), { id: me.id });
    expect(self.status).toBe(204);
    expect(self.headers.get("set-cookie")).toMatch(/Max-Age=0/);
  });

  it("never ends another user's session (404), and is for sessions only", async () => {
    const { companyId, cookie, admin } = await adminTenant();
    const rep = await createUser(database.db, companyId, { role: "sales_rep" });
    const repCookie = await createSessionCookie(database.db, rep);
    const repSession = (await call<SessionList>(listSessions, get("/auth/sessions", repCookie))).body
      .data[0]!;
    const res = await call(endSession, del(`/auth/sessions/${repSession.id}`, cookie), { id: repSession.id });
    expect(res.status).toBe(404);
    expect((await call(authSession, get("/auth/session", repCookie))).status).toBe(200);
    const { key } = await createApiKey(database.db, companyId);
    expect((await call(listSessions, apiRequest("/auth/sessions", { key }))).status).toBe(403);
    void admin;
  });

  it("an admin signs a user out everywhere (204, audited); another company's user is a 404", async () => {
    const { companyId, cookie } = await adminTenant();
    const rep = await createUser(database.db, companyId, { role: "sales_rep" });
    const a = await createSessionCookie(database.db, rep);
    const b = await createSessionCookie(database.db, rep);
    const res = await call(signOutUser, post(`/settings/users/${rep.id}/sign-out`, cookie), { id: rep.id });
    expect(res.status).toBe(204);
    for (const c of [a, b]) expect((await call(authSession, get("/auth/session", c))).status).toBe(401);
    const log = await entries(cookie, "?kind=user.signed_out");
    expect(log.data[0]).toMatchObject({
      target: { type: "user", id: rep.id },
      changes: [{ field: "active_sessions", from: 2, to: 0 }],
    });
    const other = await adminTenant();
    const cross = await call(signOutUser, post(`/settings/users/${rep.id}/sign-out`, other.cookie), {
      id: rep.id,
    });
    expect(cross.status).toBe(404);
    const repCookie = await createSessionCookie(database.db, rep);
    const notAdmin = await call(signOutUser, post(`/settings/users/${rep.id}/sign-out`, repCookie), {
      id: rep.id,
    });
    expect(notAdmin.status).toBe(403);
  });
});

describe(`audit log (${testEngine()})`, () => {
  it("records every settings change with who, when, ip and before/after; never a secret", async () => {
    const { companyId, cookie, admin } = await adminTenant();
    const withIp = (req: Request) => {
      req.headers.set("x-forwarded-for", "192.0.2.10");
      return req;
    };
    const created = await call<UserRecord>(
      usersPost,
      withIp(
        post("/settings/users", cookie, {
          name: "Nia New",
          email: "nia@example.test",
          role: "sales_rep",
          password: "initial secret pw",
        }),
      ),
    );
    expect(created.status).toBe(201);
    await call(deactivate, post(`/settings/users/${created.body.id}/deactivate`, cookie), {
      id: created.body.id,
    });
    await call(activate, post(`/settings/users/${created.body.id}/activate`, cookie), {
      id: created.body.id,
    });
    const key = await call<CreatedApiKey>(
      createKey,
      post("/settings/api-keys", cookie, { name: "Website", scopes: ["leads:write"], daily_limit: 20 }),
    );
    expect(key.status).toBe(201);
    await call(revokeKey, post(`/settings/api-keys/${key.body.id}/revoke`, cookie), { id: key.body.id });
    // A second revoke changes nothing and writes nothing.
    await call(revokeKey, post(`/settings/api-keys/${key.body.id}/revoke`, cookie), { id: key.body.id });
    const pipeline = await call(
      putPipeline,
      put("/settings/pipeline", cookie, {
        stages: [
          { label: "New", color: "#3b82f6", kind: "open" },
          { label: "Won", color: "#22c55e", kind: "won" },
        ],
      }),
    );
    expect(pipeline.status, pipeline.text).toBe(200);
    expect(
      (await call(putLostReasons, put("/settings/lost-reasons", cookie, { reasons: [{ label: "Price" }] })))
        .status,
    ).toBe(200);
    const types = await getPinTypeSettings({ ctx: { db: database.db, companyId } });
    const pinTypes = await call(
      putPinTypes,
      put("/settings/pin-types", cookie, {
        pin_types: [
          ...types.data.map(({ id, label, color }) => ({ id, label, color })),
          { label: "Gate code", color: "#112233" },
        ],
      }),
    );
    expect(pinTypes.status, pinTypes.text).toBe(200);
    const territory = await call<{ data: { id: string } }>(
      upsertTerritory,
      post("/territories", cookie, {
        name: "North",
        polygon: {
          type: "Polygon",
          coordinates: [
            [
              [-97, 30],
              [-97, 31],
              [-96, 31],
              [-97, 30],
            ],
          ],
        },
      }),
    );
    expect(territory.status, territory.text).toBe(201);
    const tid = territory.body.data.id;
    await call(upsertTerritory, post("/territories", cookie, { id: tid, name: "North side" }));
    await call(deleteTerritory, del(`/territories/${tid}`, cookie), { id: tid });

    const log = await entries(cookie, "?limit=100");
    expect(log.data.map((e) => e.kind)).toEqual([
      "territory.deleted",
      "territory.updated",
      "territory.created",
      "pin_types.changed",
      "lost_reasons.changed",
      "pipeline.changed",
      "api_key.revoked",
      "api_key.created",
      "user.reactivated",
      "user.deactivated",
      "user.created",
    ]);
    expect(log.pagination).toMatchObject({ total: 11, has_more: false });
    for (const entry of log.data) expect(entry.actor).toEqual({ id: admin.id, name: "Ada Admin" });
    const byKind = Object.fromEntries(log.data.map((e) => [e.kind, e]));
    expect(byKind["user.created"]).toMatchObject({
      ip: "192.0.2.10",
      target: { type: "user", id: created.body.id },
      changes: [
        { field: "name", from: null, to: "Nia New" },
        { field: "email", from: null, to: "nia@example.test" },
        { field: "role", from: null, to: "sales_rep" },
      ],
    });
    expect(byKind["api_key.created"]!.changes).toEqual([
      { field: "name", from: null, to: "Website" },
      { field: "scopes", from: null, to: ["leads:write"] },
      { field: "daily_limit", from: null, to: 20 },
    ]);
    expect(byKind["territory.updated"]!.changes).toEqual([
      { field: "name", from: "North", to: "North side" },
    ]);
    expect(byKind["pipeline.changed"]!.changes[0]!.field).toBe("stages");

    // No secret anywhere: the API key, its hash, the password, its hash.
    const dump = JSON.stringify(log) + (await csvText(cookie));
    for (const secret of [key.body.key, key.body.key.slice(10, 30), "initial secret pw"]) {
      expect(dump).not.toContain(secret);
    }
    expect(dump).not.toMatch(/argon2|hash/i);
  });

  it("filters by actor, kind and time, pages newest first, and exports CSV", async () => {
    const { companyId, cookie, admin } = await adminTenant();
    const second = await createUser(database.db, companyId, { role: "admin", name: "Bo Second" });
    const secondCookie = await createSessionCookie(database.db, second);
    const rep = await createUser(database.db, companyId, { role: "sales_rep", name: "=cmd|' /C calc'!A0" });
    await call(usersPost, post("/settings/users", cookie, { id: rep.id, role: "manager" }));
    await call(usersPost, post("/settings/users", secondCookie, { id: rep.id, role: "technician" }));
    await call(signOutUser, post(`/settings/users/${rep.id}/sign-out`, secondCookie), { id: rep.id });

    expect((await entries(cookie, `?actor=${second.id}`)).data.map((e) => e.kind)).toEqual([
      "user.signed_out",
      "user.role_changed",
    ]);
    expect((await entries(cookie, `?actor=${admin.id}`)).data).toHaveLength(1);
    expect((await entries(cookie, "?kind=user.signed_out")).data).toHaveLength(1);
    const page = await entries(cookie, "?limit=2&page=2");
    expect(page.data).toHaveLength(1);
    expect(page.pagination).toMatchObject({ total: 3, has_more: false, page: 2 });
    expect((await entries(cookie, "?to=2000-01-01")).data).toHaveLength(0);
    expect((await entries(cookie, `?from=${new Date(Date.now() - 60_000).toISOString()}`)).data).toHaveLength(
      3,
    );
    const backwards = await call(auditLog, get("/settings/audit-log?from=2026-02-01&to=2026-01-01", cookie));
    expect(backwards.status).toBe(400);

    const csv = await auditExport(get(`/settings/audit-log/export?actor=${second.id}`, cookie), NO_PARAMS);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe('"at","actor_id","actor_name","ip","kind","target_type","target_id","changes"');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"user.signed_out"');
    expect(lines[2]).toContain('"role: ""manager"" → ""technician"""');

    // Another company sees none of it; a manager and a key are refused.
    const other = await adminTenant();
    expect((await entries(other.cookie)).data).toEqual([]);
    const repCookie = await createSessionCookie(database.db, { companyId, id: rep.id });
    expect((await call(auditLog, get("/settings/audit-log", repCookie))).status).toBe(403);
    const { key } = await createApiKey(database.db, companyId);
    expect((await call(auditLog, apiRequest("/settings/audit-log", { key }))).status).toBe(403);
  });

  it("a settings change that fails leaves no entry", async () => {
    const { cookie, companyId } = await adminTenant();
    const user = await createUser(database.db, companyId, { role: "sales_rep", email: "dup@example.test" });
    const dup = await call(
      usersPost,
      post("/settings/users", cookie, {
        name: "Dup",
        email: "DUP@example.test",
        role: "admin",
        password: "long enough",
      }),
    );
    expect(dup.status).toBe(409);
    const badPipeline = await call(
      putPipeline,
      put("/settings/pipeline", cookie, { stages: [{ label: "Won", color: "#22c55e", kind: "won" }] }),
    );
    expect(badPipeline.status).toBe(400);
    const missingTerritory = await call(
      upsertTerritory,
      post("/territories", cookie, { id: "ter_missing", name: "Nowhere" }),
    );
    expect(missingTerritory.status).toBe(404);
    const lastAdmin = (await entries(cookie)).data;
    expect(lastAdmin).toEqual([]);
    void user;
  });
});

const NO_PARAMS = { params: Promise.resolve({}) };

async function csvText(cookie: string): Promise<string> {
  const res = await auditExport(get("/settings/audit-log/export", cookie), NO_PARAMS);
  expect(res.status).toBe(200);
  return res.text();
}

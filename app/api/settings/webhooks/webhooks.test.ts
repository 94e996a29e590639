import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { GET as listRoute, POST as upsertRoute } from "@/app/api/settings/webhooks/route";
import { DELETE as deleteRoute } from "@/app/api/settings/webhooks/[id]/route";
import { POST as rotateRoute } from "@/app/api/settings/webhooks/[id]/rotate-secret/route";
import { isPublicAddress } from "@/lib/domain/webhooks/address-policy";
import { resetEnvCache } from "@/lib/env";
import { apiRequest, call, createSessionCookie, createTenant, createUser } from "@/lib/testing/factories";
import { auditEntries, expectNoSecretsIn } from "@/lib/testing/audit";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

type Body = Record<string, unknown>;

async function admin() {
  const tenant = await createTenant(database.db);
  const user = await createUser(database.db, tenant.companyId, { role: "admin" });
  return { ...tenant, userId: user.id, cookie: await createSessionCookie(database.db, user) };
}

const post = (cookie: string, body: unknown) =>
  call<Body>(upsertRoute, apiRequest("/settings/webhooks", { cookie, body }));
const list = (cookie: string) =>
  call<{ data: Body[] }>(listRoute, apiRequest("/settings/webhooks", { cookie }));
const fields = (body: unknown) =>
  ((body as { details?: { field: string }[] }).details ?? []).map((d) => d.field);

const PUBLIC_URL = "https://93.184.215.14/hooks";

afterEach(() => {
  delete process.env.WEBHOOKS_ALLOW_PRIVATE;
  resetEnvCache();
});

describe(`webhook endpoints in settings (${testEngine()})`, () => {
  it("creates with the secret once, lists without it, updates, rotates and deletes", async () => {
    const t = await admin();
    const created = await post(t.cookie, {
      url: PUBLIC_URL,
      events: ["lead.updated", "lead.created"],
      description: "Dialer",
    });
    expect(created.status, created.text).toBe(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);
    expect(created.body).toMatchObject({
      url: PUBLIC_URL,
      events: ["lead.created", "lead.updated"],
      description: "Dialer",
      enabled: true,
      disabled_reason: null,
      failing_since: null,
      secret_rotating_until: null,
    });
    const id = created.body.id as string;

    const listed = await list(t.cookie);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.text).not.toContain(secret);
    expect(listed.body.data[0]).not.toHaveProperty("secret");

    const updated = await post(t.cookie, { id, enabled: false, events: ["customer.created"] });
    expect(updated.status, updated.text).toBe(200);
    const unchanged = await post(t.cookie, { id, description: "Dialer" });
    expect(unchanged.status, unchanged.text).toBe(200);
    const refused = await post(t.cookie, { id, url: "http://127.0.0.1/x" });
    expect(refused.status).toBe(400);
    expect(updated.body).toMatchObject({ id, enabled: false, events: ["customer.created"], url: PUBLIC_URL });
    expect(updated.text).not.toContain(secret);

    const rotated = await call<Body>(
      rotateRoute,
      apiRequest(`/settings/webhooks/${id}/rotate-secret`, { cookie: t.cookie, method: "POST" }),
      { id },
    );
    expect(rotated.status, rotated.text).toBe(200);
    const next = rotated.body.secret as string;
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    const expires = new Date(rotated.body.previous_secret_expires_at as string).getTime();
    expect(Math.abs(expires - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);
    const { rows } = await database.db.execute<{ secret: string; previous_secret: string }>(
      sql`select secret, previous_secret from webhook_endpoints where company_id = ${t.companyId} and id = ${id}`,
    );
    expect(rows).toEqual([{ secret: next, previous_secret: secret }]);
    const afterRotation = await list(t.cookie);
    expect(afterRotation.body.data[0]!.secret_rotating_until).toBe(rotated.body.previous_secret_expires_at);
    expect(afterRotation.text).not.toContain(next);

    const deleted = await call(
      deleteRoute,
      apiRequest(`/settings/webhooks/${id}`, { cookie: t.cookie, method: "DELETE" }),
      { id },
    );
    expect(deleted.status).toBe(204);
    expect((await list(t.cookie)).body.data).toEqual([]);
    const again = await call(
      deleteRoute,
      apiRequest(`/settings/webhooks/${id}`, { cookie: t.cookie, method: "DELETE" }),
      { id },
    );
    expect(again.status).toBe(404);

    // A save that changes nothing, a refused URL and an unknown id leave no entry.
    expect((await post(t.cookie, { id: "whe_unknown", enabled: true })).status).toBe(404);
    const entries = await auditEntries(database.db, t.companyId);
    expect(entries.map((e) => e.kind)).toEqual([
      "webhook.created",
      "webhook.updated",
      "webhook.secret_rotated",
      "webhook.deleted",
    ]);
    expect(entries.every((e) => e.actorUserId === t.userId && e.targetId === id)).toBe(true);
    expect(entries[0]!.changes).toEqual([
      { field: "url", from: null, to: PUBLIC_URL },
      { field: "events", from: null, to: ["lead.created", "lead.updated"] },
      { field: "description", from: null, to: "Dialer" },
      { field: "enabled", from: null, to: true },
    ]);
    expect(entries[1]!.changes).toEqual([
      { field: "events", from: ["lead.created", "lead.updated"], to: ["customer.created"] },
      { field: "enabled", from: true, to: false },
    ]);
    expect(entries[3]!.changes).toContainEqual({ field: "url", from: PUBLIC_URL, to: null });
    expectNoSecretsIn(entries, [secret, next]);
  });

  it("refuses internal addresses, credentials and other schemes, naming url", async () => {
    const t = await admin();
    for (const url of [
      "http://127.0.0.1/x",
      "http://localhost:3000/x",
      "http://10.1.2.3/x",
      "http://192.168.0.10/x",
      "http://172.16.5.4/x",
      "http://169.254.169.254/latest/meta-data",
      "http://100.100.100.200/x",
      "http://[::1]/x",
      "http://[fe80::1]/x",
      "http://[fd00:ec2::254]/x",
      "http://[::ffff:127.0.0.1]/x",
      "http://0.0.0.0/x",
      "http://2130706433/x",
      "https://user:pass@93.184.215.14/x",
      "ftp://93.184.215.14/x",
      "not a url",
    ]) {
      const res = await post(t.cookie, { url, events: ["lead.created"] });
      expect(res.status, url).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_ERROR");
      expect(fields(res.body), url).toEqual(["url"]);
    }
    const missing = await post(t.cookie, {});
    expect(missing.status).toBe(400);
    expect(fields(missing.body).sort()).toEqual(["events", "url"]);
    const badType = await post(t.cookie, { url: PUBLIC_URL, events: ["lead.deleted"] });
    expect(badType.status).toBe(400);
    expect(fields(badType.body)[0]).toMatch(/^events/);
    expect((await list(t.cookie)).body.data).toEqual([]);
  });

  it("WEBHOOKS_ALLOW_PRIVATE=true allows loopback and private addresses", async () => {
    const t = await admin();
    process.env.WEBHOOKS_ALLOW_PRIVATE = "true";
    resetEnvCache();
    const res = await post(t.cookie, { url: "http://127.0.0.1:4010/hook", events: ["pin.created"] });
    expect(res.status, res.text).toBe(201);
  });

  it("the address policy: only public unicast addresses", () => {
    expect(isPublicAddress("93.184.215.14")).toBe(true);
    expect(isPublicAddress("2606:2800:220:1:248:1893:25c8:1946")).toBe(true);
    for (const address of [
      "127.0.0.1",
      "10.0.0.1",
      "169.254.169.254",
      "fc00::1",
      "::1",
      "::ffff:10.0.0.1",
      "garbage",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it("admin sessions only: a key, a manager and another company's id are refused", async () => {
    const t = await admin();
    const other = await admin();
    const byKey = await call<Body>(listRoute, apiRequest("/settings/webhooks", { key: t.key }));
    expect(byKey.status).toBe(403);
    const manager = await createUser(database.db, t.companyId, { role: "manager" });
    const managerCookie = await createSessionCookie(database.db, manager);
    expect((await post(managerCookie, { url: PUBLIC_URL, events: ["lead.created"] })).status).toBe(403);
    const created = await post(other.cookie, { url: PUBLIC_URL, events: ["lead.created"] });
    const id = created.body.id as string;
    expect((await post(t.cookie, { id, enabled: false })).status).toBe(404);
    const rotate = await call(
      rotateRoute,
      apiRequest(`/settings/webhooks/${id}/rotate-secret`, { cookie: t.cookie, method: "POST" }),
      { id },
    );
    expect(rotate.status).toBe(404);
    const del = await call(
      deleteRoute,
      apiRequest(`/settings/webhooks/${id}`, { cookie: t.cookie, method: "DELETE" }),
      { id },
    );
    expect(del.status).toBe(404);
    expect((await list(other.cookie)).body.data).toHaveLength(1);
  });
});

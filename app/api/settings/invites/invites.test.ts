import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { POST as accept } from "@/app/api/auth/invites/accept/route";
import { GET as session } from "@/app/api/auth/session/route";
import { DELETE as revoke } from "@/app/api/settings/invites/[id]/route";
import { GET as list, POST as create } from "@/app/api/settings/invites/route";
import { invites, users } from "@/lib/db/schema";
import { resetEnvCache } from "@/lib/env";
import { auditEntries, expectNoSecretsIn } from "@/lib/testing/audit";
import { withEnv } from "@/lib/testing/env";
import type { CreatedInvite, InviteList } from "@/lib/schemas/accounts";
import { MAIL_REFUSED } from "@/lib/mail/mailer";
import { apiRequest, call, createCompany, createSessionCookie, createUser } from "@/lib/testing/factories";
import { linkIn, startTestSmtpServer, type TestSmtpServer } from "@/lib/testing/smtp";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();

async function adminTenant(companyName?: string, adminName = "Ada Admin") {
  const company = await createCompany(database.db, companyName);
  const admin = await createUser(database.db, company.id, { role: "admin", name: adminName });
  return { companyId: company.id, admin, cookie: await createSessionCookie(database.db, admin) };
}

const invite = (cookie: string, body: unknown) =>
  call<CreatedInvite>(create, apiRequest("/settings/invites", { method: "POST", cookie, body }));
const acceptInvite = (body: unknown) =>
  call<Record<string, unknown>>(accept, apiRequest("/auth/invites/accept", { method: "POST", body }));
const detail = (res: { body: Record<string, unknown> }) =>
  (res.body.details as { message: string }[] | undefined)?.[0]?.message ?? "";
const tokenOf = (url: string) => url.split("/").at(-1)!;
const password = "a fine password";

describe(`invites without email (${testEngine()})`, () => {
  withEnv({ SMTP_URL: undefined, APP_URL: undefined });

  it("invites, shows the link once, and the link creates the user signed in with the role", async () => {
    const { cookie, admin, companyId } = await adminTenant();
    const created = await invite(cookie, { email: "  New.Person@Example.test ", role: "technician" });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      email: "New.Person@Example.test",
      role: "technician",
      status: "pending",
      created_by: admin.id,
    });
    expect(created.body.url).toMatch(/^http:\/\/localhost\/invite\/[A-Za-z0-9_-]{43}$/);
    const days = (Date.parse(created.body.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const listed = await call<InviteList>(list, apiRequest("/settings/invites", { cookie }));
    expect(listed.body.email_configured).toBe(false);
    expect(listed.body.data.map((i) => i.id)).toEqual([created.body.id]);
    expect(listed.text).not.toContain(tokenOf(created.body.url!));
    expect(listed.text).not.toMatch(/hash|url/i);
    // Only the hash is stored.
    const [row] = await database.db.select().from(invites).where(eq(invites.id, created.body.id));
    expect(JSON.stringify(row)).not.toContain(tokenOf(created.body.url!));

    const accepted = await acceptInvite({ token: tokenOf(created.body.url!), name: " Nia New ", password });
    expect(accepted.status, accepted.text).toBe(201);
    expect(accepted.body).toMatchObject({
      status: "success",
      user: { name: "Nia New", email: "New.Person@Example.test", role: "technician" },
      company: { id: companyId },
    });
    const cookieHeader = accepted.headers.get("set-cookie")!;
    expect(cookieHeader).toMatch(/HttpOnly/);
    const newCookie = cookieHeader.split(";")[0]!;
    const me = await call<{ user: { email: string } }>(
      session,
      apiRequest("/auth/session", { cookie: newCookie }),
    );
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe("New.Person@Example.test");

    // Used: it works once, and the list no longer shows it.
    const again = await acceptInvite({ token: tokenOf(created.body.url!), name: "Someone", password });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error_code: "VALIDATION_ERROR", details: [{ field: "token" }] });
    expect(detail(again)).toMatch(/already been used/);
    const after = await call<InviteList>(list, apiRequest("/settings/invites", { cookie }));
    expect(after.body.data).toEqual([]);
    const created2 = await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(and(eq(users.companyId, companyId), eq(users.emailNormalized, "new.person@example.test")));
    expect(created2[0]!.n).toBe(1);
  });

  it("revoked, expired, replaced and unknown links are 400s; revoking twice is a 404", async () => {
    const { cookie } = await adminTenant();
    const first = await invite(cookie, { email: "re@example.test", role: "sales_rep" });
    const second = await invite(cookie, { email: "RE@example.test", role: "manager" });
    expect(second.status).toBe(201);
    const replaced = await acceptInvite({ token: tokenOf(first.body.url!), name: "R", password });
    expect(replaced.status).toBe(400);
    expect(detail(replaced)).toMatch(/withdrawn/);

    const revoked = await call(
      revoke,
      apiRequest(`/settings/invites/${second.body.id}`, { method: "DELETE", cookie }),
      { id: second.body.id },
    );
    expect(revoked.status).toBe(204);
    expect((await acceptInvite({ token: tokenOf(second.body.url!), name: "R", password })).status).toBe(400);
    const twice = await call(
      revoke,
      apiRequest(`/settings/invites/${second.body.id}`, { method: "DELETE", cookie }),
      { id: second.body.id },
    );
    expect(twice.status).toBe(404);

    const third = await invite(cookie, { email: "late@example.test", role: "sales_rep" });
    await database.db
      .update(invites)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(invites.id, third.body.id));
    const listed = await call<InviteList>(list, apiRequest("/settings/invites", { cookie }));
    expect(listed.body.data.find((i) => i.id === third.body.id)?.status).toBe("expired");
    const expired = await acceptInvite({ token: tokenOf(third.body.url!), name: "L", password });
    expect(expired.status).toBe(400);
    expect(detail(expired)).toMatch(/expired/);

    const unknown = await acceptInvite({ token: "x".repeat(43), name: "U", password });
    expect(unknown.status).toBe(400);
    const short = await acceptInvite({
      token: third.body.url!.split("/").at(-1),
      name: "U",
      password: "short",
    });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ details: [{ field: "password" }] });
  });

  it("an email already a user is a 409 (any case); a user added after the invite makes accepting a 409", async () => {
    const { cookie, companyId } = await adminTenant();
    await createUser(database.db, companyId, { email: "taken@example.test", role: "sales_rep" });
    const taken = await invite(cookie, { email: "TAKEN@example.test", role: "sales_rep" });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ error_code: "CONFLICT" });

    const open = await invite(cookie, { email: "raced@example.test", role: "sales_rep" });
    await createUser(database.db, companyId, { email: "raced@example.test", role: "sales_rep" });
    const raced = await acceptInvite({ token: tokenOf(open.body.url!), name: "R", password });
    expect(raced.status).toBe(409);
  });

  it("only admins invite, list and revoke; another company's invite is a 404", async () => {
    const { companyId, cookie } = await adminTenant();
    const rep = await createUser(database.db, companyId, { role: "manager" });
    const repCookie = await createSessionCookie(database.db, rep);
    expect((await invite(repCookie, { email: "x@example.test", role: "admin" })).status).toBe(403);
    expect((await call(list, apiRequest("/settings/invites", { cookie: repCookie }))).status).toBe(403);
    const mine = await invite(cookie, { email: "mine@example.test", role: "admin" });
    const other = await adminTenant();
    const foreign = await call(
      revoke,
      apiRequest(`/settings/invites/${mine.body.id}`, { method: "DELETE", cookie: other.cookie }),
      { id: mine.body.id },
    );
    expect(foreign.status).toBe(404);
    const otherList = await call<InviteList>(list, apiRequest("/settings/invites", { cookie: other.cookie }));
    expect(otherList.body.data).toEqual([]);
  });

  it("many accepts of one link at once create one user", async () => {
    const { cookie, companyId } = await adminTenant();
    const open = await invite(cookie, { email: "race@example.test", role: "sales_rep" });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        acceptInvite({ token: tokenOf(open.body.url!), name: `R${i}`, password }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(5);
    const rows = await database.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.companyId, companyId), eq(users.emailNormalized, "race@example.test")));
    expect(rows).toHaveLength(1);
  });

  it("audits the invite, its revocation and its acceptance; failed ones leave no entry", async () => {
    const { cookie, companyId, admin } = await adminTenant();
    await createUser(database.db, companyId, { email: "here@example.test", role: "sales_rep" });
    expect((await invite(cookie, { email: "here@example.test", role: "sales_rep" })).status).toBe(409);
    expect(await auditEntries(database.db, companyId)).toEqual([]);

    const revoked = await invite(cookie, { email: "gone@example.test", role: "manager" });
    const revoke1 = () =>
      call(revoke, apiRequest(`/settings/invites/${revoked.body.id}`, { method: "DELETE", cookie }), {
        id: revoked.body.id,
      });
    expect((await revoke1()).status).toBe(204);
    expect((await revoke1()).status).toBe(404);
    const kept = await invite(cookie, { email: "kept@example.test", role: "technician" });
    const accepted = await call(
      accept,
      apiRequest("/auth/invites/accept", {
        method: "POST",
        body: { token: tokenOf(kept.body.url!), name: "Kim Kept", password },
        headers: { "x-forwarded-for": "203.0.113.9" },
      }),
    );
    expect(accepted.status, accepted.text).toBe(201);
    const userId = (accepted.body as { user: { id: string } }).user.id;
    expect((await acceptInvite({ token: tokenOf(kept.body.url!), name: "Again", password })).status).toBe(
      400,
    );

    const entries = await auditEntries(database.db, companyId);
    expect(entries.map((e) => e.kind)).toEqual([
      "invite.created",
      "invite.revoked",
      "invite.created",
      "invite.accepted",
    ]);
    expect(entries[0]).toMatchObject({
      actorUserId: admin.id,
      actorName: "Ada Admin",
      targetType: "invite",
      targetId: revoked.body.id,
      changes: [
        { field: "email", from: null, to: "gone@example.test" },
        { field: "role", from: null, to: "manager" },
      ],
    });
    expect(entries[1]).toMatchObject({
      actorUserId: admin.id,
      targetId: revoked.body.id,
      changes: [
        { field: "email", from: "gone@example.test", to: null },
        { field: "role", from: "manager", to: null },
      ],
    });
    // Accepted before any session: the new user is the actor, from their address.
    expect(entries[3]).toMatchObject({
      actorUserId: userId,
      actorName: "Kim Kept",
      ip: "203.0.113.9",
      targetId: kept.body.id,
      changes: [
        { field: "user_id", from: null, to: userId },
        { field: "email", from: null, to: "kept@example.test" },
        { field: "role", from: null, to: "technician" },
      ],
    });
    expectNoSecretsIn(entries, [tokenOf(revoked.body.url!), tokenOf(kept.body.url!), password]);
  });
});

describe(`invites by email (${testEngine()})`, () => {
  let smtp: TestSmtpServer;
  withEnv({ SMTP_URL: undefined, APP_URL: "https://crm.example.test", MAIL_FROM: undefined });
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    process.env.SMTP_URL = smtp.url;
    resetEnvCache();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("emails the link (text and HTML, values escaped) and answers no url", async () => {
    const { cookie } = await adminTenant(`Bugs <b>&</b> "Co"`, "Ada <Admin>");
    const since = smtp.received.length;
    const created = await invite(cookie, { email: "Mail.Me@example.test", role: "sales_rep" });
    expect(created.status, created.text).toBe(201);
    expect(created.body.url).toBeUndefined();
    const listed = await call<InviteList>(list, apiRequest("/settings/invites", { cookie }));
    expect(listed.body.email_configured).toBe(true);

    const email = await smtp.waitFor("mail.me@example.test", { since });
    expect(email.from).toBe("no-reply@crm.example.test");
    expect(email.subject).toBe(`You're invited to Bugs <b>&</b> "Co" on FieldCRM`);
    const url = linkIn(email, "/invite/");
    expect(url).toMatch(/^https:\/\/crm\.example\.test\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(email.text).toContain(
      'Ada <Admin> invited you to join Bugs <b>&</b> "Co" on FieldCRM as Sales rep.',
    );
    expect(email.html).toContain("Bugs &lt;b&gt;&amp;&lt;/b&gt; &quot;Co&quot;");
    expect(email.html).toContain("Ada &lt;Admin&gt;");
    expect(email.html).not.toContain("<b>&</b>");
    expect(email.html).toContain(`href="${url}"`);
    expect(email.html).toContain('<html lang="en">');

    const accepted = await acceptInvite({ token: tokenOf(url), name: "Mia Mail", password });
    expect(accepted.status, accepted.text).toBe(201);
  });

  it("a mail server that refuses: 503, and the invite is withdrawn, as the log says", async () => {
    const { cookie, companyId } = await adminTenant();
    const closed = await startTestSmtpServer();
    await closed.close();
    process.env.SMTP_URL = closed.url;
    resetEnvCache();
    try {
      const created = await invite(cookie, { email: "lost@example.test", role: "sales_rep" });
      expect(created.status, created.text).toBe(503);
      expect(created.body).toMatchObject({ error_code: "SERVICE_UNAVAILABLE" });
      expect(created.text).toMatch(/email could not be sent/);
      const listed = await call<InviteList>(list, apiRequest("/settings/invites", { cookie }));
      expect(listed.body.data).toEqual([]);
      // The log is append-only: it keeps the invite and says why it was withdrawn.
      const entries = await auditEntries(database.db, companyId);
      expect(entries.map((entry) => entry.kind)).toEqual(["invite.created", "invite.withdrawn"]);
      expect(entries[1]!.targetId).toBe(entries[0]!.targetId);
      expect(entries[1]!.changes).toEqual([{ field: "reason", from: null, to: MAIL_REFUSED }]);
    } finally {
      process.env.SMTP_URL = smtp.url;
      resetEnvCache();
    }
  });
});

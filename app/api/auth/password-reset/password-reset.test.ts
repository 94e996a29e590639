import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { POST as confirm } from "@/app/api/auth/password-reset/confirm/route";
import { POST as requestReset } from "@/app/api/auth/password-reset/route";
import { GET as session } from "@/app/api/auth/session/route";
import { POST as signIn } from "@/app/api/auth/sign-in/route";
import { POST as deactivate } from "@/app/api/settings/users/[id]/deactivate/route";
import { POST as issue } from "@/app/api/settings/users/[id]/password-reset/route";
import { RESET_PER_EMAIL, RESET_PER_IP } from "@/lib/auth/request-throttle";
import { passwordResets } from "@/lib/db/schema";
import { resetEnvCache } from "@/lib/env";
import { settleBackgroundWork } from "@/lib/mail/background";
import { MAIL_REFUSED } from "@/lib/mail/mailer";
import type { IssuedPasswordReset } from "@/lib/schemas/accounts";
import { auditEntries, expectNoSecretsIn } from "@/lib/testing/audit";
import { withEnv } from "@/lib/testing/env";
import { apiRequest, call, createCompany, createSessionCookie, createUser } from "@/lib/testing/factories";
import { linkIn, startTestSmtpServer, type TestSmtpServer } from "@/lib/testing/smtp";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

const database = setupTestDatabase();
const OLD = "the old password";
const CONFIRM_IP = "192.0.2.44";
const NEW = "a brand new password";

let ipCounter = 0;
/** Each test asks from its own address, so the per-IP limit is only met where a test means it. */
const freshIp = () => `198.51.100.${++ipCounter}`;

const askReset = (email: string, ip: string) =>
  call<Record<string, unknown>>(
    requestReset,
    apiRequest("/auth/password-reset", {
      method: "POST",
      body: { email },
      headers: { "x-forwarded-for": ip },
    }),
  );
const confirmReset = (token: string, password = NEW) =>
  call<Record<string, unknown>>(
    confirm,
    apiRequest("/auth/password-reset/confirm", {
      method: "POST",
      body: { token, password },
      headers: { "x-forwarded-for": CONFIRM_IP },
    }),
  );
const signInWith = (email: string, password: string, companyId?: string) =>
  call<Record<string, unknown>>(
    signIn,
    apiRequest("/auth/sign-in", {
      method: "POST",
      body: { email, password, ...(companyId ? { company_id: companyId } : {}) },
    }),
  );
const sessionWorks = async (cookie: string) =>
  (await call(session, apiRequest("/auth/session", { cookie }))).status === 200;
const tokenOf = (url: string) => url.split("/").at(-1)!;
const detail = (res: { body: Record<string, unknown> }) =>
  (res.body.details as { message: string }[] | undefined)?.[0]?.message ?? "";

async function person(email: string, companyName?: string) {
  const company = await createCompany(database.db, companyName);
  const user = await createUser(database.db, company.id, { role: "sales_rep", email, password: OLD });
  return { company, user, cookie: await createSessionCookie(database.db, user) };
}

describe(`password reset by email (${testEngine()})`, () => {
  let smtp: TestSmtpServer;
  withEnv({
    SMTP_URL: undefined,
    APP_URL: "https://crm.example.test",
    MAIL_FROM: "FieldCRM <crm@example.test>",
  });
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    process.env.SMTP_URL = smtp.url;
    resetEnvCache();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("answers the same for a known and an unknown email; only the known one gets a link", async () => {
    const { user } = await person("known@example.test");
    const since = smtp.received.length;
    const known = await askReset("  KNOWN@example.test ", freshIp());
    const unknown = await askReset("nobody-here@example.test", freshIp());
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.text).toBe(unknown.text);
    await settleBackgroundWork();
    const email = await smtp.waitFor(user.email, { since });
    expect(smtp.received.slice(since).filter((m) => m.to.includes("nobody-here@example.test"))).toEqual([]);
    expect(email.from).toBe("crm@example.test");
    expect(email.subject).toBe("Reset your FieldCRM password");
    expect(email.html).toContain('<html lang="en">');
    const url = linkIn(email, "/reset-password/");
    expect(url).toMatch(/^https:\/\/crm\.example\.test\/reset-password\/[A-Za-z0-9_-]{43}$/);
    // Only the hash is stored, for 1 hour.
    const rows = await database.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(tokenOf(url));
    const minutes = (rows[0]!.expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(59);
    expect(minutes).toBeLessThanOrEqual(60);
  });

  it("the link sets the password once, ends every session and spends the account's other links", async () => {
    const { user, cookie, company } = await person("resetme@example.test");
    const otherCookie = await createSessionCookie(database.db, user);
    const since = smtp.received.length;
    await askReset(user.email, freshIp());
    await askReset(user.email, freshIp());
    await settleBackgroundWork();
    const [first, second] = smtp.received.slice(since).filter((m) => m.to.includes(user.email));
    expect(second).toBeDefined();
    const done = await confirmReset(tokenOf(linkIn(first!, "/reset-password/")));
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ status: "success" });
    expect(await sessionWorks(cookie)).toBe(false);
    expect(await sessionWorks(otherCookie)).toBe(false);
    expect((await signInWith(user.email, OLD)).status).toBe(401);
    const signedIn = await signInWith(user.email, NEW);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ company: { id: company.id } });

    const reused = await confirmReset(tokenOf(linkIn(first!, "/reset-password/")), "yet another password");
    expect(reused.status).toBe(400);
    expect(detail(reused)).toMatch(/already been used/);
    const spent = await confirmReset(tokenOf(linkIn(second!, "/reset-password/")), "yet another password");
    expect(spent.status).toBe(400);
    expect((await signInWith(user.email, NEW)).status).toBe(200);

    // Each request's entry is the system's (written after the answer); the reset is the user's own.
    const entries = await auditEntries(database.db, company.id);
    expect(entries.map((e) => e.kind)).toEqual([
      "user.password_reset_requested",
      "user.password_reset_requested",
      "user.password_reset",
    ]);
    expect(entries[0]).toMatchObject({ actorUserId: null, actorName: "System", ip: null, targetId: user.id });
    expect(entries[2]).toMatchObject({
      actorUserId: user.id,
      ip: CONFIRM_IP,
      targetType: "user",
      targetId: user.id,
      changes: [],
    });
    expectNoSecretsIn(entries, [
      tokenOf(linkIn(first!, "/reset-password/")),
      tokenOf(linkIn(second!, "/reset-password/")),
      OLD,
      NEW,
    ]);
  });

  it("a mail server that refuses an admin's link: 503, the link is gone and the log says so", async () => {
    const { user, company } = await person("refused@example.test");
    const admin = await createUser(database.db, company.id, { role: "admin" });
    const adminCookie = await createSessionCookie(database.db, admin);
    const closed = await startTestSmtpServer();
    await closed.close();
    process.env.SMTP_URL = closed.url;
    resetEnvCache();
    try {
      const issued = await call(
        issue,
        apiRequest(`/settings/users/${user.id}/password-reset`, { method: "POST", cookie: adminCookie }),
        { id: user.id },
      );
      expect(issued.status, issued.text).toBe(503);
      const rows = await database.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
      expect(rows).toEqual([]);
      const entries = await auditEntries(database.db, company.id);
      expect(entries.map((entry) => [entry.kind, entry.targetId])).toEqual([
        ["user.password_reset_issued", user.id],
        ["user.password_reset_withdrawn", user.id],
      ]);
      expect(entries[1]!.changes).toEqual([{ field: "reason", from: null, to: MAIL_REFUSED }]);
    } finally {
      process.env.SMTP_URL = smtp.url;
      resetEnvCache();
    }
  });

  it("an email in two companies gets one email with a link per account; each resets only its own", async () => {
    const shared = "shared@example.test";
    const a = await person(shared, "Alpha Pest");
    const b = await person(shared, "Beta Lawn");
    const since = smtp.received.length;
    await askReset(shared, freshIp());
    await settleBackgroundWork();
    const emails = smtp.received.slice(since).filter((m) => m.to.includes(shared));
    expect(emails).toHaveLength(1);
    const text = emails[0]!.text;
    const linkFor = (name: string) => text.match(new RegExp(`${name}: (\\S+)`))?.[1];
    const alpha = linkFor("Alpha Pest");
    const beta = linkFor("Beta Lawn");
    expect(alpha).toBeDefined();
    expect(beta).toBeDefined();
    expect(alpha).not.toBe(beta);
    expect((await confirmReset(tokenOf(alpha!))).status).toBe(200);
    expect(await sessionWorks(a.cookie)).toBe(false);
    expect(await sessionWorks(b.cookie)).toBe(true);
    expect((await signInWith(shared, NEW, a.company.id)).status).toBe(200);
    expect((await signInWith(shared, OLD, b.company.id)).status).toBe(200);
  });

  it("expired and unknown links are 400s; a deactivated account's link is a 403", async () => {
    const { user } = await person("expiring@example.test");
    const since = smtp.received.length;
    await askReset(user.email, freshIp());
    await settleBackgroundWork();
    const url = linkIn(await smtp.waitFor(user.email, { since }), "/reset-password/");
    await database.db
      .update(passwordResets)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(passwordResets.userId, user.id));
    const expired = await confirmReset(tokenOf(url));
    expect(expired.status).toBe(400);
    expect(detail(expired)).toMatch(/expired/);
    expect((await confirmReset("A".repeat(43))).status).toBe(400);

    const admin = await createUser(database.db, user.companyId, { role: "admin" });
    const adminCookie = await createSessionCookie(database.db, admin);
    const issued = await call<IssuedPasswordReset>(
      issue,
      apiRequest(`/settings/users/${user.id}/password-reset`, { method: "POST", cookie: adminCookie }),
      { id: user.id },
    );
    expect(issued.status).toBe(200);
    const adminEmail = await smtp.waitFor(user.email, { since: since + 1 });
    await call(
      deactivate,
      apiRequest(`/settings/users/${user.id}/deactivate`, { method: "POST", cookie: adminCookie }),
      {
        id: user.id,
      },
    );
    const refused = await confirmReset(tokenOf(linkIn(adminEmail, "/reset-password/")));
    expect(refused.status).toBe(403);
    // A deactivated user gets no link from the admin either.
    const again = await call(
      issue,
      apiRequest(`/settings/users/${user.id}/password-reset`, { method: "POST", cookie: adminCookie }),
      { id: user.id },
    );
    expect(again.status).toBe(409);
  });

  it("an admin's link is emailed to the user and says an admin sent it", async () => {
    const { user, company, cookie } = await person("fromadmin@example.test");
    const admin = await createUser(database.db, company.id, { role: "admin" });
    const adminCookie = await createSessionCookie(database.db, admin);
    const since = smtp.received.length;
    const issued = await call<IssuedPasswordReset>(
      issue,
      apiRequest(`/settings/users/${user.id}/password-reset`, { method: "POST", cookie: adminCookie }),
      { id: user.id },
    );
    expect(issued.status, issued.text).toBe(200);
    expect(issued.body).toMatchObject({ user_id: user.id, emailed: true });
    expect(issued.body.url).toBeUndefined();
    const email = await smtp.waitFor(user.email, { since });
    expect(email.text).toMatch(/An administrator of your company/);
    expect((await confirmReset(tokenOf(linkIn(email, "/reset-password/")))).status).toBe(200);
    expect(await sessionWorks(cookie)).toBe(false);
  });
});

describe(`password reset throttle (${testEngine()})`, () => {
  withEnv({ SMTP_URL: undefined, APP_URL: undefined });

  it(`per email: one request over ${RESET_PER_EMAIL.max} within the hour is a 429, known or not`, async () => {
    const { user } = await person("throttled@example.test");
    for (const email of [user.email, "throttled-unknown@example.test"]) {
      for (let i = 0; i < RESET_PER_EMAIL.max; i++)
        expect((await askReset(email, freshIp())).status).toBe(202);
      const refused = await askReset(email.toUpperCase(), freshIp());
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error_code: "TOO_MANY_ATTEMPTS" });
      const retry = Number(refused.headers.get("retry-after"));
      expect(retry).toBeGreaterThan(3500);
      expect(retry).toBeLessThanOrEqual(3600);
    }
  });

  it(`per address: one request over ${RESET_PER_IP.max} within the hour is a 429, whatever the email`, async () => {
    const ip = freshIp();
    for (let i = 0; i < RESET_PER_IP.max; i++) {
      expect((await askReset(`ip-${i}@example.test`, ip)).status).toBe(202);
    }
    expect((await askReset("ip-last@example.test", ip)).status).toBe(429);
    expect((await askReset("ip-last@example.test", freshIp())).status).toBe(202);
  });

  it("parallel requests for one email: exactly the limit is accepted", async () => {
    const results = await Promise.all(
      Array.from({ length: RESET_PER_EMAIL.max + 6 }, () => askReset("parallel@example.test", freshIp())),
    );
    expect(results.filter((r) => r.status === 202)).toHaveLength(RESET_PER_EMAIL.max);
    expect(results.filter((r) => r.status === 429)).toHaveLength(6);
  });
});

describe(`admin-issued reset without email (${testEngine()})`, () => {
  withEnv({ SMTP_URL: undefined, APP_URL: undefined });

  it("answers the link once; only admins, only their company's users", async () => {
    const { user, company, cookie } = await person("noemail@example.test");
    const admin = await createUser(database.db, company.id, { role: "admin" });
    const adminCookie = await createSessionCookie(database.db, admin);
    const issued = await call<IssuedPasswordReset>(
      issue,
      apiRequest(`/settings/users/${user.id}/password-reset`, { method: "POST", cookie: adminCookie }),
      { id: user.id },
    );
    expect(issued.status, issued.text).toBe(200);
    expect(issued.body.emailed).toBe(false);
    expect(issued.body.url).toMatch(/^http:\/\/localhost\/reset-password\/[A-Za-z0-9_-]{43}$/);
    expect((await confirmReset(tokenOf(issued.body.url!))).status).toBe(200);
    expect(await sessionWorks(cookie)).toBe(false);

    const forbidden = await call(
      issue,
      apiRequest(`/settings/users/${admin.id}/password-reset`, {
        method: "POST",
        cookie: await createSessionCookie(database.db, user),
      }),
      { id: admin.id },
    );
    expect(forbidden.status).toBe(403);
    const other = await person("other-company@example.test");
    const otherAdmin = await createUser(database.db, other.company.id, { role: "admin" });
    const foreign = await call(
      issue,
      apiRequest(`/settings/users/${user.id}/password-reset`, {
        method: "POST",
        cookie: await createSessionCookie(database.db, otherAdmin),
      }),
      { id: user.id },
    );
    expect(foreign.status).toBe(404);

    // The refused ones left no entry, here or in the other company.
    expect(await auditEntries(database.db, other.company.id)).toEqual([]);
    const entries = await auditEntries(database.db, company.id);
    expect(entries.map((e) => e.kind)).toEqual(["user.password_reset_issued", "user.password_reset"]);
    expect(entries[0]).toMatchObject({
      actorUserId: admin.id,
      targetType: "user",
      targetId: user.id,
      changes: [{ field: "reset_expires_at", from: null, to: issued.body.expires_at }],
    });
    expect(entries[1]).toMatchObject({ actorUserId: user.id, targetId: user.id });
    expectNoSecretsIn(entries, [tokenOf(issued.body.url!), NEW]);
  });

  it("forgot password without a mail server still answers 202 and stores nothing", async () => {
    const { user, company } = await person("quiet@example.test");
    expect((await askReset(user.email, freshIp())).status).toBe(202);
    await settleBackgroundWork();
    const rows = await database.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(rows).toEqual([]);
    expect(await auditEntries(database.db, company.id)).toEqual([]);
  });
});

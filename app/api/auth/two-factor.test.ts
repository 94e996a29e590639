import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as signInRoute } from "@/app/api/auth/sign-in/route";
import { POST as secondStepRoute } from "@/app/api/auth/sign-in/two-factor/route";
import { GET as statusRoute } from "@/app/api/auth/two-factor/route";
import { POST as setupRoute } from "@/app/api/auth/two-factor/setup/route";
import { POST as enableRoute } from "@/app/api/auth/two-factor/enable/route";
import { POST as disableRoute } from "@/app/api/auth/two-factor/disable/route";
import { POST as recoveryCodesRoute } from "@/app/api/auth/two-factor/recovery-codes/route";
import { GET as getRule, PUT as putRule } from "@/app/api/settings/two-factor/route";
import { GET as authTest } from "@/app/api/auth/test/route";
import { accountSubject, MAX_FAILURES } from "@/lib/auth/throttle";
import { recoveryCodes, secondFactors, sessions, signInAttempts, signInChallenges } from "@/lib/db/schema";
import { auditEntries, expectNoSecretsIn } from "@/lib/testing/audit";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import {
  apiRequest,
  call,
  createApiKey,
  createCompany,
  createSessionCookie,
  createUser,
} from "@/lib/testing/factories";
import { TotpCodes } from "@/lib/testing/totp-codes";

const database = setupTestDatabase();
const PASSWORD = "correct horse battery";

type Json = Record<string, unknown>;

async function signedInUser(options: { role?: "admin" | "sales_rep" } = {}) {
  const company = await createCompany(database.db);
  const user = await createUser(database.db, company.id, {
    password: PASSWORD,
    role: options.role ?? "admin",
  });
  const cookie = await createSessionCookie(database.db, user);
  return { company, user, cookie };
}

const post = (
  handler: Parameters<typeof call>[0],
  path: string,
  cookie: string | undefined,
  body?: unknown,
) => call<Json>(handler, apiRequest(path, { method: "POST", cookie, body }));

const signIn = (email: string, password = PASSWORD) =>
  call<Json>(signInRoute, apiRequest("/auth/sign-in", { body: { email, password } }));

const secondStep = (body: Json) =>
  call<Json>(secondStepRoute, apiRequest("/auth/sign-in/two-factor", { body }));

/** Turns two-factor on for the user through the API; its codes, and the recovery codes shown. */
async function enable(cookie: string) {
  const setup = await post(setupRoute, "/auth/two-factor/setup", cookie);
  expect(setup.status, setup.text).toBe(200);
  const codes = new TotpCodes(String(setup.body.secret));
  const enabled = await post(enableRoute, "/auth/two-factor/enable", cookie, { code: await codes.next() });
  expect(enabled.status, enabled.text).toBe(200);
  return { codes, recovery: enabled.body.recovery_codes as string[], setup: setup.body };
}

async function sessionsOf(userId: string) {
  return database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
}

describe(`two-factor: turning it on and off (${testEngine()})`, () => {
  it("sets up an authenticator, confirms it with a code, and shows ten recovery codes once", async () => {
    const { user, cookie } = await signedInUser();
    const before = await call<Json>(statusRoute, apiRequest("/auth/two-factor", { cookie }));
    expect(before.body).toEqual({
      enabled: false,
      enabled_at: null,
      recovery_codes_left: 0,
      required_by_company: false,
    });

    const setup = await post(setupRoute, "/auth/two-factor/setup", cookie);
    expect(setup.status, setup.text).toBe(200);
    const secret = String(setup.body.secret);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(String(setup.body.otpauth_url));
    expect(url.protocol).toBe("otpauth:");
    expect(url.searchParams.get("secret")).toBe(secret);
    expect(url.searchParams.get("issuer")).toBe("FieldCRM");
    expect(decodeURIComponent(url.pathname)).toContain(user.email);
    expect(String(setup.body.qr_code)).toMatch(/^data:image\/svg\+xml;base64,/);
    const svg = Buffer.from(String(setup.body.qr_code).split(",")[1]!, "base64").toString("utf8");
    expect(svg).toContain("<svg");

    // Not on until confirmed: sign-in still needs the password only.
    expect((await signIn(user.email)).body.status).toBe("success");

    const codes = new TotpCodes(secret);
    const wrong = await post(enableRoute, "/auth/two-factor/enable", cookie, { code: codes.wrong() });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error_code).toBe("INVALID_CREDENTIALS");
    const malformed = await post(enableRoute, "/auth/two-factor/enable", cookie, { code: "12ab56" });
    expect(malformed.status).toBe(400);

    const enabled = await post(enableRoute, "/auth/two-factor/enable", cookie, { code: await codes.next() });
    expect(enabled.status, enabled.text).toBe(200);
    const recovery = enabled.body.recovery_codes as string[];
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    for (const code of recovery) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(enabled.body.status).toMatchObject({ enabled: true, recovery_codes_left: 10 });

    // Stored: hashes of the recovery codes only; the status never shows the secret.
    const stored = await database.db
      .select({ hash: recoveryCodes.codeHash })
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    const storedText = JSON.stringify(stored);
    for (const code of recovery) expect(storedText).not.toContain(code);
    const status = await call<Json>(statusRoute, apiRequest("/auth/two-factor", { cookie }));
    expect(status.body).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    expect(status.text).not.toContain(secret);

    // Already on: no second setup.
    expect((await post(setupRoute, "/auth/two-factor/setup", cookie)).status).toBe(409);
  });

  it("turns off with a current code or the password, not with wrong ones", async () => {
    const { user, cookie, company } = await signedInUser();
    const { codes, setup } = await enable(cookie);
    const wrongPassword = await post(disableRoute, "/auth/two-factor/disable", cookie, { password: "nope" });
    expect(wrongPassword.status).toBe(401);
    const wrongCode = await post(disableRoute, "/auth/two-factor/disable", cookie, { code: codes.wrong() });
    expect(wrongCode.status).toBe(401);
    const both = await post(disableRoute, "/auth/two-factor/disable", cookie, {
      code: "123456",
      password: "x",
    });
    expect(both.status).toBe(400);
    const off = await post(disableRoute, "/auth/two-factor/disable", cookie, { password: PASSWORD });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, recovery_codes_left: 0 });
    const left = await database.db.select().from(secondFactors).where(eq(secondFactors.userId, user.id));
    expect(left).toEqual([]);
    expect((await signIn(user.email)).body.status).toBe("success");

    // On again, off with a code.
    const again = await enable(cookie);
    const offByCode = await post(disableRoute, "/auth/two-factor/disable", cookie, {
      code: await again.codes.next(),
    });
    expect(offByCode.status, offByCode.text).toBe(200);

    // Each change once, by the user; the refused ones left none.
    const entries = await auditEntries(database.db, company.id);
    expect(entries.map((e) => e.kind)).toEqual([
      "two_factor.enabled",
      "two_factor.disabled",
      "two_factor.enabled",
      "two_factor.disabled",
    ]);
    expect(entries[1]).toMatchObject({
      actorUserId: user.id,
      targetType: "user",
      targetId: user.id,
      changes: [{ field: "two_factor", from: true, to: false }],
    });
    expectNoSecretsIn(entries, [String(setup.secret), String(again.setup.secret), PASSWORD]);
  });

  it("replaces the recovery codes after a code; the old ones stop working", async () => {
    const { user, cookie, company } = await signedInUser();
    const { codes, recovery } = await enable(cookie);
    const wrong = await post(recoveryCodesRoute, "/auth/two-factor/recovery-codes", cookie, {
      code: codes.wrong(),
    });
    expect(wrong.status).toBe(401);
    const replaced = await post(recoveryCodesRoute, "/auth/two-factor/recovery-codes", cookie, {
      code: await codes.next(),
    });
    expect(replaced.status, replaced.text).toBe(200);
    const fresh = replaced.body.recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    const challenge = String((await signIn(user.email)).body.challenge);
    expect((await secondStep({ challenge, recovery_code: recovery[0] })).status).toBe(401);
    const used = await call<Json>(
      secondStepRoute,
      apiRequest("/auth/sign-in/two-factor", {
        body: { challenge, recovery_code: fresh[0] },
        headers: { "x-forwarded-for": "198.51.100.7" },
      }),
    );
    expect(used.status).toBe(200);

    const entries = await auditEntries(database.db, company.id);
    expect(entries.map((e) => e.kind)).toEqual([
      "two_factor.enabled",
      "two_factor.recovery_codes_replaced",
      "two_factor.recovery_code_used",
    ]);
    // Signing in, before any session: the user is the actor, from the sign-in's address.
    expect(entries[2]).toMatchObject({ actorUserId: user.id, ip: "198.51.100.7", targetId: user.id });
    expectNoSecretsIn(entries, [...recovery, ...fresh]);
  });
});

describe(`two-factor: signing in (${testEngine()})`, () => {
  it("asks for a code after the password and starts the session only then", async () => {
    const { user, cookie } = await signedInUser();
    const { codes } = await enable(cookie);
    const sessionsBefore = (await sessionsOf(user.id)).length;

    const first = await signIn(user.email);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: "two_factor_required" });
    expect(first.headers.get("set-cookie")).toBeNull();
    expect((await sessionsOf(user.id)).length).toBe(sessionsBefore);
    const challenge = String(first.body.challenge);
    expect(challenge.length).toBeGreaterThanOrEqual(43);
    // Only its hash is stored.
    const stored = await database.db
      .select()
      .from(signInChallenges)
      .where(eq(signInChallenges.userId, user.id));
    expect(JSON.stringify(stored)).not.toContain(challenge);

    const wrong = await secondStep({ challenge, code: codes.wrong() });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error_code).toBe("INVALID_CREDENTIALS");
    expect(wrong.headers.get("set-cookie")).toBeNull();

    const code = await codes.next();
    const ok = await secondStep({ challenge, code });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ status: "success", user: { id: user.id } });
    expect(ok.body.recovery_codes).toBeUndefined();
    expect(ok.headers.get("set-cookie")).toMatch(/^fcrm_session=/);
    expect((await sessionsOf(user.id)).length).toBe(sessionsBefore + 1);

    // The challenge is spent, and the same code is not accepted again with a new one.
    expect((await secondStep({ challenge, code: await codes.next() })).status).toBe(401);
    const next = String((await signIn(user.email)).body.challenge);
    const replay = await secondStep({ challenge: next, code });
    expect(replay.status).toBe(401);
    expect((await secondStep({ challenge: next, code: await codes.next() })).status).toBe(200);
  });

  it("takes each recovery code once instead of a code", async () => {
    const { user, cookie } = await signedInUser();
    const { recovery } = await enable(cookie);
    const challenge = String((await signIn(user.email)).body.challenge);
    const used = await secondStep({ challenge, recovery_code: ` ${recovery[3]!.toUpperCase()} ` });
    expect(used.status, used.text).toBe(200);
    const again = String((await signIn(user.email)).body.challenge);
    expect((await secondStep({ challenge: again, recovery_code: recovery[3] })).status).toBe(401);
    expect((await secondStep({ challenge: again, recovery_code: recovery[4] })).status).toBe(200);
    const status = await call<Json>(statusRoute, apiRequest("/auth/two-factor", { cookie }));
    expect(status.body.recovery_codes_left).toBe(8);
  });

  it("counts wrong codes against the sign-in throttle; a right password does not reset it", async () => {
    const { user, cookie } = await signedInUser();
    const { codes } = await enable(cookie);
    // The password's attempt stays counted until the code is right.
    let challenge = String((await signIn(user.email)).body.challenge);
    for (let i = 0; i < 2; i++)
      expect((await secondStep({ challenge, code: codes.wrong() })).status).toBe(401);
    challenge = String((await signIn(user.email)).body.challenge);
    const [row] = await database.db
      .select({ failures: signInAttempts.failures })
      .from(signInAttempts)
      .where(eq(signInAttempts.subject, accountSubject(user)));
    expect(row?.failures).toBe(4);
    const fifth = await secondStep({ challenge, code: codes.wrong() });
    expect(fifth.status).toBe(429);
    expect(Number(fifth.headers.get("retry-after"))).toBeGreaterThan(0);
    // Locked: even the right code is refused, and so is the password.
    expect((await secondStep({ challenge, code: await codes.next() })).status).toBe(429);
    expect((await signIn(user.email)).status).toBe(429);
    expect(MAX_FAILURES).toBe(5);
  });

  it("refuses an expired challenge, and a recovery code to finish a setup", async () => {
    const { user, cookie } = await signedInUser();
    const { codes } = await enable(cookie);
    const challenge = String((await signIn(user.email)).body.challenge);
    await database.db
      .update(signInChallenges)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(signInChallenges.userId, user.id));
    const expired = await secondStep({ challenge, code: await codes.next() });
    expect(expired.status).toBe(401);
    expect(String(expired.body.message)).toMatch(/expired/);
    const neither = await secondStep({ challenge });
    expect(neither.status).toBe(400);
  });
});

describe(`two-factor: the company's requirement (${testEngine()})`, () => {
  it("only an admin sets it; a user without two-factor sets it up at sign-in; keys are unaffected", async () => {
    const { company, cookie: adminCookie } = await signedInUser();
    const rep = await createUser(database.db, company.id, { password: PASSWORD, role: "sales_rep" });
    const repCookie = await createSessionCookie(database.db, rep);
    const { key } = await createApiKey(database.db, company.id);

    const refused = await call<Json>(
      putRule,
      apiRequest("/settings/two-factor", {
        method: "PUT",
        cookie: repCookie,
        body: { require_two_factor: true },
      }),
    );
    expect(refused.status).toBe(403);
    expect(await auditEntries(database.db, company.id)).toEqual([]);
    const set = await call<Json>(
      putRule,
      apiRequest("/settings/two-factor", {
        method: "PUT",
        cookie: adminCookie,
        body: { require_two_factor: true },
      }),
    );
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ require_two_factor: true });
    expect(
      (await call<Json>(getRule, apiRequest("/settings/two-factor", { cookie: adminCookie }))).body,
    ).toEqual({
      require_two_factor: true,
    });

    // Open sessions and keys go on working.
    expect((await call(authTest, apiRequest("/auth/test", { key }))).status).toBe(200);
    expect(
      (await call<Json>(statusRoute, apiRequest("/auth/two-factor", { cookie: repCookie }))).body,
    ).toMatchObject({
      enabled: false,
      required_by_company: true,
    });

    const first = await signIn(rep.email);
    expect(first.status).toBe(200);
    expect(first.body.status).toBe("two_factor_setup_required");
    expect(first.headers.get("set-cookie")).toBeNull();
    const setup = first.body.setup as Json;
    expect(String(setup.qr_code)).toMatch(/^data:image\/svg\+xml;base64,/);
    const challenge = String(first.body.challenge);
    const codes = new TotpCodes(String(setup.secret));

    const byRecovery = await secondStep({ challenge, recovery_code: "abcde-fghij" });
    expect(byRecovery.status).toBe(400);
    const done = await secondStep({ challenge, code: await codes.next() });
    expect(done.status, done.text).toBe(200);
    expect(done.headers.get("set-cookie")).toMatch(/^fcrm_session=/);
    expect(done.body.recovery_codes as string[]).toHaveLength(10);
    const [factor] = await database.db
      .select()
      .from(secondFactors)
      .where(and(eq(secondFactors.companyId, company.id), eq(secondFactors.userId, rep.id)));
    expect(factor?.confirmedAt).not.toBeNull();

    // From now on, the usual code step.
    expect((await signIn(rep.email)).body.status).toBe("two_factor_required");

    // Saving the same rule again is no change.
    const same = await call<Json>(
      putRule,
      apiRequest("/settings/two-factor", {
        method: "PUT",
        cookie: adminCookie,
        body: { require_two_factor: true },
      }),
    );
    expect(same.status).toBe(200);
    const entries = await auditEntries(database.db, company.id);
    expect(entries.map((e) => e.kind)).toEqual(["company.two_factor_required", "two_factor.enabled"]);
    expect(entries[0]).toMatchObject({
      targetType: "company",
      targetId: company.id,
      changes: [{ field: "require_two_factor", from: false, to: true }],
    });
    expect(entries[0]!.actorUserId).not.toBe(rep.id);
    expect(entries[1]).toMatchObject({ actorUserId: rep.id, targetId: rep.id });
    expectNoSecretsIn(entries, [String(setup.secret)]);
  });
});

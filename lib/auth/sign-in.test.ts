import { randomBytes, scrypt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { POST as signInRoute } from "@/app/api/auth/sign-in/route";
import { POST as signOutRoute } from "@/app/api/auth/sign-out/route";
import { GET as sessionRoute } from "@/app/api/auth/session/route";
import { GET as authTest } from "@/app/api/auth/test/route";
import { GET as otherAccountsRoute } from "@/app/api/auth/other-accounts/route";
import { sessions, signInAttempts, users } from "@/lib/db/schema";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { apiRequest, call, createApiKey, createCompany, createUser } from "@/lib/testing/factories";
import { passwordNeedsRehash, verifyPassword } from "./secrets";
import { createSession } from "./sessions";
import { accountSubject, MAX_FAILURES } from "./throttle";

const database = setupTestDatabase();

const PASSWORD = "correct horse battery";

async function userWithPassword(
  options: { role?: "admin" | "sales_rep" | "technician"; active?: boolean } = {},
) {
  const company = await createCompany(database.db);
  const user = await createUser(database.db, company.id, { password: PASSWORD, ...options });
  return { company, user };
}

const signIn = (email: string, password: string, headers?: Record<string, string>) =>
  call(signInRoute, apiRequest("/auth/sign-in", { body: { email, password }, headers }));

/** The second step: the same credentials and the chosen company. */
const signInTo = (companyId: string, email: string, password: string) =>
  call(signInRoute, apiRequest("/auth/sign-in", { body: { email, password, company_id: companyId } }));

async function sessionCountOf(user: { id: string }) {
  const rows = await database.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.userId, user.id));
  return rows.length;
}

/** The throttle's row of an account (undefined: no failures counted). */
async function attemptsOf(user: { companyId: string; id: string }) {
  const [row] = await database.db
    .select()
    .from(signInAttempts)
    .where(eq(signInAttempts.subject, accountSubject(user)));
  return row;
}

async function passwordHashOf(user: { id: string }) {
  const [row] = await database.db
    .select({ hash: users.passwordHash })
    .from(users)
    .where(eq(users.id, user.id));
  return row?.hash ?? null;
}

/** A hash as written before argon2id: `scrypt$N$r$p$salt$hash`, N=2^14, r=8, p=1. */
async function legacyScryptHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, 32, { N: 16384, r: 8, p: 1 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
  return ["scrypt", 16384, 8, 1, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

function cookieOf(setCookie: string | null): string {
  const value = setCookie?.split(";")[0];
  if (!value) throw new Error("no cookie set");
  return value;
}

describe(`dashboard sign-in (${testEngine()})`, () => {
  it("signs in with the right password, sets an HttpOnly Lax cookie and answers the session", async () => {
    const { company, user } = await userWithPassword({ role: "sales_rep" });
    const res = await signIn(` ${user.email.toUpperCase()} `, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "success",
      user: { id: user.id, email: user.email, role: "sales_rep" },
      company: { id: company.id, name: company.name },
      can_manage_settings: false,
    });
    expect((res.body as { scopes: string[] }).scopes).toContain("leads:write");
    expect(JSON.stringify(res.body)).not.toContain("argon2");
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^fcrm_session=[\w%-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    // Not production, plain http: no Secure flag (a browser would drop it over http).
    expect(setCookie).not.toContain("Secure");

    const cookie = cookieOf(setCookie);
    const session = await call(sessionRoute, apiRequest("/auth/session", { cookie }));
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ user: { id: user.id }, company: { name: company.name } });
    const test = await call(authTest, apiRequest("/auth/test", { cookie }));
    expect(test.body).toMatchObject({ auth_method: "session", user_id: user.id, company_id: company.id });
  });

  it("answers a wrong password and an unknown email the same way", async () => {
    const { user } = await userWithPassword();
    const wrong = await signIn(user.email, "not the password");
    const unknown = await signIn(`nobody-${Date.now()}@example.test`, "not the password");
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        status: "error",
        message: "Email or password is incorrect",
        error_code: "INVALID_CREDENTIALS",
      });
      expect(res.headers.get("set-cookie")).toBeNull();
    }
  });

  it("refuses a deactivated user even with the right password", async () => {
    const { user } = await userWithPassword({ active: false });
    const res = await signIn(user.email, PASSWORD);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error_code: "FORBIDDEN" });
    expect((res.body as { message: string }).message).toMatch(/deactivated/);
  });

  it("validates the body and requires the version header", async () => {
    const bad = await call(signInRoute, apiRequest("/auth/sign-in", { body: { email: "", password: 3 } }));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error_code: "VALIDATION_ERROR" });
    const fields = (bad.body as { details: { field: string }[] }).details.map((d) => d.field).sort();
    expect(fields).toEqual(["email", "password"]);
    const noVersion = await call(
      signInRoute,
      apiRequest("/auth/sign-in", { body: { email: "a@b.c", password: "x" }, version: null }),
    );
    expect(noVersion.status).toBe(400);
    expect(noVersion.body).toMatchObject({ error_code: "UNSUPPORTED_API_VERSION" });
  });

  it(`locks an email after ${MAX_FAILURES} failures, even for the right password, then lets it in`, async () => {
    const { user } = await userWithPassword();
    for (let i = 1; i < MAX_FAILURES; i++) {
      expect((await signIn(user.email, `wrong ${i}`)).status).toBe(401);
    }
    const fifth = await signIn(user.email, "wrong again");
    expect(fifth.status).toBe(429);
    expect(fifth.body).toMatchObject({ status: "error", error_code: "TOO_MANY_ATTEMPTS" });
    expect((fifth.body as { message: string }).message).toMatch(
      /Too many failed sign-in attempts.*Try again in \d+ seconds/,
    );
    expect(Number(fifth.headers.get("retry-after"))).toBeGreaterThanOrEqual(29);

    const locked = await signIn(user.email, PASSWORD);
    expect(locked.status).toBe(429);
    // Another email is not affected.
    const other = await userWithPassword();
    expect((await signIn(other.user.email, PASSWORD)).status).toBe(200);

    // The lock ends: move it into the past, as time would.
    await database.db
      .update(signInAttempts)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(signInAttempts.subject, accountSubject(user)));
    expect((await signIn(user.email, PASSWORD)).status).toBe(200);
    expect(await attemptsOf(user)).toBeUndefined();
  });

  it("doubles the lock for each further failure", async () => {
    const { user } = await userWithPassword();
    const locks: number[] = [];
    for (let i = 0; i < MAX_FAILURES + 2; i++) {
      await database.db
        .update(signInAttempts)
        .set({ lockedUntil: null })
        .where(eq(signInAttempts.subject, accountSubject(user)));
      const res = await signIn(user.email, "wrong");
      if (res.status === 429) locks.push(Number(res.headers.get("retry-after")));
    }
    expect(locks).toHaveLength(3);
    expect(locks[0]).toBeGreaterThanOrEqual(29);
    expect(locks[0]).toBeLessThanOrEqual(30);
    expect(locks[1]).toBeGreaterThanOrEqual(59);
    expect(locks[2]).toBeGreaterThanOrEqual(119);
  });

  it("counts per account: a sign-in to another company's account with the same email resets nothing", async () => {
    // An admin of company A adds a user with the email of company B's user, with a known password.
    const { user: victim } = await userWithPassword();
    const attacker = await createCompany(database.db);
    const copy = await createUser(database.db, attacker.id, { email: victim.email, password: "known to A" });
    for (let i = 1; i < MAX_FAILURES; i++) {
      expect((await signIn(victim.email, `guess ${i}`)).status).toBe(401);
    }
    // Signing in to the copy clears the copy's count only.
    expect((await signIn(victim.email, "known to A")).status).toBe(200);
    expect(await attemptsOf(copy)).toBeUndefined();
    // So B's account locks at the next wrong guess, and then refuses even its right password.
    expect((await signIn(victim.email, "guess 5")).status).toBe(429);
    expect((await signIn(victim.email, PASSWORD)).status).toBe(429);
    expect((await attemptsOf(victim))?.failures).toBeGreaterThanOrEqual(MAX_FAILURES);
    // B's lock does not lock A's user out; with B's account unchecked, A's user is asked to choose.
    expect((await signIn(victim.email, "known to A")).body).toMatchObject({
      status: "choose_company",
      companies: [{ id: attacker.id }],
      others_locked: true,
    });
  });

  it(`evaluates at most ${MAX_FAILURES} wrong passwords of parallel guesses, then refuses the right one`, async () => {
    const { user } = await userWithPassword();
    const guesses = await Promise.all(
      Array.from({ length: 24 }, (_, i) => signIn(user.email, `parallel guess ${i}`)),
    );
    const statuses = guesses.map((g) => g.status);
    // Four wrong passwords answered 401; the fifth reached the lock (429); the rest were not evaluated.
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_FAILURES - 1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(24 - (MAX_FAILURES - 1));
    expect((await attemptsOf(user))?.failures).toBe(MAX_FAILURES);
    expect((await signIn(user.email, PASSWORD)).status).toBe(429);
  });

  it("refuses the right password sent last among 25 parallel sign-ins (24 wrong) once the lock is reached", async () => {
    const { user } = await userWithPassword();
    // Sent in this order: the right one reaches the throttle after the wrong ones have locked it.
    const attempts = [
      ...Array.from({ length: 24 }, (_, i) => signIn(user.email, `parallel guess ${i}`)),
      signIn(user.email, PASSWORD),
    ];
    const statuses = (await Promise.all(attempts)).map((a) => a.status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX_FAILURES - 1);
    expect((await attemptsOf(user))?.failures).toBe(MAX_FAILURES);
  });

  it("stores new passwords as argon2id with OWASP's parameters, named in the hash", async () => {
    const { user } = await userWithPassword();
    const stored = await passwordHashOf(user);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
    expect(await verifyPassword("not it", stored)).toBe(false);
    expect(passwordNeedsRehash(stored!)).toBe(false);
  });

  it("verifies an old scrypt hash and replaces it with argon2id at the next sign-in", async () => {
    const { user } = await userWithPassword();
    const old = await legacyScryptHash(PASSWORD);
    await database.db.update(users).set({ passwordHash: old }).where(eq(users.id, user.id));
    expect(passwordNeedsRehash(old)).toBe(true);

    // A wrong password leaves the old hash as it is.
    expect((await signIn(user.email, "not the password")).status).toBe(401);
    expect(await passwordHashOf(user)).toBe(old);

    expect((await signIn(user.email, PASSWORD)).status).toBe(200);
    const rehashed = await passwordHashOf(user);
    expect(rehashed).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await signIn(user.email, PASSWORD)).status).toBe(200);
    expect(await passwordHashOf(user)).toBe(rehashed);
  });

  it("counts unknown emails too (no way to tell which emails exist)", async () => {
    const email = `ghost-${Date.now()}@example.test`;
    let last = 0;
    for (let i = 0; i < MAX_FAILURES; i++) last = (await signIn(email, "guess")).status;
    expect(last).toBe(429);
  });

  it("signs out: the session ends and the cookie is cleared", async () => {
    const { user } = await userWithPassword();
    const cookie = cookieOf((await signIn(user.email, PASSWORD)).headers.get("set-cookie"));
    const out = await call(signOutRoute, apiRequest("/auth/sign-out", { method: "POST", cookie }));
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(
      /^fcrm_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/,
    );
    const after = await call(sessionRoute, apiRequest("/auth/session", { cookie }));
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error_code: "AUTHENTICATION_REQUIRED" });
  });

  it("refuses a cross-site sign-out and keeps the session", async () => {
    const { user } = await userWithPassword();
    const cookie = cookieOf((await signIn(user.email, PASSWORD)).headers.get("set-cookie"));
    const out = await call(
      signOutRoute,
      apiRequest("/auth/sign-out", { method: "POST", cookie, headers: { "sec-fetch-site": "cross-site" } }),
    );
    expect(out.status).toBe(403);
    expect((await call(sessionRoute, apiRequest("/auth/session", { cookie }))).status).toBe(200);
  });

  it("GET /auth/session is for sessions only", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id);
    const res = await call(sessionRoute, apiRequest("/auth/session", { key }));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error_code: "FORBIDDEN" });
  });
});

describe(`one email in several companies (${testEngine()})`, () => {
  /** A rep of one company, and another company (made first, so its id sorts first) adding the same email. */
  async function sharedEmail(otherPassword = PASSWORD) {
    const other = await createCompany(database.db, `Other Co ${Date.now()}`);
    const home = await createCompany(database.db, `Home Co ${Date.now()}`);
    const rep = await createUser(database.db, home.id, { role: "sales_rep", password: PASSWORD });
    const copy = await createUser(database.db, other.id, {
      email: rep.email.toUpperCase(),
      role: "admin",
      password: otherPassword,
    });
    return { home, other, rep, copy };
  }

  it("answers the companies to choose from, without a session, when the password is right for two", async () => {
    const { home, other, rep, copy } = await sharedEmail();
    const res = await signIn(rep.email, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.body).toEqual({
      status: "choose_company",
      message: expect.stringMatching(/choose the company/),
      companies: [
        { id: home.id, name: home.name, role: "sales_rep" },
        { id: other.id, name: other.name, role: "admin" },
      ],
      others_locked: false,
    });
    expect(await sessionCountOf(rep)).toBe(0);
    expect(await sessionCountOf(copy)).toBe(0);
  });

  it("starts the session in the chosen company only, with the same credentials and company_id", async () => {
    const { home, other, rep, copy } = await sharedEmail();
    const mine = await signInTo(home.id, rep.email, PASSWORD);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ status: "success", user: { id: rep.id }, company: { id: home.id } });
    const cookie = cookieOf(mine.headers.get("set-cookie"));
    const test = await call(authTest, apiRequest("/auth/test", { cookie }));
    expect(test.body).toMatchObject({ company_id: home.id, user_id: rep.id });

    const theirs = await signInTo(other.id, rep.email, PASSWORD);
    expect(theirs.body).toMatchObject({
      status: "success",
      user: { id: copy.id },
      company: { id: other.id },
    });
    expect(await sessionCountOf(rep)).toBe(1);
    expect(await sessionCountOf(copy)).toBe(1);
  });

  it("signs straight in when the password is right for one company only", async () => {
    const { home, rep } = await sharedEmail("the other company's password");
    const res = await signIn(rep.email, PASSWORD);
    expect(res.body).toMatchObject({ status: "success", company: { id: home.id } });
    expect(res.headers.get("set-cookie")).toMatch(/^fcrm_session=/);
  });

  it("leaves a deactivated match out of the choice", async () => {
    const { home, rep, copy } = await sharedEmail();
    await database.db.update(users).set({ active: false }).where(eq(users.id, copy.id));
    const res = await signIn(rep.email, PASSWORD);
    expect(res.body).toMatchObject({ status: "success", company: { id: home.id } });
  });

  it("refuses a company_id without that account, or with a wrong password, like a wrong password", async () => {
    const { other, rep } = await sharedEmail();
    const stranger = await createCompany(database.db);
    for (const res of [
      await signInTo(stranger.id, rep.email, PASSWORD),
      await signInTo(other.id, rep.email, "not the password"),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        status: "error",
        message: "Email or password is incorrect",
        error_code: "INVALID_CREDENTIALS",
      });
      expect(res.headers.get("set-cookie")).toBeNull();
    }
  });

  it("checks every account: eleven other companies with the email do not lock the real one out", async () => {
    const email = `crowded-${Date.now()}@example.test`;
    for (let i = 0; i < 11; i++) {
      const company = await createCompany(database.db);
      await createUser(database.db, company.id, { email, password: `someone else ${i}` });
    }
    // The real account's company is the newest, so it sorts after the others by id.
    const home = await createCompany(database.db);
    const rep = await createUser(database.db, home.id, { email, role: "sales_rep", password: PASSWORD });
    const res = await signIn(email, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "success", user: { id: rep.id }, company: { id: home.id } });
  });

  it("keeps the throttle across the two steps: failures of the first lock the chosen account", async () => {
    const { home, other, rep, copy } = await sharedEmail();
    for (let i = 1; i < MAX_FAILURES; i++) {
      expect((await signIn(rep.email, `guess ${i}`)).status).toBe(401);
    }
    // Both accounts counted each guess; the second step's wrong password is the fifth for the rep.
    expect((await attemptsOf(copy))?.failures).toBe(MAX_FAILURES - 1);
    const fifth = await signInTo(home.id, rep.email, "guess 5");
    expect(fifth.status).toBe(429);
    expect(fifth.body).toMatchObject({ error_code: "TOO_MANY_ATTEMPTS" });
    expect((await signInTo(home.id, rep.email, PASSWORD)).status).toBe(429);

    // The rep's account is locked, the other company's is not: the right password matches only that one,
    // yet no session starts there unasked, since the locked account was not checked.
    const res = await signIn(rep.email, PASSWORD);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.body).toMatchObject({
      status: "choose_company",
      companies: [{ id: other.id }],
      others_locked: true,
    });
    expect((res.body as { companies: unknown[] }).companies).toHaveLength(1);
    expect(await attemptsOf(copy)).toBeUndefined();
    expect(await sessionCountOf(copy)).toBe(0);
  });

  it("another company's locked account does not lock the rep out: the rep still chooses their own", async () => {
    const { home, other, rep } = await sharedEmail("the other company's password");
    for (let i = 1; i <= MAX_FAILURES; i++) await signInTo(other.id, rep.email, `guess ${i}`);
    const res = await signIn(rep.email, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "choose_company",
      companies: [{ id: home.id, name: home.name }],
      others_locked: true,
    });
    const mine = await signInTo(home.id, rep.email, PASSWORD);
    expect(mine.body).toMatchObject({ status: "success", company: { id: home.id } });
  });

  it("a right first step clears the matched accounts' failures", async () => {
    const { rep, copy } = await sharedEmail();
    expect((await signIn(rep.email, "wrong")).status).toBe(401);
    expect((await signIn(rep.email, PASSWORD)).body).toMatchObject({ status: "choose_company" });
    expect(await attemptsOf(rep)).toBeUndefined();
    expect(await attemptsOf(copy)).toBeUndefined();
  });
});

describe(`other companies with your email (${testEngine()})`, () => {
  const list = async (user: { companyId: string; id: string }) => {
    const cookie = `fcrm_session=${(await createSession(database.db, user)).token}`;
    return call<{ data: unknown[] }>(otherAccountsRoute, apiRequest("/auth/other-accounts", { cookie }));
  };

  it("shows the owner each company that added their email later: its name and when, nothing more", async () => {
    const home = await createCompany(database.db);
    const rep = await createUser(database.db, home.id, { role: "sales_rep", password: PASSWORD });
    expect((await list(rep)).body).toEqual({ data: [] });

    const other = await createCompany(database.db, `Adder ${Date.now()}`);
    const copy = await createUser(database.db, other.id, { email: ` ${rep.email.toUpperCase()}` });
    const unrelated = await createCompany(database.db);
    await createUser(database.db, unrelated.id);
    const [added] = await database.db.select().from(users).where(eq(users.id, copy.id));

    const res = await list(rep);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [{ company_name: other.name, added_at: added!.createdAt.toISOString() }],
    });
    // The newer account cannot list the companies the email already had.
    expect((await list(copy)).body).toEqual({ data: [] });
  });

  it("is for sessions only", async () => {
    const company = await createCompany(database.db);
    const { key } = await createApiKey(database.db, company.id);
    const res = await call(otherAccountsRoute, apiRequest("/auth/other-accounts", { key }));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error_code: "FORBIDDEN" });
  });
});

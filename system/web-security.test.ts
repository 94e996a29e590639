import http from "node:http";
import net from "node:net";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, createCompany, createUser } from "@/lib/testing/factories";
import {
  engine,
  freshDatabase,
  startServer,
  stopServer,
  VERSION,
  type FreshDatabase,
  type ServerProcess,
} from "./harness";

// Web security on the production server (issue #7.6): headers, cross-site writes refused, sign-in
// throttled, and no secret in any response or log line.

let db: FreshDatabase;
let server: ServerProcess | undefined;
const admin = { email: `admin.${Date.now()}@example.test`, password: "s3cret admin passphrase" };
/** A second admin for the secrets run (the first one is locked out by the throttling test). */
const operator = { email: `operator.${Date.now()}@example.test`, password: "another admin passphrase" };
let seededKey: string;
/** Every response body and header block seen, except the one that hands out a new key. */
const responses: string[] = [];
const plaintextSecrets: string[] = [admin.password, operator.password];
/** Session tokens: sent once in the sign-in answer's Set-Cookie, and never logged. */
const sessionTokens: string[] = [];
const tokenOf = (cookie: string) => decodeURIComponent(cookie.split("=")[1] ?? "");

beforeAll(async () => {
  db = await freshDatabase();
  const database = await db.open();
  try {
    const company = await createCompany(database.db);
    await createUser(database.db, company.id, { role: "admin", ...admin });
    await createUser(database.db, company.id, { role: "admin", ...operator });
    ({ key: seededKey } = await createApiKey(database.db, company.id));
    plaintextSecrets.push(seededKey);
  } finally {
    await database.close();
  }
  // Debug logging: the most the server ever writes.
  server = await startServer({ databaseUrl: db.url, env: { LOG_LEVEL: "debug" } });
});
afterAll(async () => {
  await stopServer(server);
  await db?.drop();
});

async function request(path: string, init: RequestInit & { record?: boolean } = {}) {
  const res = await fetch(`${server!.url}${path}`, { redirect: "manual", ...init });
  const text = await res.text();
  if (init.record !== false) {
    responses.push(`${[...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join("\n")}\n\n${text}`);
  }
  return { res, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

async function signIn(email: string, password: string) {
  const { res, json } = await request("/api/auth/sign-in", {
    method: "POST",
    headers: { ...VERSION, "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const setCookie = res.headers.get("set-cookie") ?? "";
  return { status: res.status, body: json(), setCookie, cookie: setCookie.split(";")[0] ?? "" };
}

const tileHost = () => {
  const url = process.env.NEXT_PUBLIC_TILE_URL || "https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png";
  return new URL(url.replace("{s}.", "x.")).host.replace(/^x\./, "*.");
};

function expectSecurityHeaders(header: (name: string) => string | null | undefined, label: string) {
  const csp = header("content-security-policy") ?? "";
  expect(csp, label).toContain("frame-ancestors 'none'");
  expect(csp, label).toContain("default-src 'self'");
  expect(csp, label).toContain("object-src 'none'");
  expect(csp, label).toMatch(new RegExp(`img-src [^;]*${tileHost().replace(/[.*]/g, "\\$&")}`));
  expect(header("x-content-type-options"), label).toBe("nosniff");
  expect(header("referrer-policy"), label).toBe("strict-origin-when-cross-origin");
  expect(header("x-frame-options"), label).toBe("DENY");
  expect(header("x-powered-by") ?? null, label).toBeNull();
}

/**
 * A request as sent, byte for byte in its path and with any method (fetch refuses TRACE and
 * CONNECT), read whatever it answers.
 */
function rawRequest(method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>(
    (resolve, reject) => {
      const req = http.request(`${server!.url}${path}`, { method, headers, agent: false }, (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    },
  );
}

/** CONNECT on a socket of its own: Node hands it to the server as a bare connection. */
function connectRequest(target: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(server!.port, "127.0.0.1", () =>
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`),
    );
    let text = "";
    socket.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

describe(`web security of the production server (${engine})`, () => {
  it("sends the security headers on pages and on API answers", async () => {
    for (const path of [
      "/sign-in",
      "/api/auth/test",
      "/api/openapi.json",
      "/api/no-such-endpoint",
      "/docs",
    ]) {
      const { res } = await request(path, { headers: VERSION });
      expectSecurityHeaders((name) => res.headers.get(name), path);
    }
  });

  it("answers every request under /api with a JSON error, a request id and the security headers", async () => {
    const expectApiError = (
      answer: Awaited<ReturnType<typeof rawRequest>>,
      label: string,
      status: number,
      code: string,
    ) => {
      expect(answer.status, label).toBe(status);
      expect(answer.headers["content-type"], label).toMatch(/^application\/json/);
      expect(answer.headers["x-request-id"], label).toMatch(/^[0-9a-f-]{36}$/);
      expectSecurityHeaders((name) => answer.headers[name] as string | undefined, label);
      expect(JSON.parse(answer.text), label).toEqual({
        status: "error",
        message: expect.any(String),
        error_code: code,
      });
    };
    // Percent-encoding that is not UTF-8, in a dynamic segment and under no route at all.
    for (const path of [
      "/api/leads/%ff",
      "/api/leads/%E0%A4%A",
      "/api/leads/%c0%ae",
      "/api/customers/%ff",
      "/api/settings/users/%ff/activate",
      "/api/no-such/%ff",
    ]) {
      expectApiError(await rawRequest("GET", path, VERSION), `GET ${path}`, 404, "NOT_FOUND");
    }
    const malformedPost = await rawRequest("POST", "/api/leads/%ff", { ...VERSION, "x-api-key": seededKey });
    expectApiError(malformedPost, "POST /api/leads/%ff", 404, "NOT_FOUND");
    // Methods that Next.js routes to no handler.
    for (const method of ["TRACE", "PROPFIND", "MKCOL", "LOCK"]) {
      const answer = await rawRequest(method, "/api/leads", VERSION);
      expectApiError(answer, `${method} /api/leads`, 405, "METHOD_NOT_ALLOWED");
      expect(answer.headers.allow, method).toContain("GET");
    }
    expect(await connectRequest("/api/leads")).toMatch(
      /^HTTP\/1\.1 405 [^]*x-request-id: [0-9a-f-]{36}[^]*"error_code":"METHOD_NOT_ALLOWED"/i,
    );
    // HEAD is GET without the body; OPTIONS names the methods; a valid escape reaches the route.
    const head = await rawRequest("HEAD", "/api/leads", { ...VERSION, "x-api-key": seededKey });
    expect(head.status).toBe(200);
    expect(head.headers["x-request-id"]).toBeTruthy();
    expect(head.text).toBe("");
    const options = await rawRequest("OPTIONS", "/api/leads");
    expect(options.status).toBe(204);
    expect(options.headers.allow).toMatch(/GET.*POST|POST.*GET/);
    expectSecurityHeaders((name) => options.headers[name] as string | undefined, "OPTIONS /api/leads");
    const escaped = await rawRequest("GET", "/api/leads/%25ff", { ...VERSION, "x-api-key": seededKey });
    expect([400, 404]).toContain(escaped.status);
    expect(JSON.parse(escaped.text).status).toBe("error");
    // Pages: a path that cannot be decoded is not found, TRACE is not allowed; neither a 500.
    for (const [method, path, status] of [
      ["GET", "/leads/%ff", 404],
      ["GET", "/%c0%ae", 404],
      ["TRACE", "/leads", 405],
    ] as const) {
      const answer = await rawRequest(method, path, { cookie: "fcrm_session=x" });
      expect(answer.status, `${method} ${path}`).toBe(status);
      expectSecurityHeaders((name) => answer.headers[name] as string | undefined, `${method} ${path}`);
    }
    // Each API answer above was logged with its request id, like any other.
    expect(server!.output()).toMatch(/"method":"TRACE","path":"\/api\/leads","status":405/);
  });

  it("answers an API path's slash variants as the path, and its OPTIONS as its 405s (issue #54)", async () => {
    const auth = { ...VERSION, "x-api-key": seededKey };
    // Next.js alone answers these with a 308 and a text body, without a request id or the headers.
    for (const path of ["/api/leads/bulk/", "/api//leads/bulk", "/api/leads/bulk//", "/api/", "/api"]) {
      const answer = await rawRequest("POST", path, auth);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.headers["content-type"], path).toMatch(/^application\/json/);
      expect(answer.headers["x-request-id"], path).toMatch(/^[0-9a-f-]{36}$/);
      expectSecurityHeaders((name) => answer.headers[name] as string | undefined, path);
      expect(JSON.parse(answer.text).status, path).toBe("error");
    }
    const listed = await rawRequest("GET", "/api/leads/?limit=1", auth);
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.text).status).toBe("success");
    for (const path of ["/api/leads", "/api/leads/bulk", "/api/reports/service-plans/export"]) {
      const options = await rawRequest("OPTIONS", path);
      const refused = await rawRequest("PUT", path, auth);
      expect(options.status, path).toBe(204);
      expect(options.headers["x-request-id"], path).toMatch(/^[0-9a-f-]{36}$/);
      expect(refused.status, path).toBe(405);
      expect(options.headers.allow, path).toBe(refused.headers.allow);
      expect(options.headers.allow, path).toMatch(/OPTIONS$/);
    }
  });

  it("sets the session cookie HttpOnly and SameSite=Lax, and refuses cookie-authenticated writes from other sites", async () => {
    const session = await signIn(admin.email, admin.password);
    expect(session.status).toBe(200);
    sessionTokens.push(tokenOf(session.cookie));
    expect(session.setCookie).toMatch(/HttpOnly/i);
    expect(session.setCookie).toMatch(/SameSite=Lax/i);
    expect(session.setCookie).toMatch(/Path=\//);

    // A classic cross-site form post: another origin, a form encoding, the victim's cookie.
    const form = await request("/api/leads", {
      method: "POST",
      headers: {
        cookie: session.cookie,
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
        ...VERSION,
      },
      body: "name=Forged",
    });
    expect(form.res.status).toBe(403);
    expect(form.json()).toMatchObject({ status: "error", error_code: "FORBIDDEN" });
    // The browser marks it cross-site even when it sends no Origin.
    const fetched = await request("/api/leads", {
      method: "POST",
      headers: {
        cookie: session.cookie,
        "sec-fetch-site": "cross-site",
        "content-type": "application/json",
        ...VERSION,
      },
      body: JSON.stringify({ name: "Forged" }),
    });
    expect(fetched.res.status).toBe(403);
    expect(fetched.json().error_code).toBe("FORBIDDEN");
    // The same write from the app's own origin goes through.
    const own = await request("/api/leads", {
      method: "POST",
      headers: {
        cookie: session.cookie,
        origin: server!.url,
        "sec-fetch-site": "same-origin",
        "content-type": "application/json",
        ...VERSION,
      },
      body: JSON.stringify({ name: "Genuine" }),
    });
    expect(own.res.status).toBe(201);
    // Nothing forged was written.
    const list = await request("/api/leads?search=Forged", {
      headers: { cookie: session.cookie, ...VERSION },
    });
    expect(list.json().data).toEqual([]);
  });

  it("throttles sign-in for an email after repeated failures, even with the right password", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await signIn(admin.email, `wrong password ${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const locked = await signIn(admin.email, admin.password);
    expect(locked.status).toBe(429);
    expect(locked.body.error_code).toBe("TOO_MANY_ATTEMPTS");
  });

  it("never shows a secret in a response or a log line", async () => {
    const operatorSession = await signIn(operator.email, operator.password);
    expect(operatorSession.status).toBe(200);
    sessionTokens.push(tokenOf(operatorSession.cookie));
    const sessionHeaders = {
      cookie: operatorSession.cookie,
      origin: server!.url,
      ...VERSION,
      "content-type": "application/json",
    };

    // A new key: its secret is in this one answer (shown once), nowhere else.
    const created = await request("/api/settings/api-keys", {
      method: "POST",
      headers: sessionHeaders,
      body: JSON.stringify({ name: "Log check", scopes: ["leads:read"] }),
      record: false,
    });
    expect(created.res.status).toBe(201);
    const newKey = String(created.json().key);
    plaintextSecrets.push(newKey);
    expect(created.text.split(newKey)).toHaveLength(2);
    const used = await request("/api/auth/test", { headers: { ...VERSION, "x-api-key": newKey } });
    expect(used.res.status).toBe(200);
    // A new user with a password, who then signs in.
    const userPassword = "new user passphrase 42";
    plaintextSecrets.push(userPassword);
    const email = `user.${Date.now()}@example.test`;
    const added = await request("/api/settings/users", {
      method: "POST",
      headers: sessionHeaders,
      body: JSON.stringify({ name: "New User", email, role: "sales_rep", password: userPassword }),
    });
    expect(added.res.status).toBe(201);
    const signedIn = await signIn(email, userPassword);
    expect(signedIn.status).toBe(200);
    sessionTokens.push(tokenOf(signedIn.cookie));
    await request("/api/settings/api-keys", { headers: sessionHeaders });
    await request("/api/settings/users", { headers: sessionHeaders });
    await request("/api/auth/session", { headers: sessionHeaders });

    // Failures on purpose: a key one character off, a bad body to sign-in, a wrong password.
    const almost = `${seededKey.slice(0, -1)}${seededKey.endsWith("a") ? "b" : "a"}`;
    expect((await request("/api/leads", { headers: { ...VERSION, "x-api-key": almost } })).res.status).toBe(
      401,
    );
    await request("/api/auth/sign-in", {
      method: "POST",
      headers: { ...VERSION, "content-type": "application/json" },
      body: JSON.stringify({ email: admin.email, password: "x".repeat(300) }),
    });
    await signIn(`nobody.${Date.now()}@example.test`, admin.password);
    await request("/api/auth/test", { headers: { ...VERSION, "x-api-key": seededKey } });

    // Stop the server (the embedded database is then free), and gather the stored hashes.
    expect(await stopServer(server)).toBe(0);
    const stored = await db.open();
    let hashes: string[];
    try {
      const rows = (
        await stored.db.execute<{ h: string }>(sql`select key_hash as h from api_keys
            union all select password_hash from users where password_hash is not null
            union all select token_hash from sessions`)
      ).rows;
      hashes = rows.map((r) => r.h);
    } finally {
      await stored.close();
    }
    expect(hashes.length).toBeGreaterThan(3);
    const log = server!.output();
    expect(log).toMatch(/"path":"\/api\/auth\/sign-in"/); // the log did record the run
    expect(sessionTokens).toHaveLength(3);
    for (const secret of [...plaintextSecrets, ...hashes, ...sessionTokens]) {
      expect(secret.length).toBeGreaterThanOrEqual(16);
      expect(log.includes(secret), `a secret in the server's output: ${secret.slice(0, 6)}…`).toBe(false);
    }
    for (const secret of [...plaintextSecrets, ...hashes]) {
      const inResponse = responses.find((r) => r.includes(secret));
      expect(inResponse, `a secret in a response: ${secret.slice(0, 6)}…`).toBeUndefined();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { TcpProxy } from "@/lib/testing/tcp-proxy";
import { renameDatabase } from "@/lib/testing/rename-database";
import {
  engine,
  freshDatabaseWithAdmin,
  signInCookie,
  sleep,
  startServer,
  stopServer,
  VERSION,
  type FreshDatabase,
  type ServerProcess,
} from "./harness";

// Outages (issue 40): while PostgreSQL is down, missing or refusing, the API answers 503 and pages
// the outage page, recovering without restart; the embedded engine cannot fail from outside.

let db: FreshDatabase;
let server: ServerProcess | undefined;
let tcp: TcpProxy | undefined;
let cookie = "";
const user = { email: `outage.${Date.now()}@example.test`, password: "outage test passphrase" };

beforeAll(async () => {
  db = await freshDatabaseWithAdmin(user);
  let databaseUrl = db.url;
  if (engine === "postgres") {
    const url = new URL(db.url);
    tcp = new TcpProxy(url.hostname, Number(url.port || 5432));
    await tcp.up();
    url.host = `127.0.0.1:${tcp.port}`;
    databaseUrl = url.toString();
  }
  // A short statement timeout, for the session lookup that times out behind a lock (below).
  server = await startServer({ databaseUrl, env: { DB_STATEMENT_TIMEOUT_MS: "1000" } });
  cookie = await signInCookie(server.url, user);
});
afterAll(async () => {
  await stopServer(server);
  await tcp?.down();
  await db?.drop();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server!.url}${path}`, { redirect: "manual", headers: { cookie, ...headers } });
  return { res, text: await res.text() };
}

/** A page while the database is out: the outage page, 503, with the security headers. */
async function expectOutagePage(path: string, headers: Record<string, string> = {}) {
  const { res, text } = await get(path, headers);
  expect(res.status, path).toBe(503);
  expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
  expect(res.headers.get("retry-after"), path).toBe("5");
  expect(res.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
  expect(res.headers.get("x-frame-options"), path).toBe("DENY");
  expect(text, path).toContain("FieldCRM is temporarily unavailable");
  expect(text, path).not.toMatch(/\bat [^\n]+:\d+:\d+|ECONNREFUSED|3D000|does not exist/);
}

async function expectApiUnavailable() {
  const { res, text } = await get("/api/leads", VERSION);
  expect(res.status).toBe(503);
  expect(res.headers.get("x-request-id")).toBeTruthy();
  expect(JSON.parse(text)).toEqual({
    status: "error",
    message: expect.stringContaining("temporarily unavailable"),
    error_code: "SERVICE_UNAVAILABLE",
  });
}

/** Once the database is back: the page and the API serve again (the pool reconnects by itself). */
async function expectServingAgain() {
  let statuses: number[] = [];
  for (let attempt = 0; attempt < 40; attempt++) {
    statuses = [(await get("/leads")).res.status, (await get("/api/leads", VERSION)).res.status];
    if (statuses.every((s) => s === 200)) break;
    await sleep(250);
  }
  expect(statuses).toEqual([200, 200]);
}

describe(`outages on the production server (${engine})`, () => {
  it("serves a signed-in dashboard page, and the outage page on its own path", async () => {
    const page = await get("/leads");
    expect(page.res.status).toBe(200);
    expect(page.text).toContain("<html");
    const outage = await get("/unavailable?next=%2Fleads%3Fstatus%3Dnew");
    expect(outage.res.status).toBe(503);
    expect(outage.text).toContain("FieldCRM is temporarily unavailable");
    expect(outage.text).toContain('href="/leads?status=new"');
    expect(outage.res.headers.get("x-frame-options")).toBe("DENY");
  });

  if (engine === "postgres") {
    const rename = (from: string, to: string) => renameDatabase(process.env.TEST_DATABASE_URL!, from, to);

    it("answers 503 while the database server is down, and serves again once it is back", async () => {
      await tcp!.down();
      try {
        for (const path of ["/leads", "/leads/ld_missing?tab=notes", "/settings", "/", "/sign-in"]) {
          await expectOutagePage(path);
        }
        // A client-side navigation (an RSC request) too: the browser then loads the page itself.
        await expectOutagePage("/customers", { rsc: "1" });
        await expectApiUnavailable();
      } finally {
        await tcp!.up();
      }
      await expectServingAgain();
    });

    it("answers 503 while the database does not exist (renamed), and serves again once it is back", async () => {
      const name = new URL(db.url).pathname.slice(1);
      await rename(name, `${name}_away`);
      try {
        await expectApiUnavailable();
        await expectOutagePage("/leads");
        await expectOutagePage("/reports/jobs");
      } finally {
        await rename(`${name}_away`, name);
      }
      await expectServingAgain();
    });

    it("sends a page whose session lookup times out after the check to the outage page", async () => {
      // The database answers the proxy's check, but the sessions table is locked: the layout's
      // lookup hits the statement timeout (an outage too) while the page renders.
      const locker = new pg.Client({ connectionString: db.url });
      await locker.connect();
      try {
        await locker.query("begin");
        await locker.query("lock table sessions in access exclusive mode");
        const { res } = await get("/leads?status=new");
        expect(res.status).toBe(307);
        expect(res.headers.get("location")).toBe("/unavailable?next=%2Fleads%3Fstatus%3Dnew");
        await locker.query("rollback");
      } finally {
        await locker.end();
      }
      const outage = await get("/unavailable?next=%2Fleads%3Fstatus%3Dnew");
      expect(outage.res.status).toBe(503);
      expect(outage.text).toContain('href="/leads?status=new"');
      await expectServingAgain();
    });
  }
});

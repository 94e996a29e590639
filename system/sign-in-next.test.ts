import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  engine,
  freshDatabaseWithAdmin,
  signInCookie,
  startServer,
  stopServer,
  type FreshDatabase,
  type ServerProcess,
} from "./harness";

// The sign-in page's `next` (issue #40.3): a signed-in visit to /sign-in follows `next` only to a
// path of this site; anything a browser could read as another origin goes to the start page.

let db: FreshDatabase;
let server: ServerProcess | undefined;
let cookie = "";
const user = { email: `next.${Date.now()}@example.test`, password: "a long enough passphrase" };

beforeAll(async () => {
  db = await freshDatabaseWithAdmin(user);
  server = await startServer({ databaseUrl: db.url });
  cookie = await signInCookie(server.url, user);
});
afterAll(async () => {
  await stopServer(server);
  await db?.drop();
});

/** Where the server sends a browser for GET /sign-in?next=<raw>, with or without the session. */
async function signInPage(rawNext: string, signedIn: boolean) {
  const res = await fetch(`${server!.url}/sign-in?next=${rawNext}`, {
    redirect: "manual",
    headers: signedIn ? { cookie } : {},
  });
  return { status: res.status, location: res.headers.get("location"), body: await res.text() };
}

describe(`the sign-in page's next (${engine})`, () => {
  it("follows a path of this site", async () => {
    const { status, location } = await signInPage(encodeURIComponent("/leads?page=2"), true);
    expect(status).toBeGreaterThanOrEqual(300);
    expect(status).toBeLessThan(400);
    expect(location).toBe("/leads?page=2");
  });

  it.each([
    "/%09/other.example/x",
    "/%0a/other.example/x",
    "/%0d%0a/other.example/x",
    "//other.example/x",
    "/%5Cother.example/x",
    "/%5C/other.example/x",
    "/.//other.example/x",
    "https://other.example/x",
    "javascript:alert(1)",
    "%2F%2Fother.example",
  ])("sends next=%s to the start page", async (rawNext) => {
    const { status, location } = await signInPage(rawNext, true);
    expect(status).toBeGreaterThanOrEqual(300);
    expect(status).toBeLessThan(400);
    expect(location).toBe("/");
    // Resolved by a browser against the server: the same origin.
    expect(new URL(location!, server!.url).origin).toBe(new URL(server!.url).origin);
  });

  it("hands the form only the safe path when nobody is signed in", async () => {
    const { status, body } = await signInPage("/%09/other.example/x", false);
    expect(status).toBe(200);
    // The form's props travel in the page's RSC payload (a JSON string inside a script).
    const props = [...body.matchAll(/\{\\"next\\":\\"([^\\]*)\\"\}/g)].map((m) => m[1]);
    expect(props).toEqual(["/"]);
  });
});

import { inspect } from "node:util";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { createCompany, createUser } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";
import { sessionFromToken } from "@/lib/domain/users/current-session";
import { createSession, findSessionPrincipal, SessionLookupError } from "./sessions";
import { sha256Hex } from "./secrets";

/*
 * Next.js logs a page's failed session lookup as thrown, and Drizzle's query error carries the token's
 * hash among its parameters: the error thrown must carry neither the hash nor the token.
 */

const database = setupTestDatabase();

/** Everything a log line of the error could show (Next.js logs it with console.error). */
const logged = (error: unknown) =>
  `${inspect(error, { depth: 10, showHidden: true })}\n${JSON.stringify(error)}\n${String(error)}`;

async function lookupError(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("the lookup did not fail");
}

describe(`session lookup errors keep the token out (${testEngine()})`, () => {
  it("answers a valid token", async () => {
    const company = await createCompany(database.db);
    const user = await createUser(database.db, company.id);
    const { token } = await createSession(database.db, user);
    expect(await findSessionPrincipal(database.db, token)).toMatchObject({ userId: user.id });
  });

  it("fails without the token or its hash when the query fails, and is not an outage", async () => {
    const company = await createCompany(database.db);
    const user = await createUser(database.db, company.id);
    const { token } = await createSession(database.db, user);
    await database.db.execute(sql`alter table sessions rename to sessions_gone`);
    let error: unknown;
    try {
      error = await lookupError(() => sessionFromToken(token));
    } finally {
      await database.db.execute(sql`alter table sessions_gone rename to sessions`);
    }
    expect(error).toBeInstanceOf(SessionLookupError);
    expect((error as SessionLookupError).code).toBe("42P01");
    const text = logged(error);
    expect(text).not.toContain(token);
    expect(text).not.toContain(sha256Hex(token));
    expect(text).not.toContain("select");
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it("fails without the token or its hash when the database is down, and stays an outage (503)", async () => {
    const token = "a-session-token-that-must-not-be-logged";
    const down =
      database.target.kind === "postgres"
        ? await openDatabase({ kind: "postgres", url: "postgres://postgres@127.0.0.1:1/none" })
        : await openDatabase({ kind: "pglite-memory" });
    if (down.engine === "pglite") await down.close();
    try {
      const error = await lookupError(() => findSessionPrincipal(down.db, token));
      expect(error).toBeInstanceOf(SessionLookupError);
      const text = logged(error);
      expect(text).not.toContain(token);
      expect(text).not.toContain(sha256Hex(token));
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      if (down.engine === "postgres") await down.close();
    }
  });
});

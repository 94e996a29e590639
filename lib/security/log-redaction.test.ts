import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { apiRoute } from "@/lib/api/handler";
import { generateApiKey, hashApiKey } from "@/lib/auth/secrets";
import { resetEnvCache } from "@/lib/env";
import { apiRequest, call } from "@/lib/testing/factories";
import { setupTestDatabase, testEngine } from "@/lib/testing/test-database";

// A failed query's error carries its parameters (hashes, personal data), so the logged line for
// an unexpected 500 must keep the SQL and leave the parameters out.

setupTestDatabase();
const previousLevel = process.env.LOG_LEVEL;
beforeAll(async () => {
  process.env.LOG_LEVEL = "error";
  resetEnvCache();
});
afterAll(async () => {
  process.env.LOG_LEVEL = previousLevel;
  resetEnvCache();
});
afterEach(() => {
  vi.restoreAllMocks();
});

function captureStderr(): () => string {
  let text = "";
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  });
  return () => text;
}

describe(`error logs keep secrets out (${testEngine()})`, () => {
  it("logs a failed query's SQL without its parameters, and answers a bare 500", async () => {
    const secret = hashApiKey(generateApiKey());
    const failing = apiRoute({
      auth: "none",
      requireVersion: false,
      handler: async ({ db }) => {
        // A statement that fails in the database with a secret among its parameters.
        await (
          await db()
        ).execute(sql`select key_hash from api_keys where key_hash = ${secret} and id = 1/0`);
        return { status: "success" };
      },
    });
    const stderr = captureStderr();
    const res = await call(failing, apiRequest("/failing"));
    vi.restoreAllMocks();

    expect(res.status).toBe(500);
    expect(res.body).toEqual({ status: "error", message: "Internal server error" });
    const log = stderr();
    expect(log).toContain("Failed query");
    expect(log).toContain(res.headers.get("x-request-id"));
    expect(log).toContain("select key_hash from api_keys");
    expect(log).not.toContain(secret);
    expect(JSON.stringify(res.body)).not.toContain(secret);
  });
});

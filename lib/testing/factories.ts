import { sql } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import type { ApiKeyPrincipal } from "@/lib/auth/principal";
import type { Scope } from "@/lib/values/scopes";
import { SCOPES } from "@/lib/values/scopes";
import { SESSION_COOKIE } from "@/lib/auth/credentials";
import { createSession } from "@/lib/auth/sessions";
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey, hashPassword } from "@/lib/auth/secrets";
import type { DbOrTx } from "@/lib/db/client";
import { apiKeys, companies, users, type UserRole } from "@/lib/db/schema";
import { ID_PREFIX, newId } from "@/lib/ids";
import type { RouteContext, RouteHandler } from "@/lib/api/handler";

/** A fresh tenant per test, so tests on one database never see each other's rows. */
export async function createCompany(db: DbOrTx, name = `Test Co ${randomBytes(3).toString("hex")}`) {
  const id = newId(ID_PREFIX.company);
  // Only these columns: migration tests create companies in a schema older than the current one,
  // where Drizzle's insert would name every column of today's table.
  await db.execute(sql`insert into ${companies} ("id", "name") values (${id}, ${name})`);
  return { id, name };
}

export async function createUser(
  db: DbOrTx,
  companyId: string,
  options: { role?: UserRole; name?: string; email?: string; password?: string; active?: boolean } = {},
) {
  const id = newId(ID_PREFIX.user);
  const email = options.email ?? `${id}@example.test`;
  await db.insert(users).values({
    companyId,
    id,
    name: options.name ?? `User ${id.slice(-4)}`,
    email,
    emailNormalized: email.trim().toLowerCase(),
    role: options.role ?? "admin",
    passwordHash: options.password ? await hashPassword(options.password) : null,
    active: options.active ?? true,
  });
  return { id, companyId, email, role: options.role ?? "admin" };
}

export async function createApiKey(
  db: DbOrTx,
  companyId: string,
  options: { scopes?: readonly Scope[]; dailyLimit?: number; revoked?: boolean; expiresAt?: Date } = {},
) {
  const key = generateApiKey();
  const id = newId(ID_PREFIX.apiKey);
  await db.insert(apiKeys).values({
    companyId,
    id,
    name: "test key",
    prefix: apiKeyDisplayPrefix(key),
    keyHash: hashApiKey(key),
    scopes: [...(options.scopes ?? SCOPES)],
    dailyLimit: options.dailyLimit ?? 1000,
    revokedAt: options.revoked ? new Date() : null,
    expiresAt: options.expiresAt ?? null,
  });
  return { id, key };
}

/** A signed-in user's cookie header value. */
export async function createSessionCookie(db: DbOrTx, user: { companyId: string; id: string }) {
  const { token } = await createSession(db, user);
  return `${SESSION_COOKIE}=${token}`;
}

/** A tenant with an all-scopes key: the common start of an API test. */
export async function createTenant(db: DbOrTx, options: { scopes?: readonly Scope[] } = {}) {
  const company = await createCompany(db);
  const { key } = await createApiKey(db, company.id, { scopes: options.scopes });
  return { companyId: company.id, key };
}

export interface TestRequestOptions {
  method?: string;
  key?: string;
  cookie?: string;
  version?: string | null;
  body?: unknown;
  rawBody?: string;
  contentType?: string | null;
  headers?: Record<string, string>;
}

/** Builds a request the way a client would send it (version header and JSON content type by default). */
export function apiRequest(path: string, options: TestRequestOptions = {}): Request {
  const headers = new Headers(options.headers);
  if (options.key !== undefined) headers.set("x-api-key", options.key);
  if (options.cookie) headers.set("cookie", options.cookie);
  if (options.version !== null) headers.set("service-api-version", options.version ?? "1.1.0");
  const hasBody = options.body !== undefined || options.rawBody !== undefined;
  if (hasBody && options.contentType !== null)
    headers.set("content-type", options.contentType ?? "application/json");
  return new Request(`http://localhost${path.startsWith("/api") ? path : `/api${path}`}`, {
    method: options.method ?? (hasBody ? "POST" : "GET"),
    headers,
    body: options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined),
  });
}

/** Calls a route handler and returns status, headers and parsed JSON body. */
export async function call<T = Record<string, unknown>>(
  handler: RouteHandler,
  request: Request,
  params: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: T; text: string }> {
  const context: RouteContext = { params: Promise.resolve(params) };
  const response = await handler(request, context);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : null) as T,
    text,
  };
}

/** An API key's principal, for domain calls in tests that do not depend on who asks. */
export function testKeyPrincipal(companyId: string): ApiKeyPrincipal {
  return { kind: "api_key", companyId, scopes: [...SCOPES], keyId: "key_test" };
}

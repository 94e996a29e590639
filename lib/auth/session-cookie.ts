import "server-only";
import { SESSION_COOKIE } from "./credentials";
import { env } from "@/lib/env";

/**
 * HttpOnly, SameSite=Lax, Path=/; Secure only over https (x-forwarded-proto behind a TLS proxy), since a
 * browser drops a Secure cookie set over http and the end-to-end tests run on http://localhost.
 */
export function sessionCookie(token: string, maxAgeSeconds: number, request: Request): string {
  return [
    `${SESSION_COOKIE}=${encodeURIComponent(token)}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${maxAgeSeconds}`,
    ...(isSecureRequest(request) ? ["Secure"] : []),
  ].join("; ");
}

/** The Set-Cookie value that removes the session cookie (sign-out). */
export function clearedSessionCookie(request: Request): string {
  return sessionCookie("", 0, request);
}

function isSecureRequest(request: Request): boolean {
  if (env().NODE_ENV !== "production") return false;
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  return (forwarded ?? new URL(request.url).protocol.replace(":", "")) === "https";
}

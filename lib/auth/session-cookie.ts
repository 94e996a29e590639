import "server-only";
import { SESSION_COOKIE } from "./credentials";
import { env } from "@/lib/env";

/**
 * The Set-Cookie value of a dashboard session: HttpOnly (no script can read it), SameSite=Lax
 * (not sent on cross-site sub-requests; the pipeline also refuses cross-site writes), Path=/.
 * Secure when the production server is reached over https. A production build reached over
 * plain http (the end-to-end tests on http://localhost) gets no Secure flag, since a browser
 * would drop a Secure cookie set over http and nobody could sign in. Behind a TLS-terminating
 * proxy, x-forwarded-proto tells the original scheme.
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

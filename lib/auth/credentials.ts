import "server-only";
// Pure header reading, so that proxy.ts and the API pipeline agree on the cookie and key they read.

/** The dashboard session's cookie. */
export const SESSION_COOKIE = "fcrm_session";
/** The header an integration sends its API key in. */
export const API_KEY_HEADER = "x-api-key";

/** What a request presents: an API key (trimmed; empty when the header is blank), else a session token. */
export type PresentedCredentials =
  { kind: "api_key"; key: string } | { kind: "session"; token: string | undefined };

export function presentedCredentials(headers: Headers): PresentedCredentials {
  const key = headers.get(API_KEY_HEADER);
  if (key !== null) return { kind: "api_key", key: key.trim() };
  return { kind: "session", token: readCookie(headers.get("cookie"), SESSION_COOKIE) };
}

/** A cookie's value from a Cookie header (URI-decoded), or undefined. */
export function readCookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) {
      const value = part.slice(index + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value; // a malformed escape is just an unknown token (401), not a crash
      }
    }
  }
  return undefined;
}

/** Whether a cookie-authenticated request must pass the cross-site check (it writes). */
export const isWriteMethod = (method: string) => !["GET", "HEAD", "OPTIONS"].includes(method);

/** A cookie-authenticated write must come from our own origin. */
export function isCrossSite(request: Request): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = request.headers.get("origin");
  if (!origin) return false;
  const host =
    request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? new URL(request.url).host;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

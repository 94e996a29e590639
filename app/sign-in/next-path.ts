/** Resolves relative addresses the way the browser will; never contacted, only compared. */
const SAME_ORIGIN = "http://fieldcrm.invalid";

/** Pages `next` must not lead back to: the sign-in page itself (a loop) and the JSON API. */
function isRefused(pathname: string): boolean {
  return pathname === "/sign-in" || pathname === "/api" || pathname.startsWith("/api/");
}

/**
 * Where to go after signing in (`?next=`): a path of this site only, otherwise the start page.
 * Browsers drop tabs and newlines and read `\` as `/`, so `/\t/host` and `/\host` are `//host`,
 * another origin: any control character or backslash refuses the value. What is left is resolved
 * as the browser would and must stay on this origin; the answer is that resolved path, so the
 * browser is handed exactly what was checked (`/.//host` resolves to `//host` and is refused).
 */
export function safeNextPath(next: string | null | undefined): string {
  if (typeof next !== "string" || !next.startsWith("/")) return "/";
  // C0 controls, space, DEL and backslash: each is dropped, trimmed or rewritten by browsers.
  if (/[\u0000-\u0020\u007f\\]/.test(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, SAME_ORIGIN);
  } catch {
    return "/";
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (url.origin !== SAME_ORIGIN || !path.startsWith("/") || path.startsWith("//")) return "/";
  return isRefused(url.pathname) ? "/" : path;
}

/** Resolves relative addresses the way the browser will; never contacted, only compared. */
const SAME_ORIGIN = "http://fieldcrm.invalid";

/** Pages `next` must not lead back to: the sign-in page itself (a loop) and the JSON API. */
function isRefused(pathname: string): boolean {
  return pathname === "/sign-in" || pathname === "/api" || pathname.startsWith("/api/");
}

/**
 * Where to go after sign-in (`?next=`): a path of this site, else "/". Browsers drop control
 * characters and read `\` as `/`, so those are refused, and the browser-resolved path is returned.
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

import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIE } from "@/lib/auth/credentials";
import { isDatabaseReachable } from "@/lib/db/availability";
import { serviceUnavailablePage } from "@/lib/web/service-unavailable";

/** The request header carrying the page's path and query to the dashboard layout (for `next`). */
export const PATH_HEADER = "x-fcrm-path";
/** The outage page (app/unavailable/route.ts): it needs neither a session nor the database. */
export const UNAVAILABLE_PATH = "/unavailable";

/**
 * Pages without a session cookie redirect to /sign-in at once (the layout re-checks the session). A page's
 * status is fixed once it renders, so while the database is down the proxy answers the 503 page itself.
 */
export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const path = pathname + search;
  if (pathname === UNAVAILABLE_PATH) return NextResponse.next();
  const hasSession = Boolean(request.cookies.get(SESSION_COOKIE)?.value);
  if (!isSignedOutPage(pathname) && !hasSession) {
    const url = request.nextUrl.clone();
    url.pathname = "/sign-in";
    url.search = pathname === "/" ? "" : `?next=${encodeURIComponent(path)}`;
    return NextResponse.redirect(url);
  }
  if (hasSession && !(await isDatabaseReachable())) return serviceUnavailablePage(path);
  const forwarded = new Headers(request.headers);
  forwarded.set(PATH_HEADER, path);
  return NextResponse.next({ request: { headers: forwarded } });
}

/** Pages for people without a session: sign-in, an invite's link, forgot and reset password. */
function isSignedOutPage(pathname: string): boolean {
  return (
    pathname === "/sign-in" ||
    pathname === "/forgot-password" ||
    /^\/(invite|reset-password)\/[^/]+$/.test(pathname)
  );
}

export const config = {
  // Pages only: not the API, Next's assets, the docs, or files with an extension (favicon, images).
  matcher: ["/((?!api/|_next/|docs|openapi|.*\\.[a-zA-Z0-9]+$).*)"],
};

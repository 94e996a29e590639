import { NextResponse, type NextRequest } from "next/server";

/** The request header carrying the page's path and query to the dashboard layout (for `next`). */
export const PATH_HEADER = "x-fcrm-path";
const SESSION_COOKIE = "fcrm_session";

/**
 * Next 16's proxy (formerly middleware), for pages only: without a session cookie a dashboard
 * page redirects to /sign-in?next=… at once; otherwise it passes the path on so the layout's
 * full session check can do the same for an expired or revoked session. It reads no database:
 * the layout does (the API pipeline checks every /api request itself).
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const path = pathname + search;
  if (pathname !== "/sign-in" && !request.cookies.get(SESSION_COOKIE)?.value) {
    const url = request.nextUrl.clone();
    url.pathname = "/sign-in";
    url.search = pathname === "/" ? "" : `?next=${encodeURIComponent(path)}`;
    return NextResponse.redirect(url);
  }
  const forwarded = new Headers(request.headers);
  forwarded.set(PATH_HEADER, path);
  return NextResponse.next({ request: { headers: forwarded } });
}

export const config = {
  // Pages only: not the API, Next's assets, the docs, or files with an extension (favicon, images).
  matcher: ["/((?!api/|_next/|docs|openapi|.*\\.[a-zA-Z0-9]+$).*)"],
};

import { API_OPERATIONS } from "@/app/api/routes";
import * as catchAll from "@/app/api/[...path]/route";
import type { RouteHandler } from "@/lib/api/handler";

/**
 * A fetch that serves /api requests with the route handlers in this process, matched the way the
 * route index lists them (a literal segment before a parameter), for clients under test.
 */
export function inProcessFetch(): (request: Request) => Promise<Response> {
  const routes = API_OPERATIONS.map(([method, path, routeModule]) => ({
    method,
    segments: path.split("/").filter(Boolean),
    handler: (routeModule as Record<string, RouteHandler | undefined>)[method],
  })).sort((a, b) => literalCount(b.segments) - literalCount(a.segments));
  return async (request) => {
    const url = new URL(request.url);
    const parts = url.pathname
      .replace(/^\/api/, "")
      .split("/")
      .filter(Boolean)
      .map(decodeURIComponent);
    for (const route of routes) {
      if (route.method !== request.method || route.segments.length !== parts.length || !route.handler)
        continue;
      const params: Record<string, string> = {};
      const matches = route.segments.every((segment, i) => {
        const name = /^\{(\w+)\}$/.exec(segment)?.[1];
        if (name) params[name] = parts[i]!;
        return name !== undefined || segment === parts[i];
      });
      if (matches) return route.handler(request, { params: Promise.resolve(params) });
    }
    const handler = (catchAll as Record<string, RouteHandler | undefined>)[request.method];
    if (!handler) throw new Error(`no handler for ${request.method} ${url.pathname}`);
    return handler(request, { params: Promise.resolve({ path: parts }) });
  };
}

const literalCount = (segments: string[]) => segments.filter((s) => !s.startsWith("{")).length;

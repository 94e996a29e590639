import type { RouteHandler } from "@/lib/api/handler";
import * as customerById from "@/app/api/customers/[id]/route";
import * as customers from "@/app/api/customers/route";
import * as leadActivity from "@/app/api/leads/[id]/activity/route";
import * as leadById from "@/app/api/leads/[id]/route";
import * as leadBulk from "@/app/api/leads/bulk/route";
import * as leads from "@/app/api/leads/route";
import * as leadStageTotals from "@/app/api/leads/stage-totals/route";
import * as pinTypes from "@/app/api/pin-types/route";
import * as pins from "@/app/api/pins/route";
import * as fieldActivityReport from "@/app/api/reports/field-activity/route";
import * as planReport from "@/app/api/reports/service-plans/route";
import * as jobReport from "@/app/api/reports/serviced-jobs/route";
import * as servicePlans from "@/app/api/service-plans/route";
import * as servicedJobs from "@/app/api/serviced-jobs/route";

/**
 * Our route handlers by path, to run a case in-process (the statements it sends are captured
 * for the baseline and for EXPLAIN). `:id` is the one path parameter of the cases.
 */
const ROUTES: [pattern: string, module: Record<string, unknown>][] = [
  ["/api/leads", leads],
  ["/api/leads/stage-totals", leadStageTotals],
  ["/api/leads/bulk", leadBulk],
  ["/api/leads/:id", leadById],
  ["/api/leads/:id/activity", leadActivity],
  ["/api/customers", customers],
  ["/api/customers/:id", customerById],
  ["/api/service-plans", servicePlans],
  ["/api/serviced-jobs", servicedJobs],
  ["/api/pins", pins],
  ["/api/pin-types", pinTypes],
  ["/api/reports/service-plans", planReport],
  ["/api/reports/serviced-jobs", jobReport],
  ["/api/reports/field-activity", fieldActivityReport],
];

export interface RouteMatch {
  pattern: string;
  handler: RouteHandler;
  params: Record<string, string>;
}

/** The pattern a pathname matches and its `:id`, if any. */
export function matchPattern(
  pathname: string,
  patterns: readonly string[],
): { pattern: string; params: Record<string, string> } | undefined {
  for (const pattern of patterns) {
    const want = pattern.split("/");
    const got = pathname.split("/");
    if (want.length !== got.length) continue;
    const params: Record<string, string> = {};
    const ok = want.every((part, i) => {
      const value = got[i] ?? "";
      if (part.startsWith(":")) {
        params[part.slice(1)] = decodeURIComponent(value);
        return value.length > 0;
      }
      return part === value;
    });
    if (ok) return { pattern, params };
  }
  return undefined;
}

export function routeFor(method: string, pathname: string): RouteMatch {
  const match = matchPattern(
    pathname,
    ROUTES.map(([p]) => p),
  );
  const routeModule = match && ROUTES.find(([p]) => p === match.pattern)?.[1];
  const handler = routeModule?.[method] as RouteHandler | undefined;
  if (!match || !handler) throw new Error(`bench: no route for ${method} ${pathname}`);
  return { pattern: match.pattern, handler, params: match.params };
}

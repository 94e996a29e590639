import { safeNextPath } from "@/app/sign-in/next-path";
import { serviceUnavailablePage } from "@/lib/web/service-unavailable";

/**
 * GET /unavailable?next=… – the outage page for a dashboard page whose database failed after the
 * proxy's check. Always 503; it reads no database and links back to a path on this site only.
 */
export function GET(request: Request) {
  return serviceUnavailablePage(safeNextPath(new URL(request.url).searchParams.get("next")));
}

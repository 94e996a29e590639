import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { AppShell } from "@/components/shell/app-shell";
import { SESSION_COOKIE } from "@/lib/auth/sessions";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { sessionFromToken } from "@/lib/auth/current-session";
import type { SessionInfo } from "@/lib/schemas/session";
import { Providers } from "@/lib/query/providers";
import { PATH_HEADER, UNAVAILABLE_PATH } from "@/proxy";

/**
 * Every dashboard page checks the session here: proxy.ts only sees whether a cookie exists, so
 * expired, revoked and deactivated sessions go back to sign-in from here.
 */
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const path = async () => (await headers()).get(PATH_HEADER) ?? "/";
  let session: SessionInfo | null;
  try {
    session = await sessionFromToken(token);
  } catch (error) {
    // The proxy answers 503 while the database is down; this is the outage that began (or the
    // lookup that timed out) after its check: the outage page, not an error page.
    if (!isDatabaseUnavailable(error)) throw error;
    redirect(`${UNAVAILABLE_PATH}?next=${encodeURIComponent(await path())}`);
  }
  if (!session) redirect(`/sign-in?next=${encodeURIComponent(await path())}`);
  return (
    <Providers session={session}>
      <AppShell>{children}</AppShell>
    </Providers>
  );
}

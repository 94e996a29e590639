import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { AppShell } from "@/components/shell/app-shell";
import { SESSION_COOKIE } from "@/lib/auth/sessions";
import { sessionFromToken } from "@/lib/auth/current-session";
import { Providers } from "@/lib/query/providers";
import { PATH_HEADER } from "@/proxy";

/**
 * Every dashboard page is behind this check: no valid session, back to sign-in with the page to
 * return to. (proxy.ts already redirects requests without a cookie; this also catches expired,
 * revoked and deactivated sessions.) The session is handed to the client shell.
 */
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const session = await sessionFromToken(token);
  if (!session) {
    const path = (await headers()).get(PATH_HEADER) ?? "/";
    redirect(`/sign-in?next=${encodeURIComponent(path)}`);
  }
  return (
    <Providers session={session}>
      <AppShell>{children}</AppShell>
    </Providers>
  );
}

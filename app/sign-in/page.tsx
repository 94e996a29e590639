import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { Logo } from "@/components/shell/icons";
import { SESSION_COOKIE } from "@/lib/auth/credentials";
import { sessionFromToken } from "@/lib/domain/users/current-session";
import { safeNextPath } from "./next-path";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

/** /sign-in: email and password; already signed-in users go straight on. */
export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[] }>;
}) {
  const { next } = await searchParams;
  const nextPath = safeNextPath(Array.isArray(next) ? next[0] : next);
  const session = await sessionFromToken((await cookies()).get(SESSION_COOKIE)?.value);
  if (session) redirect(nextPath);

  return (
    <div className="flex min-h-screen flex-col justify-center bg-gradient-to-b from-brand-50 via-slate-50 to-slate-50 px-4 py-12">
      <main className="mx-auto w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center text-center">
          <Logo className="size-12" />
          <h1 className="mt-4 text-2xl font-semibold tracking-tight text-slate-900">Sign in to FieldCRM</h1>
          <p className="mt-1 text-sm text-slate-500">Leads, customers and jobs for your field team.</p>
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <SignInForm next={nextPath} />
        </div>
      </main>
    </div>
  );
}

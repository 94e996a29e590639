import type { Metadata } from "next";
import { AuthCard } from "@/components/auth/auth-card";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";

export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };

/** /reset-password/<token>: a new password with a reset link (public; the token is checked on submit). */
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <AuthCard title="Choose a new password" subtitle="The link works once, for 1 hour.">
      <ResetPasswordForm token={token} />
    </AuthCard>
  );
}

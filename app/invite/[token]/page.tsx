import type { Metadata } from "next";
import { AcceptInviteForm } from "@/components/auth/accept-invite-form";
import { AuthCard } from "@/components/auth/auth-card";

export const metadata: Metadata = { title: "Accept your invite", referrer: "no-referrer" };

/** /invite/<token>: the invited person chooses a name and password (public; the token is checked on submit). */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <AuthCard title="Join your team on FieldCRM" subtitle="Choose your name and a password to finish.">
      <AcceptInviteForm token={token} />
    </AuthCard>
  );
}

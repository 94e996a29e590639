"use client";

import { NotAllowed } from "@/components/shell/not-allowed";
import { PageHeader } from "@/components/shell/page-header";
import { LoadingBlock } from "@/components/ui/spinner";
import { useCan, useSession } from "@/lib/query/session";
import { ApiKeysSection } from "./api-keys-section";
import { AuditLogSection } from "./audit-log-section";
import { CompanyTwoFactorSection } from "./company-two-factor-section";
import { LostReasonsSection } from "./lost-reasons-section";
import { PinTypesSection } from "./pin-types-section";
import { PipelineSection } from "./pipeline-section";
import { UsersSection } from "./users-section";
import { WebhooksSection } from "./webhooks-section";

export function SettingsView() {
  const { data: session } = useSession();
  const canManage = useCan("settings:manage");
  const canManageWebhooks = useCan("webhooks:manage");
  if (!session) return <LoadingBlock />;
  if (!canManage) return <NotAllowed what="Settings" who="administrators" />;
  return (
    <>
      <PageHeader
        title="Settings"
        description={`API keys, webhooks, users, the lead pipeline, the pin types and the audit log of ${session.company.name}. Only administrators see this page.`}
      />
      <div className="space-y-8">
        <ApiKeysSection />
        {canManageWebhooks ? <WebhooksSection /> : null}
        <UsersSection currentUserId={session.user.id} />
        <CompanyTwoFactorSection />
        <PipelineSection />
        <LostReasonsSection />
        <PinTypesSection />
        <AuditLogSection />
      </div>
    </>
  );
}

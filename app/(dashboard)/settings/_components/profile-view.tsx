"use client";

import { PageHeader } from "@/components/shell/page-header";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { LoadingBlock } from "@/components/ui/spinner";
import { formatDate } from "@/lib/format";
import { useOtherAccounts, useSession } from "@/lib/query/session";
import { ROLE_LABELS } from "@/lib/values/roles";
import { SessionsSection } from "./sessions-section";
import { TwoFactorSection } from "./two-factor-section";

/** Who the user is here, and which other companies added an account with their email. */
export function ProfileView() {
  const { data: session } = useSession();
  if (!session) return <LoadingBlock />;
  const { user, company } = session;
  return (
    <>
      <PageHeader title="Your account" description={`Your sign-in at ${company.name}.`} />
      <div className="space-y-8">
        <Card aria-labelledby="account-heading">
          <CardHeader id="account-heading" title="Account" />
          <CardBody>
            <dl className="grid gap-4 text-sm sm:grid-cols-2">
              {[
                ["Name", user.name],
                ["Email", user.email],
                ["Role", ROLE_LABELS[user.role]],
                ["Company", company.name],
              ].map(([term, value]) => (
                <div key={term} className="min-w-0">
                  <dt className="text-slate-500">{term}</dt>
                  <dd className="mt-0.5 font-medium [overflow-wrap:anywhere] text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          </CardBody>
        </Card>
        <SessionsSection />
        <TwoFactorSection />
        <OtherAccountsSection email={user.email} />
      </div>
    </>
  );
}

function OtherAccountsSection({ email }: { email: string }) {
  const accounts = useOtherAccounts();
  return (
    <Card aria-labelledby="other-accounts-heading">
      <CardHeader
        id="other-accounts-heading"
        title="Other companies with your email"
        description={`Companies that added an account with ${email} after yours. If your password is the same there, sign-in asks which company you want.`}
      />
      {accounts.isPending ? (
        <LoadingBlock label="Loading other companies" />
      ) : accounts.isError ? (
        <ErrorState
          error={accounts.error}
          title="Could not load the other companies"
          onRetry={() => accounts.refetch()}
        />
      ) : accounts.data.data.length === 0 ? (
        <EmptyState
          title="No other company has added your email"
          description="If one does, it shows here with the date it added you."
        />
      ) : (
        <>
          <ul className="divide-y divide-slate-100" aria-label="Other companies with your email">
            {accounts.data.data.map((account) => (
              <li
                key={`${account.company_name}-${account.added_at}`}
                className="flex flex-col gap-0.5 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-5"
              >
                <span className="font-medium [overflow-wrap:anywhere] text-slate-900">
                  {account.company_name}
                </span>
                <span className="text-sm text-slate-500">
                  Added <time dateTime={account.added_at}>{formatDate(account.added_at)}</time>
                </span>
              </li>
            ))}
          </ul>
          <p className="border-t border-slate-100 px-4 py-3 text-sm text-slate-600 sm:px-5">
            Do not know one of these companies? Tell your administrator, and use a password here that you use
            nowhere else.
          </p>
        </>
      )}
    </Card>
  );
}

"use client";

import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { ErrorState } from "@/components/ui/error-state";
import { Notice } from "@/components/ui/notice";
import { LoadingBlock } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { ApiClientError } from "@/lib/query/api-client";
import { useCompanyTwoFactor, useSetCompanyTwoFactor } from "@/lib/query/two-factor";

/** Settings: whether every user of the company must sign in with two-factor. */
export function CompanyTwoFactorSection() {
  const rule = useCompanyTwoFactor();
  const save = useSetCompanyTwoFactor();
  const { notify } = useToast();
  return (
    <Card aria-labelledby="company-two-factor-heading">
      <CardHeader
        id="company-two-factor-heading"
        title="Two-factor sign-in"
        description="Ask every user for a code from an authenticator app after their password."
      />
      <CardBody className="space-y-3">
        {rule.isPending ? (
          <LoadingBlock label="Loading the two-factor rule" />
        ) : rule.isError ? (
          <ErrorState
            error={rule.error}
            title="Could not load the two-factor rule"
            onRetry={() => rule.refetch()}
          />
        ) : (
          <>
            <Checkbox
              label="Require two-factor sign-in for everyone"
              description="Users without it set it up right after their password at their next sign-in. Signed-in sessions and API keys are not affected."
              checked={rule.data.require_two_factor}
              disabled={save.isPending}
              onChange={(e) =>
                save.mutate(
                  { require_two_factor: e.target.checked },
                  {
                    onSuccess: (saved) =>
                      notify({
                        tone: "success",
                        title: saved.require_two_factor
                          ? "Two-factor is now required"
                          : "Two-factor is optional",
                      }),
                  },
                )
              }
            />
            {save.isError ? (
              <Notice tone="danger">
                {save.error instanceof ApiClientError ? save.error.message : "Could not save. Try again."}
              </Notice>
            ) : null}
          </>
        )}
      </CardBody>
    </Card>
  );
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/query/api-client";
import { sessionQueryKey } from "@/lib/query/session";
import type { CompanyTwoFactor, TwoFactorSetup, TwoFactorStatus } from "@/lib/schemas/two-factor";

const statusKey = [...sessionQueryKey, "two-factor"] as const;
const companyKey = ["settings", "two-factor"] as const;

/** The signed-in user's two-factor state (profile). */
export function useTwoFactorStatus() {
  return useQuery({
    queryKey: statusKey,
    queryFn: ({ signal }) => apiFetch<TwoFactorStatus>("/auth/two-factor", { signal }),
  });
}

export function useStartTwoFactorSetup() {
  return useMutation({
    mutationFn: () => apiFetch<TwoFactorSetup>("/auth/two-factor/setup", { method: "POST" }),
  });
}

export function useEnableTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiFetch<{ status: TwoFactorStatus; recovery_codes: string[] }>("/auth/two-factor/enable", {
        method: "POST",
        body: { code },
      }),
    onSuccess: (answer) => client.setQueryData(statusKey, answer.status),
  });
}

export function useDisableTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (proof: { code: string } | { password: string }) =>
      apiFetch<TwoFactorStatus>("/auth/two-factor/disable", { method: "POST", body: proof }),
    onSuccess: (status) => client.setQueryData(statusKey, status),
  });
}

export function useReplaceRecoveryCodes() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiFetch<{ recovery_codes: string[] }>("/auth/two-factor/recovery-codes", {
        method: "POST",
        body: { code },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: statusKey }),
  });
}

/** The company's rule (settings, admins). */
export function useCompanyTwoFactor() {
  return useQuery({
    queryKey: companyKey,
    queryFn: ({ signal }) => apiFetch<CompanyTwoFactor>("/settings/two-factor", { signal }),
  });
}

export function useSetCompanyTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rule: CompanyTwoFactor) =>
      apiFetch<CompanyTwoFactor>("/settings/two-factor", { method: "PUT", body: rule }),
    // The checkbox shows the new value at once, and the old one again if saving fails.
    onMutate: (rule) => {
      const before = client.getQueryData<CompanyTwoFactor>(companyKey);
      client.setQueryData(companyKey, rule);
      return { before };
    },
    onError: (_error, _rule, context) => client.setQueryData(companyKey, context?.before),
    onSuccess: (rule) => {
      client.setQueryData(companyKey, rule);
      void client.invalidateQueries({ queryKey: statusKey });
    },
  });
}

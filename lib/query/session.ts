"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/query/api-client";
import { clearOfflineData } from "@/lib/query/saved-pins";
import { can, sessionCaller, type Action } from "@/lib/auth/permissions";
import type { OtherAccountList, SessionInfo } from "@/lib/schemas/session";

export const sessionQueryKey = ["session"] as const;

/** The signed-in user, company and scopes (seeded by the dashboard layout, so never loading there). */
export function useSession() {
  return useQuery({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => apiFetch<SessionInfo>("/auth/session", { signal }),
    staleTime: 5 * 60_000,
  });
}

/** The other companies that added an account with the signed-in user's email (settings profile). */
export function useOtherAccounts() {
  return useQuery({
    queryKey: [...sessionQueryKey, "other-accounts"],
    queryFn: ({ signal }) => apiFetch<OtherAccountList>("/auth/other-accounts", { signal }),
  });
}

/** Whether the signed-in user may do the action (false while unknown): what the UI shows follows it. */
export function useCan(action: Action): boolean {
  const { data } = useSession();
  return data ? can(sessionCaller(data), action) : false;
}

/**
 * Signs out, then loads the sign-in page in full: a full load drops every cached query of the
 * ended session, so nothing of it can show to the next person on this browser.
 */
export function useSignOut() {
  return useMutation({
    mutationFn: () => apiFetch<{ status: string }>("/auth/sign-out", { method: "POST" }),
    onSettled: async () => {
      // The map's offline copies (saved pins, the saved map page) belong to this session too.
      await clearOfflineData();
      window.location.replace("/sign-in");
    },
  });
}

"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/query/api-client";
import type { LostReason, LostReasonsResponse, PutLostReasonsBody } from "@/lib/schemas/lost-reasons";

export type { LostReason };

export const lostReasonKeys = {
  list: ["lost-reasons"] as const,
  settings: ["settings", "lost-reasons"] as const,
};

/** The reasons a lead can be lost for (GET /api/lost-reasons), in the admin's order. */
export function useLostReasons(enabled = true) {
  return useQuery({
    queryKey: lostReasonKeys.list,
    queryFn: ({ signal }) => apiFetch<LostReasonsResponse>("/lost-reasons", { signal }).then((r) => r.data),
    staleTime: 60_000,
    enabled,
  });
}

/** The list as the settings page edits it (GET /api/settings/lost-reasons, admins). */
export function useLostReasonSettings() {
  return useQuery({
    queryKey: lostReasonKeys.settings,
    queryFn: ({ signal }) =>
      apiFetch<LostReasonsResponse>("/settings/lost-reasons", { signal }).then((r) => r.data),
  });
}

/** Saves the whole ordered list (PUT /api/settings/lost-reasons); the lead pages then read it. */
export function useSaveLostReasons() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PutLostReasonsBody) =>
      apiFetch<LostReasonsResponse>("/settings/lost-reasons", { method: "PUT", body }).then((r) => r.data),
    onSuccess: (reasons) => {
      client.setQueryData(lostReasonKeys.settings, reasons);
      client.setQueryData(lostReasonKeys.list, reasons);
    },
  });
}

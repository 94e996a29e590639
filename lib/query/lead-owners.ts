"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { activityKeys } from "@/lib/query/activity";
import { apiFetch } from "@/lib/query/api-client";
import { leadKeys } from "@/lib/query/leads";
import type { BulkLeadsBody, BulkLeadsResponse, UndoBulkLeadsResponse } from "@/lib/schemas/lead-bulk";
import type { AssignableUser, ListAssignableUsersResponse } from "@/lib/schemas/lead-owners";
import type { z } from "zod";
import type { bulkLeadsBodySchema } from "@/lib/schemas/lead-bulk";

/** Lead owners and bulk changes: GET /api/users, POST /api/leads/bulk and its undo. */

export type { AssignableUser, BulkLeadsResponse };
export type BulkLeadsInput = z.input<typeof bulkLeadsBodySchema>;
export type { BulkLeadsBody };

export const assignableUsersKey = ["users", "assignable"] as const;

/** The company's active users a lead can be assigned to, by name. */
export function useAssignableUsers(enabled = true) {
  return useQuery({
    queryKey: assignableUsersKey,
    queryFn: ({ signal }) => apiFetch<ListAssignableUsersResponse>("/users", { signal }).then((r) => r.data),
    staleTime: 5 * 60_000,
    enabled,
  });
}

/** One action on many leads; every lead list, board and lead page is refreshed after it. */
export function useBulkChangeLeads() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkLeadsInput) =>
      apiFetch<BulkLeadsResponse>("/leads/bulk", { method: "POST", body }),
    // The leads' timelines show the change (or its undoing) too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: leadKeys.all }),
        queryClient.invalidateQueries({ queryKey: activityKeys.all }),
      ]),
  });
}

/** Undoes a bulk change (once). */
export function useUndoBulkChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<UndoBulkLeadsResponse>(`/leads/bulk/${encodeURIComponent(id)}/undo`, { method: "POST" }),
    // The leads' timelines show the change (or its undoing) too.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: leadKeys.all }),
        queryClient.invalidateQueries({ queryKey: activityKeys.all }),
      ]),
  });
}

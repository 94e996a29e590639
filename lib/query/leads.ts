"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/query/api-client";
import type { z } from "zod";
import {
  LEAD_MESSAGES,
  type GetLeadResponse,
  type Lead,
  type LeadUpsertResponse,
  type ListLeadsResponse,
  type upsertLeadBodySchema,
} from "@/lib/schemas/leads";

/**
 * TanStack Query hooks for the lead pages, over the same `/api/leads` endpoints integrations use.
 * Query keys hold every filter, so each view is cached on its own and paging back is instant.
 */

export type { Lead, LeadUpsertResponse };

/** The body of POST /api/leads as the form sends it (before the schema's transforms). */
export type LeadUpsertBody = z.input<typeof upsertLeadBodySchema>;

export interface LeadListParams {
  page: number;
  limit: number;
  search?: string;
  stage?: string;
  /** Comma-separated; a lead matches if it has any of them. */
  tags?: string;
  archived?: boolean;
}

export const leadKeys = {
  all: ["leads"] as const,
  lists: () => [...leadKeys.all, "list"] as const,
  list: (params: LeadListParams) => [...leadKeys.lists(), params] as const,
  details: () => [...leadKeys.all, "detail"] as const,
  detail: (id: string) => [...leadKeys.details(), id] as const,
};

export function useLeads(params: LeadListParams) {
  return useQuery({
    queryKey: leadKeys.list(params),
    queryFn: ({ signal }) =>
      apiFetch<ListLeadsResponse>("/leads", {
        query: {
          page: params.page,
          limit: params.limit,
          search: params.search?.trim() || undefined,
          stage: params.stage || undefined,
          tags: params.tags || undefined,
          archived: params.archived ? true : undefined,
        },
        signal,
      }),
    // While the next page or filter loads, keep showing the previous rows (no flash of empty table).
    placeholderData: keepPreviousData,
  });
}

export function useLead(id: string) {
  return useQuery({
    queryKey: leadKeys.detail(id),
    queryFn: ({ signal }) =>
      apiFetch<GetLeadResponse>(`/leads/${encodeURIComponent(id)}`, { signal }).then((r) => r.data),
  });
}

export interface LeadSaveResult {
  lead: LeadUpsertResponse;
  /** true: a new lead (201); false: an existing lead was updated (200). */
  created: boolean;
  /** A "new lead" save that landed on an existing lead, matched by phone or email. */
  matchedExisting: boolean;
}

/** Create-or-update through POST /api/leads; refreshes the lead's page and every lead list. */
export function useSaveLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: LeadUpsertBody): Promise<LeadSaveResult> => {
      const lead = await apiFetch<LeadUpsertResponse>("/leads", { method: "POST", body });
      // The contract fixes the messages: 201 "Lead created", 200 "Lead updated".
      const created = lead.message === LEAD_MESSAGES.created;
      return { lead, created, matchedExisting: !created && !body.id };
    },
    onSuccess: async ({ lead }) => {
      queryClient.setQueryData(leadKeys.detail(lead.id), toLeadRecord(lead));
      await queryClient.invalidateQueries({ queryKey: leadKeys.lists() });
    },
  });
}

/** The list/get record inside a create-or-update answer (drops address_*, source, status, message). */
function toLeadRecord(response: LeadUpsertResponse): Lead {
  const record: Record<string, unknown> = { ...response };
  for (const key of Object.keys(record)) {
    if (key.startsWith("address_")) delete record[key];
  }
  delete record.source;
  delete record.status;
  delete record.message;
  return record as unknown as Lead;
}

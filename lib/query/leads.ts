"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { activityKeys } from "@/lib/query/activity";
import { apiFetch } from "@/lib/query/api-client";
import type { z } from "zod";
import {
  LEAD_MESSAGES,
  type GetLeadResponse,
  type Lead,
  type LeadDryRunResponse,
  type LeadStageTotalsResponse,
  type LeadUpsertResponse,
  type ListLeadsResponse,
  type upsertLeadBodySchema,
} from "@/lib/schemas/leads";

/**
 * TanStack Query hooks for the lead pages, over the same `/api/leads` endpoints integrations use.
 * Query keys hold every filter, so each view is cached on its own and paging back is instant.
 */

export type { Lead, LeadStageTotalsResponse, LeadUpsertResponse };

/** The body of POST /api/leads as the form sends it (before the schema's transforms). */
export type LeadUpsertBody = z.input<typeof upsertLeadBodySchema>;

export interface LeadListParams {
  page: number;
  limit: number;
  search?: string;
  /** Leads with a note containing this text. */
  note?: string;
  stage?: string;
  /** Comma-separated; a lead matches if it has any of them. */
  tags?: string;
  archived?: boolean;
  /** A user id, `none` (unassigned) or `me`. */
  assigned_to?: string;
  /** Leads whose location lies inside this territory. */
  territory_id?: string;
  /** Follow-up date range, ISO 8601 date-times, both ends inclusive. */
  follow_up_from?: string;
  follow_up_to?: string;
  /** Only leads not in a won or lost stage. */
  open?: boolean;
  /** The API's `sort`: comma-separated fields, `-` for descending; empty: newest first. */
  sort?: string;
}

/** The filters of the board's totals: the list's, without its paging and order. */
export type LeadFilters = Omit<LeadListParams, "page" | "limit" | "sort">;

export const leadKeys = {
  all: ["leads"] as const,
  // Under lists(): a saved lead refreshes the board's totals with the lists.
  lists: () => [...leadKeys.all, "list"] as const,
  list: (params: LeadListParams) => [...leadKeys.lists(), params] as const,
  stageTotals: (filters: LeadFilters) => [...leadKeys.lists(), "stage-totals", filters] as const,
  details: () => [...leadKeys.all, "detail"] as const,
  detail: (id: string) => [...leadKeys.details(), id] as const,
};

/** The filters as query parameters, shared by the list and the board (empty ones left out). */
function filterQuery(filters: LeadFilters) {
  return {
    search: filters.search?.trim() || undefined,
    note: filters.note?.trim() || undefined,
    stage: filters.stage || undefined,
    tags: filters.tags || undefined,
    archived: filters.archived ? true : undefined,
    assigned_to: filters.assigned_to || undefined,
    territory_id: filters.territory_id || undefined,
    follow_up_from: filters.follow_up_from || undefined,
    follow_up_to: filters.follow_up_to || undefined,
    open: filters.open ? true : undefined,
  };
}

export function useLeads(params: LeadListParams) {
  return useQuery({
    queryKey: leadKeys.list(params),
    queryFn: ({ signal }) =>
      apiFetch<ListLeadsResponse>("/leads", {
        query: {
          page: params.page,
          limit: params.limit,
          ...filterQuery(params),
          sort: params.sort || undefined,
        },
        signal,
      }),
    // While the next page or filter loads, keep showing the previous rows (no flash of empty table).
    placeholderData: keepPreviousData,
  });
}

/**
 * The board's columns: each stage's count and summed projected value, and the totals, over the
 * leads matching the filters (GET /api/leads/stage-totals).
 */
export function useLeadStageTotals(filters: LeadFilters) {
  return useQuery({
    queryKey: leadKeys.stageTotals(filters),
    queryFn: ({ signal }) =>
      apiFetch<LeadStageTotalsResponse>("/leads/stage-totals", { query: filterQuery(filters), signal }),
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
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: leadKeys.lists() }),
        // The lead's timeline shows the save.
        queryClient.invalidateQueries({ queryKey: activityKeys.record("lead", lead.id) }),
      ]);
    },
  });
}

/** What POST /api/leads would do with this body (?dry_run=true): nothing is written. */
export function dryRunLead(body: LeadUpsertBody): Promise<LeadDryRunResponse> {
  return apiFetch<LeadDryRunResponse>("/leads", { method: "POST", body, query: { dry_run: true } });
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
  delete record.matched_on;
  return record as unknown as Lead;
}

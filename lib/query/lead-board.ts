"use client";

import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { activityKeys } from "@/lib/query/activity";
import { apiFetch } from "@/lib/query/api-client";
import { type Lead, type LeadListParams, leadKeys } from "@/lib/query/leads";
import type { LeadUpsertResponse, ListLeadsResponse } from "@/lib/schemas/leads";

export interface LeadMove {
  lead: Lead;
  /** The stage value the lead holds now (the column it leaves). */
  from: string;
  /** The stage key it moves to. */
  to: string;
}

/** A cached list page with one lead moved: out of its old stage's list, into the new one's. */
function movedList(data: ListLeadsResponse, params: LeadListParams, move: LeadMove): ListLeadsResponse {
  const moved = { ...move.lead, stage: move.to };
  const without = data.data.filter((l) => l.id !== move.lead.id);
  const gone = without.length < data.data.length;
  const shift = (by: number) => ({ ...data.pagination, total: data.pagination.total + by });
  if (params.stage === move.from)
    return { ...data, data: without, pagination: gone ? shift(-1) : data.pagination };
  if (params.stage === move.to) return { ...data, data: [moved, ...without], pagination: shift(1) };
  return { ...data, data: data.data.map((l) => (l.id === moved.id ? moved : l)) };
}

/**
 * Moves a lead to another stage: one POST /api/leads {id, stage}. The cards move at once; the
 * column totals are refetched from the API, which owns the money. An error puts the lists back.
 */
export function useMoveLead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ lead, to }: LeadMove) =>
      apiFetch<LeadUpsertResponse>("/leads", { method: "POST", body: { id: lead.id, stage: to } }),
    onMutate: async (move) => {
      await client.cancelQueries({ queryKey: leadKeys.lists() });
      const snapshot = client.getQueriesData<unknown>({ queryKey: leadKeys.lists() });
      for (const [key, data] of snapshot) {
        // The totals are left as they are until the refetch below: no money sums in the browser.
        if (!data || key[2] === "stage-totals") continue;
        client.setQueryData(key, movedList(data as ListLeadsResponse, key[2] as LeadListParams, move));
      }
      return { snapshot };
    },
    onError: (_error, _move, context) => {
      for (const [key, data] of context?.snapshot ?? ([] as [QueryKey, unknown][]))
        client.setQueryData(key, data);
    },
    onSettled: async (_data, _error, { lead }) => {
      await Promise.all([
        client.invalidateQueries({ queryKey: leadKeys.lists() }),
        client.invalidateQueries({ queryKey: leadKeys.detail(lead.id) }),
        client.invalidateQueries({ queryKey: activityKeys.record("lead", lead.id) }),
      ]);
    },
  });
}

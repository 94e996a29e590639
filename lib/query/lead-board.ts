"use client";

import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { activityKeys } from "@/lib/query/activity";
import { apiFetch } from "@/lib/query/api-client";
import { type Lead, type LeadListParams, type LeadStageTotalsResponse, leadKeys } from "@/lib/query/leads";
import type { LeadUpsertResponse, ListLeadsResponse } from "@/lib/schemas/leads";

export interface LeadMove {
  lead: Lead;
  /** The stage value the lead holds now (the column it leaves). */
  from: string;
  /** The stage key it moves to. */
  to: string;
}

const cents = (value: number) => Math.round(value * 100) / 100;

/** The board's totals with one lead moved from one stage to another. */
function movedTotals(data: LeadStageTotalsResponse, { lead, from, to }: LeadMove): LeadStageTotalsResponse {
  const value = lead.projected_value ?? 0;
  const rows = data.data
    .map((row) =>
      row.stage === from
        ? { ...row, count: row.count - 1, projected_value: cents(row.projected_value - value) }
        : row.stage === to
          ? { ...row, count: row.count + 1, projected_value: cents(row.projected_value + value) }
          : row,
    )
    .filter((row) => row.count > 0);
  if (!rows.some((row) => row.stage === to))
    rows.push({ stage: to, count: 1, projected_value: cents(value) });
  return { ...data, data: rows };
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
 * Moves a lead to another stage: one POST /api/leads {id, stage}. The board shows the move at
 * once (cards and column totals); an error puts every cached list back as it was.
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
        if (!data) continue;
        if (key[2] === "stage-totals") {
          client.setQueryData(key, movedTotals(data as LeadStageTotalsResponse, move));
        } else {
          client.setQueryData(key, movedList(data as ListLeadsResponse, key[2] as LeadListParams, move));
        }
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

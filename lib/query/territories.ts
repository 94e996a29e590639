"use client";

import { useMutation, useQuery, useQueryClient, type Query } from "@tanstack/react-query";
import { apiFetch } from "@/lib/query/api-client";
import { leadKeys } from "@/lib/query/leads";
import { pinKeys } from "@/lib/query/pins";
import { reportKeys } from "@/lib/query/reports";
import type {
  ListTerritoriesResponse,
  Territory,
  UpsertTerritoryBody,
  UpsertTerritoryResponse,
} from "@/lib/schemas/territories";

/** Territories (extensions.md E6): GET /api/territories, POST to save one, DELETE to remove one. */

export type { Territory };
export type TerritoryInput = Omit<UpsertTerritoryBody, "polygon"> & {
  polygon?: { type: "Polygon"; coordinates: [number, number][][] };
};

export const territoryKeys = {
  all: ["territories"] as const,
};

/** The company's territories, by name (every role with pins:read sees them all). */
export function useTerritories(enabled = true) {
  return useQuery({
    queryKey: territoryKeys.all,
    queryFn: ({ signal }) =>
      apiFetch<ListTerritoriesResponse>("/territories", { signal }).then((r) => r.data),
    staleTime: 5 * 60_000,
    enabled,
  });
}

/**
 * Whether a cached pins, leads or report query filters by this territory, whose shape changed:
 * only those are refetched, since the map's pins are many pages.
 */
function filtersByTerritory(territoryId: string) {
  return (query: Query) => {
    const [root] = query.queryKey;
    if (root !== pinKeys.all[0] && root !== leadKeys.all[0] && root !== reportKeys.all[0]) return false;
    return query.queryKey.some(
      (part) =>
        typeof part === "object" &&
        part !== null &&
        ((part as { territoryId?: unknown }).territoryId === territoryId ||
          (part as { territory_id?: unknown }).territory_id === territoryId),
    );
  };
}

/** Creates a territory (no id) or updates one; refreshes the list and the lists filtered by it. */
export function useSaveTerritory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TerritoryInput) =>
      apiFetch<UpsertTerritoryResponse>("/territories", { method: "POST", body }).then((r) => r.data),
    onSuccess: (territory) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: territoryKeys.all }),
        queryClient.invalidateQueries({ predicate: filtersByTerritory(territory.id) }),
      ]),
  });
}

/** Deletes a territory; the lists filtered by it are dropped (they would answer 404 now). */
export function useDeleteTerritory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<null>(`/territories/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ predicate: filtersByTerritory(id) });
      await queryClient.invalidateQueries({ queryKey: territoryKeys.all });
    },
  });
}

/**
 * The territories as choices of a filter; a chosen one that is no longer listed (deleted
 * meanwhile) stays choosable, so the filter shows what is applied and can be cleared.
 */
export function territoryOptions(territories: readonly Territory[] | undefined, current: string) {
  const options = (territories ?? []).map((t) => ({ value: t.id, label: t.name }));
  if (current && territories && !options.some((o) => o.value === current))
    options.push({ value: current, label: "Deleted territory" });
  return options;
}

"use client";

import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ApiClientError, apiFetch } from "@/lib/query/api-client";
import { loadPins, loadPinTypes, savePins, savePinTypes, setShowingSavedPins } from "@/lib/query/saved-pins";
import type { ListPinTypesResponse, PinType } from "@/lib/schemas/pin-types";
import type { ListPinsResponse, Pin } from "@/lib/schemas/pins";

// Pins and pin types for the map, which needs every pin of the filtered set: read in pages of
// 1000 (the API's maximum), drawn as they arrive.

export type { Pin, PinType };
export type PinUser = Pin["created_by"];

export interface PinFilters {
  /** The API's pin_type_id. */
  pinTypeId?: string;
  /** The API's user_id: the user who created the pin. */
  userId?: string;
  /** The API's territory_id: pins inside the territory. */
  territoryId?: string;
}

export const PIN_PAGE_SIZE = 1000;

export const pinKeys = {
  all: ["pins"] as const,
  types: () => ["pin-types"] as const,
  map: (filters: PinFilters) =>
    [
      "pins",
      "map",
      {
        pinTypeId: filters.pinTypeId ?? null,
        userId: filters.userId ?? null,
        territoryId: filters.territoryId ?? null,
      },
    ] as const,
};

/** Pin types in the order the company set in settings (`position`), label order otherwise. */
export function usePinTypes() {
  return useQuery({
    queryKey: pinKeys.types(),
    // GET /pin-types lists by label; the sheet's buttons and the legend follow the settings' order.
    queryFn: async ({ signal }): Promise<PinType[]> => {
      let types: ListPinTypesResponse["data"];
      try {
        types = (await apiFetch<ListPinTypesResponse>("/pin-types", { signal })).data;
      } catch (error) {
        const saved = isNetworkError(error) ? await loadPinTypes().catch(() => null) : null;
        if (!saved) throw error;
        types = saved;
      }
      void savePinTypes(types).catch(() => undefined);
      return [...types].sort((a, b) => a.position - b.position);
    },
    staleTime: 5 * 60_000,
    // Offline the first try still runs (it would pause by default): the saved types answer it.
    networkMode: "offlineFirst",
  });
}

export interface AllPinsState {
  pins: Pin[];
  /** The API's total for the filters, known after the first page. */
  total: number | null;
  loaded: number;
  /** True until every page is in. */
  loading: boolean;
  error: Error | null;
  refetch: () => void;
}

/** Pages read at the same time: enough to overlap network and parsing, light on the server. */
const PARALLEL_PAGES = 3;

export interface PinSet {
  pins: Pin[];
  total: number;
  /** Set when the network failed and these are the pins saved at this time (ms since epoch). */
  savedAt?: number;
}

/** The fetch itself failed (offline, server unreachable): not an answer from the API. */
function isNetworkError(error: unknown): boolean {
  return error instanceof ApiClientError && error.status === 0;
}

interface Partial {
  key: string;
  pins: Pin[];
  total: number | null;
}

/**
 * Every pin matching the filters, a few pages at a time after the first gives the total. `pins`
 * holds what is in so far; the finished set is cached like any query.
 */
export function useAllPins(filters: PinFilters): AllPinsState {
  const key = JSON.stringify(pinKeys.map(filters));
  const [partial, setPartial] = useState<Partial | null>(null);

  const query = useQuery({
    queryKey: pinKeys.map(filters),
    queryFn: async ({ signal }): Promise<PinSet> => {
      const fetchPage = (page: number) =>
        apiFetch<ListPinsResponse>("/pins", {
          signal,
          query: {
            page,
            limit: PIN_PAGE_SIZE,
            pin_type_id: filters.pinTypeId,
            user_id: filters.userId,
            territory_id: filters.territoryId,
          },
        });
      let first: ListPinsResponse;
      try {
        first = await fetchPage(1);
      } catch (error) {
        // Offline: the pins this filter set had at the last online load, if any.
        const saved = isNetworkError(error) ? await loadPins(key).catch(() => null) : null;
        if (!saved) throw error;
        setShowingSavedPins(saved.savedAt);
        return { pins: saved.pins, total: saved.total, savedAt: saved.savedAt };
      }
      const total = first.pagination.total;
      const pageCount = Math.ceil(total / PIN_PAGE_SIZE);
      const pages: Pin[][] = [first.data];
      const report = () => setPartial({ key, pins: pages.flat(), total });
      report();
      let next = 2;
      const worker = async () => {
        while (next <= pageCount) {
          const page = next++;
          pages[page - 1] = (await fetchPage(page)).data;
          report();
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL_PAGES, Math.max(pageCount - 1, 0)) }, worker));
      // Pins added while reading shift the pages: a pin may come twice, never counted twice.
      const seen = new Set<string>();
      const pins = pages.flat().filter((pin) => (seen.has(pin.id) ? false : (seen.add(pin.id), true)));
      setShowingSavedPins(null);
      // Saving must never fail the map: a full or blocked IndexedDB only loses the offline copy.
      void savePins(key, pins, total).catch(() => undefined);
      return { pins, total };
    },
    staleTime: 5 * 60_000,
    // A refetch re-reads every page (50 requests for 50,000 pins): not on every window focus.
    refetchOnWindowFocus: false,
    // Offline the first try still runs (it would pause by default): the saved pins answer it.
    networkMode: "offlineFirst",
    // Saved pins are replaced by the server's as soon as the connection returns.
    refetchOnReconnect: (q) => (q.state.data?.savedAt !== undefined ? "always" : true),
  });

  const loading = query.isPending || (query.isFetching && !query.data);
  const inProgress = loading && partial?.key === key ? partial : null;
  const pins = query.data?.pins ?? inProgress?.pins ?? EMPTY;
  const total = query.data?.total ?? inProgress?.total ?? null;

  return {
    pins,
    total,
    loaded: pins.length,
    loading: loading && !query.isError,
    error: query.error,
    refetch: () => void query.refetch(),
  };
}

const EMPTY: Pin[] = [];

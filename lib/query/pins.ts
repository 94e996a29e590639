"use client";

import { useEffect, useMemo } from "react";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/lib/query/api-client";
import type { ListPinTypesResponse, PinType } from "@/lib/schemas/pin-types";
import type { ListPinsResponse, Pin } from "@/lib/schemas/pins";

/**
 * Pins and pin types for the map. The map needs every pin of the filtered set, not one page, so
 * the pins are read in pages of 1000 (the API's maximum) one after another, and the page shows
 * how far it got while the pins already read are on the map.
 */

export type { Pin, PinType };
export type PinUser = Pin["created_by"];

export interface PinFilters {
  /** The API's pin_type_id. */
  pinTypeId?: string;
  /** The API's user_id: the user who created the pin. */
  userId?: string;
}

export const PIN_PAGE_SIZE = 1000;

export const pinKeys = {
  all: ["pins"] as const,
  types: () => ["pin-types"] as const,
  map: (filters: PinFilters) =>
    ["pins", "map", { pinTypeId: filters.pinTypeId ?? null, userId: filters.userId ?? null }] as const,
};

export function usePinTypes() {
  return useQuery({
    queryKey: pinKeys.types(),
    queryFn: ({ signal }) => apiFetch<ListPinTypesResponse>("/pin-types", { signal }).then((r) => r.data),
    staleTime: 5 * 60_000,
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

/** Every pin matching the filters, read page after page; `pins` grows as pages arrive. */
export function useAllPins(filters: PinFilters): AllPinsState {
  const query = useInfiniteQuery({
    queryKey: pinKeys.map(filters),
    queryFn: ({ pageParam, signal }) =>
      apiFetch<ListPinsResponse>("/pins", {
        signal,
        query: {
          page: pageParam,
          limit: PIN_PAGE_SIZE,
          pin_type_id: filters.pinTypeId,
          user_id: filters.userId,
        },
      }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pagination.has_more ? last.pagination.page + 1 : undefined),
    staleTime: 5 * 60_000,
    // A refetch re-reads every page (50 requests for 50,000 pins): not on every window focus.
    refetchOnWindowFocus: false,
  });

  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = query;
  // Keep reading until the last page; a failed page stops the loop and shows the error.
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);

  const pages = query.data?.pages;
  const pins = useMemo(() => (pages ? pages.flatMap((p) => p.data) : []), [pages]);
  const total = pages && pages.length > 0 ? (pages[0]?.pagination.total ?? null) : null;

  return {
    pins,
    total,
    loaded: pins.length,
    loading: !query.isError && (query.isPending || Boolean(hasNextPage) || query.isFetchingNextPage),
    error: query.error,
    refetch: () => void query.refetch(),
  };
}

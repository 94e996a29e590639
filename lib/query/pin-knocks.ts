"use client";

import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/query/api-client";
import { pinKeys, type Pin, type PinFilters, type PinSet } from "@/lib/query/pins";
import type { GetPinResponse, PinAddress, PinUpsertResponse, PinWithVisits } from "@/lib/schemas/pins";

// Knocks from the field (E5): pin history, pin writes and a lead's pins. Saved pins go straight
// into the map's cached pin sets, so the map need not re-read every page.

export type { PinAddress };
/** A pin with E5's fields (address, notes, lead, visits count). */
export type FieldPin = Pin;
export type PinDetail = PinWithVisits;

/** POST /pins: a create (location and pin_type_id) or a change of a pin by id. */
export interface SavePinBody {
  id?: string;
  client_id?: string;
  location?: [number, number];
  pin_type_id?: string;
  notes?: string | null;
  address?: Partial<PinAddress>;
  lead_id?: string | null;
  /** When the knock or outcome change happened (ISO 8601); the server's now when absent. */
  visited_at?: string;
}

export const pinDetailKey = (id: string) => ["pins", "detail", id] as const;
export const leadPinsKey = (leadId: string) => ["pins", "lead", leadId] as const;

export function fetchPin(id: string, signal?: AbortSignal): Promise<PinDetail> {
  return apiFetch<GetPinResponse>(`/pins/${encodeURIComponent(id)}`, { signal }).then((r) => r.data);
}

/** POST /pins; the answer is the pin, flat, with the upsert's status and message beside it. */
export function postPin(body: SavePinBody): Promise<FieldPin> {
  return apiFetch<PinUpsertResponse>("/pins", { method: "POST", body });
}

/** A pin and its visits, newest first. */
export function usePinDetail(id: string | null) {
  return useQuery({
    queryKey: pinDetailKey(id ?? ""),
    queryFn: ({ signal }) => fetchPin(id!, signal),
    enabled: Boolean(id),
  });
}

function matches(pin: Pin, filters: PinFilters): boolean {
  return (
    (!filters.pinTypeId || pin.pin_type.id === filters.pinTypeId) &&
    (!filters.userId || pin.created_by.user_id === filters.userId)
  );
}

/**
 * Puts saved pins into every cached map set: replaced where they were, added where they now match
 * the set's filters, taken out where they no longer do. One new set each, however many pins.
 */
export function putPinsInCaches(client: QueryClient, saved: readonly FieldPin[]) {
  if (saved.length === 0) return;
  // The last answer of a pin wins (two outcome changes of one pin in a batch).
  const byId = new Map(saved.map((pin) => [pin.id, pin]));
  for (const [key, set] of client.getQueriesData<PinSet>({ queryKey: [...pinKeys.all, "map"] })) {
    if (!set) continue;
    const filters = (key[2] ?? {}) as { pinTypeId?: string | null; userId?: string | null };
    const keeps = (pin: Pin) =>
      matches(pin, { pinTypeId: filters.pinTypeId ?? undefined, userId: filters.userId ?? undefined });
    const placed = new Set<string>();
    let changed = false;
    const pins: Pin[] = [];
    for (const pin of set.pins) {
      const now = byId.get(pin.id);
      if (!now) {
        pins.push(pin);
        continue;
      }
      placed.add(pin.id);
      changed = true;
      if (keeps(now)) pins.push(now);
    }
    const added = [...byId.values()].filter((pin) => !placed.has(pin.id) && keeps(pin)).reverse();
    if (!changed && added.length === 0) continue;
    const all = added.length > 0 ? [...added, ...pins] : pins;
    client.setQueryData<PinSet>(key, { pins: all, total: set.total + (all.length - set.pins.length) });
  }
}

/** Puts one saved pin into every cached map set (putPinsInCaches). */
export function putPinInCaches(client: QueryClient, pin: FieldPin) {
  putPinsInCaches(client, [pin]);
}

/** POST /pins, then the map and the pin's history show the change. */
export function useSavePin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: postPin,
    onSuccess: async (pin) => {
      putPinInCaches(client, pin);
      await Promise.all([
        client.invalidateQueries({ queryKey: pinDetailKey(pin.id) }),
        client.invalidateQueries({ queryKey: [...pinKeys.all, "lead"] }),
      ]);
    },
  });
}

/** The pins linked to a lead (GET /pins?lead_id=), for the lead's small map. */
export function useLeadPins(leadId: string) {
  return useQuery({
    queryKey: leadPinsKey(leadId),
    queryFn: ({ signal }) =>
      apiFetch<{ data: FieldPin[] }>("/pins", { signal, query: { lead_id: leadId, limit: 10 } }).then(
        (r) => r.data,
      ),
  });
}

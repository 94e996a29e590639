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
 * Puts a saved pin into every cached map set: replaced where it was, added where it now matches
 * the set's filters, taken out where it no longer does.
 */
export function putPinInCaches(client: QueryClient, pin: FieldPin) {
  for (const [key, set] of client.getQueriesData<PinSet>({ queryKey: [...pinKeys.all, "map"] })) {
    if (!set) continue;
    const filters = (key[2] ?? {}) as { pinTypeId?: string | null; userId?: string | null };
    const keep = matches(pin, {
      pinTypeId: filters.pinTypeId ?? undefined,
      userId: filters.userId ?? undefined,
    });
    const at = set.pins.findIndex((p) => p.id === pin.id);
    if (at === -1 && !keep) continue;
    const pins = set.pins.slice();
    if (at === -1) pins.unshift(pin);
    else if (keep) pins[at] = pin;
    else pins.splice(at, 1);
    client.setQueryData<PinSet>(key, { pins, total: set.total + (pins.length - set.pins.length) });
  }
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

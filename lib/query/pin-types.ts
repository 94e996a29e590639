"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/lib/query/api-client";
import { pinKeys, type PinType } from "@/lib/query/pins";

/**
 * The company's pin types as admins manage them (GET / PUT /settings/pin-types): the whole
 * ordered list is saved at once; a type left out is removed (refused while pins use it).
 */

export interface PinTypeInput {
  /** Absent for a type added in settings. */
  id?: string;
  label: string;
  color: string;
}

const settingsKey = ["settings", "pin-types"] as const;

export function usePinTypeSettings() {
  return useQuery({
    queryKey: settingsKey,
    queryFn: ({ signal }) =>
      apiFetch<{ data: PinType[] }>("/settings/pin-types", { signal }).then((r) => r.data),
  });
}

/** Saves the ordered list; the map, its legend and the knock sheet then read the new one. */
export function useSavePinTypes() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (pinTypes: PinTypeInput[]) =>
      apiFetch<{ data: PinType[] }>("/settings/pin-types", {
        method: "PUT",
        body: { pin_types: pinTypes },
      }).then((r) => r.data),
    onSuccess: async (types) => {
      client.setQueryData(settingsKey, types);
      await client.invalidateQueries({ queryKey: pinKeys.types() });
    },
  });
}

"use client";

import { useCallback, useEffect, useRef, useSyncExternalStore } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ApiClientError } from "@/lib/query/api-client";
import { postPin, putPinInCaches, type PinAddress } from "@/lib/query/pin-knocks";

// Knocks logged offline wait in localStorage per user. Each has a client_id made once, which the
// API answers with its existing pin, so a retry after a lost answer never makes two pins.

export interface PendingKnock {
  client_id: string;
  location: [number, number];
  pin_type_id: string;
  notes?: string;
  address?: Partial<PinAddress>;
  /** When it was logged (ISO 8601). */
  logged_at: string;
  /** The API refused it (not a network failure): the reason, until the user fixes or discards it. */
  error?: string;
}

const storageKey = (userId: string) => `knocks-pending:${userId}`;
const listeners = new Set<() => void>();
const EMPTY: PendingKnock[] = [];
let cache: { raw: string | null; list: PendingKnock[] } = { raw: null, list: EMPTY };

function read(userId: string): PendingKnock[] {
  const raw = typeof window === "undefined" ? null : window.localStorage.getItem(storageKey(userId));
  if (raw === cache.raw) return cache.list;
  let list: PendingKnock[] = EMPTY;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (Array.isArray(parsed)) list = parsed as PendingKnock[];
  } catch {
    // A damaged entry is dropped rather than blocking every later knock.
  }
  cache = { raw, list };
  return list;
}

function write(userId: string, list: PendingKnock[]) {
  if (list.length === 0) window.localStorage.removeItem(storageKey(userId));
  else window.localStorage.setItem(storageKey(userId), JSON.stringify(list));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab of the same user changes the list too.
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

/** A network failure (no answer), as opposed to the API refusing the knock. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof ApiClientError && error.status === 0;
}

export function newClientId(): string {
  return crypto.randomUUID();
}

/**
 * The user's pending knocks, and sending them: on load, when the connection returns, and on
 * demand. Knocks the API refuses stay with their reason; a network failure stops the round.
 */
export function useKnockOutbox(userId: string | undefined) {
  const client = useQueryClient();
  const pending = useSyncExternalStore(
    subscribe,
    () => (userId ? read(userId) : EMPTY),
    () => EMPTY,
  );
  const sending = useRef(false);

  const update = useCallback(
    (change: (list: PendingKnock[]) => PendingKnock[]) => {
      if (userId) write(userId, change(read(userId)));
    },
    [userId],
  );

  const add = useCallback((knock: PendingKnock) => update((list) => [...list, knock]), [update]);
  const discard = useCallback(
    (clientId: string) => update((list) => list.filter((k) => k.client_id !== clientId)),
    [update],
  );

  const flush = useCallback(async () => {
    if (!userId || sending.current || !navigator.onLine) return;
    sending.current = true;
    try {
      for (const knock of read(userId)) {
        if (knock.error) continue;
        try {
          const pin = await postPin({
            client_id: knock.client_id,
            location: knock.location,
            pin_type_id: knock.pin_type_id,
            notes: knock.notes || undefined,
            address: knock.address,
          });
          putPinInCaches(client, pin);
          update((list) => list.filter((k) => k.client_id !== knock.client_id));
        } catch (error) {
          if (isNetworkFailure(error)) break;
          const reason = error instanceof Error ? error.message : "The knock was refused.";
          update((list) => list.map((k) => (k.client_id === knock.client_id ? { ...k, error: reason } : k)));
        }
      }
    } finally {
      sending.current = false;
    }
  }, [userId, client, update]);

  /** Sends a refused knock again (after the user changed it, or to try once more). */
  const retry = useCallback(
    (knock: PendingKnock) => {
      update((list) =>
        list.map((k) => (k.client_id === knock.client_id ? { ...knock, error: undefined } : k)),
      );
      void flush();
    },
    [update, flush],
  );

  useEffect(() => {
    void flush();
    const online = () => void flush();
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [flush]);

  return { pending, add, discard, retry, flush };
}

"use client";

import { useCallback, useEffect, useRef, useSyncExternalStore } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { ApiClientError } from "@/lib/query/api-client";
import { postPin, putPinInCaches, type PinAddress } from "@/lib/query/pin-knocks";

// Knocks logged offline wait in localStorage per user. Each has a client_id made once, which the
// API answers with its existing pin, so a retry after a lost answer never makes two pins. A knock
// the API refuses (a 4xx other than sign-in or rate limit) would be refused again: it leaves the
// queue and is shown to the user, instead of waiting to be sent forever.

export interface PendingKnock {
  client_id: string;
  location: [number, number];
  pin_type_id: string;
  notes?: string;
  address?: Partial<PinAddress>;
  /** When it was logged (ISO 8601). */
  logged_at: string;
  /** Why the API refused it, when the user logs it again (never kept in the queue). */
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

/**
 * A refusal that sending again would only repeat: a 4xx answer about the knock itself (400, 403,
 * 404, 409). No answer, a cut-off answer, a 5xx, 401 (signed out), 408 and 429 may pass later.
 */
export function isFinalRefusal(error: unknown): error is ApiClientError {
  return (
    error instanceof ApiClientError &&
    error.status >= 400 &&
    error.status < 500 &&
    ![401, 408, 429].includes(error.status)
  );
}

/** What to tell the user of a refusal: the message, with each field's problem when given. */
export function refusalReason(error: ApiClientError): string {
  const fields = error.details.map((d) => `${d.field} ${d.message}`);
  return fields.length > 0 ? `${error.message} (${fields.join("; ")})` : error.message;
}

export function newClientId(): string {
  return crypto.randomUUID();
}

/**
 * The user's pending knocks, and sending them: on load, when the connection returns, and on
 * demand. A knock the API refuses leaves the queue through `onRefused`; any other failure stops
 * the round and keeps the knock for the next one.
 */
export function useKnockOutbox(
  userId: string | undefined,
  { onRefused }: { onRefused?: (knock: PendingKnock, reason: string) => void } = {},
) {
  const client = useQueryClient();
  const pending = useSyncExternalStore(
    subscribe,
    () => (userId ? read(userId) : EMPTY),
    () => EMPTY,
  );
  const sending = useRef(false);
  const refused = useRef(onRefused);
  useEffect(() => {
    refused.current = onRefused;
  }, [onRefused]);

  const update = useCallback(
    (change: (list: PendingKnock[]) => PendingKnock[]) => {
      if (userId) write(userId, change(read(userId)));
    },
    [userId],
  );

  const add = useCallback(
    (knock: PendingKnock) => update((list) => [...list, { ...knock, error: undefined }]),
    [update],
  );
  const remove = useCallback(
    (clientId: string) => update((list) => list.filter((k) => k.client_id !== clientId)),
    [update],
  );

  const flush = useCallback(async () => {
    if (!userId || sending.current || !navigator.onLine) return;
    sending.current = true;
    try {
      for (const knock of read(userId)) {
        try {
          const pin = await postPin({
            client_id: knock.client_id,
            location: knock.location,
            pin_type_id: knock.pin_type_id,
            notes: knock.notes || undefined,
            address: knock.address,
          });
          putPinInCaches(client, pin);
          remove(knock.client_id);
        } catch (error) {
          if (!isFinalRefusal(error)) break;
          remove(knock.client_id);
          refused.current?.(knock, refusalReason(error));
        }
      }
    } finally {
      sending.current = false;
    }
  }, [userId, client, remove]);

  useEffect(() => {
    void flush();
    const online = () => void flush();
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [flush]);

  return { pending, add, flush };
}
